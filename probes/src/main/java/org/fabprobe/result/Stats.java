package org.fabprobe.result;

import org.fabprobe.model.Summary;

/** The spread of one size's samples, ns. ci95: of the mean; max: the longest, where a preemption shows. */
public record Stats(double min, double median, double p99, double max, double mean, double stddev, double ci95) {
    public static Stats of(Summary s) {
        return new Stats(s.min(), s.median(), s.p99(), s.max(), s.mean(), s.stddev(), s.ci95());
    }
}
