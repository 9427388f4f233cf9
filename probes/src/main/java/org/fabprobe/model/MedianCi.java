package org.fabprobe.model;

import java.util.Arrays;

/**
 * The median of timing samples with a distribution-free 95 % confidence interval: the order
 * statistics at ranks n/2 -+ 1.96 sqrt(n)/2 (the binomial interval for the median). Timing
 * samples are skewed by interference, so the median and this interval describe them better
 * than a mean with a normal-theory interval.
 *
 * <p>The interval is never narrower than the samples' resolution (one clock tick): a tight
 * loop, the emulator's above all, repeats the very same tick count, and then the order
 * statistics coincide and would claim a median known exactly.
 */
public final class MedianCi {
    private MedianCi() {}

    /** Fewer samples than this give no interval (NaN). */
    public static final int MIN_SAMPLES = 6;

    /** @param resolutionNs the smallest step between two sample values (the clock's tick) */
    public static Estimate of(double[] samples, int count, double resolutionNs) {
        double[] sorted = Arrays.copyOf(samples, count);
        Arrays.sort(sorted);
        double median = Statistics.percentile(sorted, 50);
        if (count < MIN_SAMPLES) return new Estimate(median, Double.NaN);
        double half = 1.96 * Math.sqrt(count) / 2;
        int lo = Math.max(0, (int) Math.floor(count / 2.0 - half) - 1);
        int hi = Math.min(count - 1, (int) Math.ceil(count / 2.0 + half) - 1);
        return new Estimate(median, Math.max(resolutionNs, Math.max(median - sorted[lo], sorted[hi] - median)));
    }
}
