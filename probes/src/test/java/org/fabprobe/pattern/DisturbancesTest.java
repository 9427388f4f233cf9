package org.fabprobe.pattern;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.fabprobe.pattern.Disturbances.Reading;
import org.junit.jupiter.api.Test;

class DisturbancesTest {
    private static final Reading QUIET = new Reading(0, 0, 0);
    /** 20 samples of 10 us: 0.5 % of their sum is 1 us. */
    private static final double SAMPLED_NS = 200_000;

    @Test
    void aShortPreemptionDoesNotDisturbButWaitingForACpuDoes() {
        assertFalse(Disturbances.disturbed(new Reading(1, 800, 0), QUIET, SAMPLED_NS), "0.8 us of waiting in 200 us");
        assertTrue(Disturbances.disturbed(new Reading(1, 4_000_000, 0), QUIET, SAMPLED_NS), "a 4 ms time slice lost");
        assertTrue(Disturbances.disturbed(new Reading(1, 600, 0), new Reading(1, 600, 0), SAMPLED_NS),
                "both sides' waits add up");
        assertFalse(Disturbances.disturbed(QUIET, QUIET, SAMPLED_NS));
    }

    @Test
    void aMissedDeadlineAlwaysDisturbs() {
        assertTrue(Disturbances.disturbed(QUIET, new Reading(0, 0, 1), SAMPLED_NS));
    }

    @Test
    void whereTheWaitIsUnknownEveryPreemptionCounts() {
        assertTrue(Disturbances.disturbed(new Reading(1, -1, 0), QUIET, SAMPLED_NS));
        assertFalse(Disturbances.disturbed(new Reading(0, -1, 0), QUIET, SAMPLED_NS));
        assertEquals(-1, new Reading(3, 100, 0).since(new Reading(1, -1, 0)).waitNs(), "unknown stays unknown");
    }

    @Test
    void readsTheCallingThreadsRunDelay() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/thread-self/schedstat")), "no schedstat in this kernel");
        long[] seen = new long[2];
        Thread t = new Thread(() -> {
            seen[0] = Disturbances.cpuWaitNs();
            long end = System.nanoTime() + 20_000_000;
            while (System.nanoTime() < end) Thread.onSpinWait();
            seen[1] = Disturbances.cpuWaitNs();
        });
        t.start();
        t.join();
        assertTrue(seen[0] >= 0 && seen[1] >= seen[0], "run delay " + seen[0] + " then " + seen[1] + " ns");
    }
}
