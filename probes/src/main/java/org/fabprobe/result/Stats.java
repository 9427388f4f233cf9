package org.fabprobe.result;

import org.fabprobe.model.Summary;

/** The spread of one size's samples, ns. ci95: of the mean. */
public record Stats(double min, double median, double p99, double mean, double stddev, double ci95) {
    public static Stats of(Summary s) {
        return new Stats(s.min(), s.median(), s.p99(), s.mean(), s.stddev(), s.ci95());
    }
}
