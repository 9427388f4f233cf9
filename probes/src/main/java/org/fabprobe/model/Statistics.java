package org.fabprobe.model;

import java.util.Arrays;

/** Order statistics and moments of timing samples. Pure functions. */
public final class Statistics {
    private Statistics() {}

    /**
     * Summarizes the first {@code count} samples. Percentiles use the nearest-rank rule
     * (the smallest sample with at least p % of the samples at or below it); outliers are
     * samples above Tukey's far fence q3 + 3 IQR: interference, not the network. The 95 %
     * confidence half-width of the mean is t * stddev / sqrt(n), with Student's t up to 30
     * degrees of freedom and 1.96 beyond. One sample has no spread: stddev and ci95 are NaN.
     */
    public static Summary summarize(double[] samples, int count) {
        if (count < 1) throw new IllegalArgumentException("no samples");
        if (count > samples.length) {
            throw new IllegalArgumentException(count + " samples asked for, " + samples.length + " given");
        }
        double[] sorted = Arrays.copyOf(samples, count);
        Arrays.sort(sorted);
        double sum = 0;
        for (double v : sorted) sum += v;
        double mean = sum / count;
        double squares = 0;
        for (double v : sorted) squares += (v - mean) * (v - mean);
        double stddev = count > 1 ? Math.sqrt(squares / (count - 1)) : Double.NaN;
        double ci95 = count > 1 ? tQuantile975(count - 1) * stddev / Math.sqrt(count) : Double.NaN;
        double q1 = percentile(sorted, 25), q3 = percentile(sorted, 75);
        double fence = q3 + 3 * (q3 - q1);
        int outliers = count - upperBound(sorted, fence);
        return new Summary(count, sorted[0], percentile(sorted, 50), percentile(sorted, 99), mean, stddev, ci95, outliers);
    }

    /** Nearest-rank percentile of sorted data, p in (0, 100]. */
    public static double percentile(double[] sorted, double p) {
        int rank = (int) Math.ceil(p * sorted.length / 100); // p * n first: exact for whole p
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** Index of the first element greater than {@code value}. */
    private static int upperBound(double[] sorted, double value) {
        int lo = 0, hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= value) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** Two-sided 95 % Student-t quantiles for 1..30 degrees of freedom. */
    private static final double[] T_975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
            2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
            2.056, 2.052, 2.048, 2.045, 2.042};

    /** Two-sided 95 % Student-t quantile; 1.96 beyond 30 degrees of freedom. */
    static double tQuantile975(int degreesOfFreedom) {
        return degreesOfFreedom <= T_975.length ? T_975[degreesOfFreedom - 1] : 1.96;
    }
}
