package org.fabprobe.result;

import org.fabprobe.method.Sampler.Sampled;
import org.fabprobe.model.Summary;

/** One adaptively sampled quantity of the LogP methods: its median (± 95 % CI) and how it was sampled. */
public record SampledValue(double median, double ci95, double min, double p99, double mean, int repetitions,
                           int outliers, boolean converged, double wallMs, int disturbedBatches, boolean disturbed) {
    public static SampledValue of(Sampled s) {
        Summary m = s.summary();
        return new SampledValue(s.value(), s.median().ci95(), m.min(), m.p99(), m.mean(), m.count(), m.outliers(),
                s.converged(), s.wallMs(), s.disturbedBatches(), s.disturbed());
    }
}
