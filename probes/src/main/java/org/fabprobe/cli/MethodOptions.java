package org.fabprobe.cli;

import org.fabprobe.api.Sampling;
import org.fabprobe.method.Sampler;
import picocli.CommandLine.Option;

/** Options of the LogP methods: how hard to sample (the API's {@link Sampling}). */
final class MethodOptions {
    @Option(names = "--ci", defaultValue = "5",
            description = "Repeat each quantity until the 95%% confidence interval of its median is within +-PERCENT. Default: ${DEFAULT-VALUE}")
    double ciPercent;

    @Option(names = "--batch", defaultValue = "20", description = "Samples per batch between convergence checks. Default: ${DEFAULT-VALUE}")
    int batch;

    @Option(names = "--max-reps", defaultValue = "1000", description = "Repetition cap per quantity. Default: ${DEFAULT-VALUE}")
    int maxReps;

    @Option(names = "--time-cap", defaultValue = "100ms", description = "Time cap per quantity. Default: ${DEFAULT-VALUE}")
    String timeCap;

    /** These options as the API's sampling settings; refuses (one line) what is out of range. */
    Sampling sampling() {
        return new Sampling(ciPercent, batch, maxReps, timeCap);
    }

    Sampler sampler() {
        return sampling().sampler();
    }
}
