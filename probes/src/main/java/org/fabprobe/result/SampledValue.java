package org.fabprobe.result;

/** One adaptively sampled quantity of the LogP methods: its median (± 95 % CI) and how it was sampled. */
public record SampledValue(double median, double ci95, double min, double p99, double mean, int repetitions,
                           int outliers, boolean converged, double wallMs, int disturbedBatches, boolean disturbed) {}
