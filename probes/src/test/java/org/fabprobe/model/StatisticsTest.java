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
        assertTrue(s.ci95() > 0 && s.stddev() > 0);
    }

    @Test
    void confidenceIntervalUsesStudentForSmallSamples() {
        Summary s = Statistics.summarize(new double[] {1, 2, 3}, 3);
        assertEquals(4.303 * 1 / Math.sqrt(3), s.ci95(), 1e-9);
    }

    @Test
    void emptyIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Statistics.summarize(new double[0], 0));
    }
}
