package org.fabprobe.method;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.atomic.AtomicInteger;
import org.fabprobe.method.Sampler.Sampled;
import org.junit.jupiter.api.Test;

/** A stall between a batch's samples (its untimed rounds) is in no sample: its wall time shows it. */
class SamplerTest {

    @Test
    void aBatchThatStalledOutsideItsSamplesIsMeasuredAgain() {
        AtomicInteger calls = new AtomicInteger();
        // converges only after several batches (a spread of 100 ns around 1 us), 10 s cap
        Sampler sampler = new Sampler(0.001, 0, 20, 2, 200, 10e9);
        Sampled s = sampler.sampleOne(reps -> {
            if (calls.incrementAndGet() == 3) sleep(150); // the stall: in no sample
            double[] ns = new double[reps];
            for (int i = 0; i < reps; i++) ns[i] = 1000 + (i * 37 % 100);
            return ns;
        });
        assertTrue(calls.get() > 3, "sampling ended before the stalled batch");
        assertTrue(s.disturbedBatches() >= 1, "the batch that stalled 150 ms was kept");
        assertFalse(s.disturbed(), "the others were undisturbed");
    }

    @Test
    void aStallIsBeyondTheBoundAndTheFastestBatch() {
        assertFalse(Sampler.stalled(200_000_000, Long.MAX_VALUE), "the first batch has no reference");
        assertFalse(Sampler.stalled(40_000_000, 1_000_000), "39 ms: a busy host's slices");
        assertTrue(Sampler.stalled(100_000_000, 1_000_000));
        assertFalse(Sampler.stalled(250_000_000, 200_000_000), "large batches: within twice their time");
        assertTrue(Sampler.stalled(3_300_000_000L, 200_000_000));
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
