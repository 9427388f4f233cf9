package org.fabprobe.model;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The two-state detector on synthetic batch medians: two states are found, one noisy state is not. */
class StateSplitTest {

    @Test
    void theTcp16KiBStatesAreFound() {
        // UCX over tcp at 16 KiB: batches at 22.4-22.7 µs, and after another history 20.0-20.6 µs
        double[] batches = {22_450, 22_600, 22_700, 20_100, 20_600, 20_000, 22_400};
        StateSplit.States s = StateSplit.bimodal(batches);
        assertNotNull(s);
        assertEquals(3, s.lowCount());
        assertEquals(4, s.highCount());
        assertEquals(20_100, s.low(), 1e-9);
        assertEquals(22_525, s.high(), 1e-9);
    }

    @Test
    void oneNoisyStateIsNotSplit() {
        Random random = new Random(7);
        for (int run = 0; run < 500; run++) {
            double[] batches = new double[4 + random.nextInt(20)];
            // ±2 % scatter of batch medians around 20 µs, more than loopback tcp shows at rest
            for (int i = 0; i < batches.length; i++) batches[i] = 20_000 * (1 + 0.02 * random.nextGaussian());
            assertNull(StateSplit.bimodal(batches), () -> "run with " + batches.length + " batches");
        }
    }

    @Test
    void aSingleOutlierBatchIsNoState() {
        assertNull(StateSplit.bimodal(new double[] {20_000, 20_050, 19_980, 20_020, 26_000}));
        assertNull(StateSplit.bimodal(new double[] {20_000, 26_000, 26_100}));
    }

    @Test
    void twoPassesDifferBeyondTheirUncertainty() {
        assertNotNull(StateSplit.differ(new Estimate(22_500, 100), new Estimate(20_300, 150)));
        // within both intervals: one state
        assertNull(StateSplit.differ(new Estimate(22_500, 800), new Estimate(21_300, 700)));
        // 2 % apart, well measured: noise or the host's drift, below the two-state bound
        assertNull(StateSplit.differ(new Estimate(20_000, 20), new Estimate(20_400, 20)));
        // sub-µs: 40 ns is the clock's and the loop's scatter
        assertNull(StateSplit.differ(new Estimate(600, 2), new Estimate(640, 2)));
    }
}
