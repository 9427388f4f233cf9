package org.fabprobe.method;

import java.util.Arrays;
import java.util.function.UnaryOperator;

/**
 * Exact order statistics (the k-th smallest value) of values spread over many ranks, without
 * gathering them: each rank counts its own values in {@value #BINS} bins of the range where the
 * k-th value must lie, the counts are summed over the ranks (an allreduce), and the range
 * shrinks to the one bin that holds it. The bins split the range of the values' bit patterns
 * (a non-negative double orders as its bits do), so after ceil(63 / 6) = 11 sums the range is
 * one double: the exact value, equal to what sorting all of them would give.
 *
 * <p>One job is one (set of values, k). Jobs run side by side, {@value #BATCH} at a time, so the
 * summed vector stays {@value #BATCH} x {@value #BINS} doubles whatever the number of jobs or
 * values. What a rank keeps is four numbers per job: memory independent of the values' count.
 * Values must be finite and >= 0 (latencies, bandwidths, absolute deviations); others are
 * ignored by the caller.
 */
public final class DistributedSelection {
    static final int BINS = 64, BATCH = 256;
    private static final long END = Double.doubleToRawLongBits(Double.POSITIVE_INFINITY);

    private final long[] k, lo, hi, below;
    private final double[] result;

    /** @param k per job the 0-based position wanted; -1: none (the result is NaN) */
    public DistributedSelection(long[] k) {
        int jobs = k.length;
        this.k = k.clone();
        lo = new long[jobs];
        hi = new long[jobs];
        below = new long[jobs];
        result = new double[jobs];
        Arrays.fill(hi, END);
        Arrays.fill(result, Double.NaN);
        for (int j = 0; j < jobs; j++) if (k[j] < 0) hi[j] = lo[j]; // nothing to find
    }

    /**
     * Selects on every rank at once; {@code values[j]} is this rank's values of job j, sorted
     * ascending; {@code sum} sums a vector over all ranks and returns the sum on every rank.
     */
    public static double[] select(double[][] values, long[] k, UnaryOperator<double[]> sum) {
        DistributedSelection s = new DistributedSelection(k);
        for (int from = 0; from < k.length; from += BATCH) {
            int to = Math.min(k.length, from + BATCH);
            while (!s.done(from, to)) s.advance(from, to, sum.apply(s.counts(values, from, to)));
        }
        return s.result.clone();
    }

    /** True when jobs from..to-1 are all found (every rank agrees: the state is the same everywhere). */
    boolean done(int from, int to) {
        for (int j = from; j < to; j++) if (hi[j] - lo[j] > 1) return false;
        return true;
    }

    /** This rank's counts of jobs from..to-1: per job {@value #BINS} bins of its current range. */
    double[] counts(double[][] values, int from, int to) {
        double[] c = new double[(to - from) * BINS];
        for (int j = from; j < to; j++) {
            if (hi[j] - lo[j] <= 1) continue;
            long width = width(j);
            double[] v = values[j];
            int start = lowerBound(v, lo[j]);
            for (int b = 0; b < BINS; b++) {
                long upper = Math.min(hi[j], lo[j] + (b + 1) * width);
                int end = lowerBound(v, upper);
                c[(j - from) * BINS + b] = end - start;
                start = end;
                if (upper == hi[j]) break;
            }
        }
        return c;
    }

    /** Narrows each job's range to the bin that holds its k-th value, from the counts summed over all ranks. */
    void advance(int from, int to, double[] totals) {
        for (int j = from; j < to; j++) {
            if (hi[j] - lo[j] <= 1) continue;
            long width = width(j), cumulative = below[j];
            boolean found = false;
            for (int b = 0; b < BINS && !found; b++) {
                long count = (long) totals[(j - from) * BINS + b];
                if (k[j] < cumulative + count) {
                    long start = lo[j] + b * width;
                    hi[j] = Math.min(hi[j], start + width);
                    lo[j] = start;
                    below[j] = cumulative;
                    found = true;
                } else {
                    cumulative += count;
                }
            }
            if (!found) hi[j] = lo[j]; // fewer values than k: no such value
            else if (hi[j] - lo[j] == 1) result[j] = Double.longBitsToDouble(lo[j]);
        }
    }

    private long width(int j) {
        long span = hi[j] - lo[j];
        return (span + BINS - 1) / BINS;
    }

    /** The first index whose value's bits are >= {@code bits}. */
    private static int lowerBound(double[] sorted, long bits) {
        int a = 0, b = sorted.length;
        while (a < b) {
            int m = (a + b) >>> 1;
            if (Double.doubleToRawLongBits(sorted[m]) < bits) a = m + 1;
            else b = m;
        }
        return a;
    }

    /** The values found so far (NaN: not yet, or none). */
    double[] values() {
        return result.clone();
    }

    /** Longs this selection keeps per job (its whole state besides the result): independent of the values. */
    static int stateLongsPerJob() {
        return 4;
    }
}
