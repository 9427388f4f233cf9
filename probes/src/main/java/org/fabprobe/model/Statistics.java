package org.fabprobe.model;

import java.util.Arrays;
import org.apache.commons.statistics.distribution.TDistribution;

/** Order statistics and moments of timing samples. Pure functions. */
public final class Statistics {
    private Statistics() {}

    /**
     * Summarizes the first {@code count} samples. Percentiles use the nearest-rank rule
     * (the smallest sample with at least p % of the samples at or below it); outliers are
     * samples above Tukey's far fence q3 + 3 IQR: interference, not the network. The 95 %
     * confidence half-width of the mean is t * stddev / sqrt(n), with Student's t for n - 1
     * degrees of freedom. One sample has no spread: stddev and ci95 are NaN.
     */
    public static Summary summarize(double[] samples, int count) {
        return summarize(samples, count, 0);
    }

    /**
     * As {@link #summarize(double[], int)} for samples that a clock rounded to a grid of
     * {@code gridStep} (one clock quantum; 0 for none): median and p99 are then {@link #gridPercentile}s.
     */
    public static Summary summarize(double[] samples, int count, double gridStep) {
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
        return new Summary(count, sorted[0], gridPercentile(sorted, 50, gridStep), gridPercentile(sorted, 99, gridStep), sorted[count - 1], mean, stddev, ci95, outliers);
    }

    /**
     * The p-th percentile of sorted samples that a clock rounded to a grid of {@code step}, as
     * for grouped data: each grid value stands for the cell of width {@code step} around it, and
     * the percentile lies in its cell as far as p % of the samples reach into it. A nearest-rank
     * percentile moves in whole steps: with this VM's 10 ns clock the median of a ~102 ns half
     * round trip read 100.1 or 105.2 ns from run to run, never a value between. Within half a
     * step of the nearest-rank percentile; equal to it when {@code step} is 0 or all samples are.
     */
    public static double gridPercentile(double[] sorted, double p, double step) {
        double nearest = percentile(sorted, p);
        if (!(step > 0)) return nearest;
        int below = lowerBound(sorted, nearest - step / 2);
        int inCell = upperBound(sorted, nearest + step / 2) - below;
        double reach = Math.min(1, Math.max(0, (p * sorted.length / 100 - below) / inCell));
        return nearest - step / 2 + reach * step;
    }

    /** Index of the first element not less than {@code value}. */
    private static int lowerBound(double[] sorted, double value) {
        int lo = 0, hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < value) lo = mid + 1;
            else hi = mid;
        }
        return lo;
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

    /** Quantiles for small degrees of freedom, computed once: fits and summaries ask for them often. */
    private static final double[] T_975 = new double[256];

    static {
        for (int df = 1; df <= T_975.length; df++) T_975[df - 1] = TDistribution.of(df).inverseCumulativeProbability(0.975);
    }

    /**
     * Two-sided 95 % Student-t quantile (Apache Commons Statistics): 12.71 at 1 degree of
     * freedom, 2.04 at 30, 1.98 at 100, 1.96 in the limit.
     */
    public static double tQuantile975(int degreesOfFreedom) {
        if (degreesOfFreedom < 1) return Double.NaN;
        if (degreesOfFreedom <= T_975.length) return T_975[degreesOfFreedom - 1];
        return TDistribution.of(degreesOfFreedom).inverseCumulativeProbability(0.975);
    }
}
