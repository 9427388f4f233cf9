package org.fabprobe.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TransportOptionsTest {
    private static int ringSlots(int depth) {
        return new TransportOptions(64, depth, Duration.ofSeconds(1), "").ringSlots();
    }

    @Test
    void ringSlotsAreThePowerOfTwoAtOrAboveTheDepth() {
        int[] depths = {1, 2, 3, 4, 5, 8, 9, 64, 100};
        int[] slots = {1, 2, 4, 4, 8, 8, 16, 64, 128};
        for (int i = 0; i < depths.length; i++) assertEquals(slots[i], ringSlots(depths[i]), "depth " + depths[i]);
    }

    @Test
    void depthBelowOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ringSlots(0));
    }
}
