package org.fabprobe.model;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class StatisticsTest {
    @Test
    void orderStatisticsUseNearestRank() {
        double[] v = new double[100];
        for (int i = 0; i < 100; i++) v[i] = 100 - i; // 100..1, unsorted
        Summary s = Statistics.summarize(v, 100);
        assertEquals(1, s.min());
        assertEquals(50, s.median());
        assertEquals(99, s.p99());
        assertEquals(50.5, s.mean(), 1e-12);
        assertEquals(0, s.outliers());
        assertEquals(100, v[0], "input must not be reordered");
    }

    /**
     * Round trips of true length 203 +- a few ns timed by a clock that steps every 10 ns: the
     * nearest-rank median of the halves sits on the 5 ns grid, the grid median near 101.5.
     */
    @Test
    void gridMedianRecoversWhatAQuantizedClockRoundsAway() {
        java.util.Random random = new java.util.Random(11);
        double quantum = 10, trueMedianHalf = 101.5;
        double[] halves = new double[20_000];
        double time = 0;
        for (int i = 0; i < halves.length; i++) {
            double start = time + random.nextDouble() * 1000, length = 2 * trueMedianHalf + random.nextGaussian() * 6;
            double ticks = Math.floor((start + length) / quantum) - Math.floor(start / quantum);
            halves[i] = ticks * quantum / 2;
            time = start + length;
        }
        Summary plain = Statistics.summarize(halves, halves.length);
        Summary grid = Statistics.summarize(halves, halves.length, quantum / 2);
        assertEquals(0, plain.median() % 5, 1e-9, "nearest rank: on the grid");
        assertEquals(trueMedianHalf, grid.median(), 0.3);
        assertTrue(Math.abs(grid.median() - plain.median()) <= 2.5);
        assertTrue(grid.p99() >= grid.median() && grid.median() >= grid.min());
    }

    @Test
    void gridPercentileOfEqualSamplesIsThatValue() {
        double[] same = {40, 40, 40, 40, 40, 40, 40};
        assertEquals(40, Statistics.gridPercentile(same, 50, 5), 1e-12);
        assertEquals(40, Statistics.gridPercentile(same, 50, 0), 1e-12);
        // no grid: nearest rank
        assertEquals(3, Statistics.gridPercentile(new double[] {1, 2, 3, 4, 5}, 50, 0));
        // two cells, 30 % at 10 and 70 % at 20: the median is 2/7 into the cell [15, 25)
        double[] twoCells = new double[100];
        java.util.Arrays.fill(twoCells, 30, 100, 20);
        java.util.Arrays.fill(twoCells, 0, 30, 10);
        assertEquals(15 + 10 * 20.0 / 70, Statistics.gridPercentile(twoCells, 50, 10), 1e-9);
    }

    @Test
    void nearestRankOnSmallSamples() {
        Summary s = Statistics.summarize(new double[] {5, 1, 4, 2, 3}, 5);
        assertEquals(3, s.median());
        assertEquals(5, s.p99());
        assertEquals(Math.sqrt(2.5), s.stddev(), 1e-12);
    }

    @Test
    void farOutliersAreCountedAndOnlyTheFirstCountSamplesUsed() {
        double[] v = new double[1000];
        for (int i = 0; i < 1000; i++) v[i] = 400 + (i % 10);
        v[3] = 50_000; // a preempted round trip
        v[999] = 1e9;  // beyond count: ignored
        Summary s = Statistics.summarize(v, 999);
        assertEquals(999, s.count());
        assertEquals(1, s.outliers());
        assertEquals(409, s.p99());
        assertTrue(s.ci95() > 0 && s.stddev() > 0);
    }

    @Test
    void confidenceIntervalUsesStudentsTAtEveryDegreeOfFreedom() {
        assertEquals(4.303 / Math.sqrt(3), Statistics.summarize(new double[] {1, 2, 3}, 3).ci95(), 1e-3);
        double[] alternating = new double[40];
        for (int i = 0; i < 40; i++) alternating[i] = i % 2;
        Summary s = Statistics.summarize(alternating, 40);
        // t(0.975, 39) = 2.0227 (tables), not the normal 1.96 a table cut off at 30 used
        assertEquals(2.0227 * s.stddev() / Math.sqrt(40), s.ci95(), 1e-3 * s.ci95());
        assertEquals(12.706, Statistics.tQuantile975(1), 1e-3);
        assertEquals(1.984, Statistics.tQuantile975(100), 1e-3);
        assertEquals(1.9604, Statistics.tQuantile975(10_000), 1e-3);
    }

    @Test
    void oneSampleHasNoSpread() {
        Summary s = Statistics.summarize(new double[] {7}, 1);
        assertEquals(7, s.median());
        assertTrue(Double.isNaN(s.stddev()) && Double.isNaN(s.ci95()));
    }

    @Test
    void badCountsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Statistics.summarize(new double[0], 0));
        assertThrows(IllegalArgumentException.class, () -> Statistics.summarize(new double[2], 3));
    }

    @Test
    void theMediansIntervalIsNeverNarrowerThanOneClockTick() {
        double[] ties = new double[300];
        java.util.Arrays.fill(ties, 9549.19);
        ties[0] = 9524.0;
        ties[1] = 9619.0; // an emulator's loop: one tick count over and over, two strays
        Estimate tight = MedianCi.of(ties, ties.length, 0.385);
        assertEquals(9549.19, tight.value(), 1e-9);
        assertEquals(0.385, tight.ci95(), 1e-12, "ties at the median are known to within a tick, not exactly");
        double[] spread = new double[100];
        for (int i = 0; i < spread.length; i++) spread[i] = 1000 + i;
        assertTrue(MedianCi.of(spread, spread.length, 0.385).ci95() >= 9, "a real spread is kept");
    }
}
