package org.fabprobe.model;

/**
 * Order statistics and moments of one set of samples (nanoseconds).
 *
 * @param count       samples used
 * @param min         smallest sample
 * @param median      50th percentile
 * @param p99         99th percentile
 * @param max         largest sample
 * @param mean        arithmetic mean
 * @param stddev      sample standard deviation
 * @param ci95        half-width of the 95 % confidence interval of the mean
 * @param outliers    samples above the upper Tukey fence (q3 + 3 * IQR): interference, not the network
 */
public record Summary(int count, double min, double median, double p99, double max, double mean,
                      double stddev, double ci95, int outliers) {
    /** These statistics of {@code count} samples with {@code outliers} (documents write the two apart from the rest). */
    public Summary counting(int count, int outliers) {
        return new Summary(count, min, median, p99, max, mean, stddev, ci95, outliers);
    }
}
