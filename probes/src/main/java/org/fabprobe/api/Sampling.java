package org.fabprobe.api;

import org.fabprobe.method.Sampler;

/**
 * How hard a LogP method samples each quantity (plogp, loggp, signature): repeat it in batches
 * until the 95 % interval of its median is within +-ciPercent, or maxReps, or timeCap.
 *
 * @param ciPercent target half-width of the median's 95 % interval, in percent of the median
 * @param batch     samples per batch between convergence checks
 * @param maxReps   repetition cap per quantity
 * @param timeCap   time cap per quantity, as the command line writes it (250ms, 1s)
 */
public record Sampling(double ciPercent, int batch, int maxReps, String timeCap) {
    public Sampling {
        if (!(ciPercent > 0 && ciPercent < 100)) throw new IllegalArgumentException("--ci must be a percentage in (0, 100)");
        if (batch < 6 || batch > 100_000) throw new IllegalArgumentException("--batch must be 6..100000");
        if (maxReps < batch || maxReps > SessionSettings.MAX_REPETITIONS) {
            throw new IllegalArgumentException("--max-reps must be --batch.." + SessionSettings.MAX_REPETITIONS);
        }
        if (timeCap == null) throw new IllegalArgumentException("--time-cap is missing");
        Durations.parse(timeCap);
    }

    /** The commands' defaults: +-5 %, batches of 20, at most 1000 repetitions or 100 ms per quantity. */
    public static Sampling defaults() {
        return new Sampling(5, 20, 1000, "100ms");
    }

    public Sampling ciPercent(double ciPercent) {
        return new Sampling(ciPercent, batch, maxReps, timeCap);
    }

    public Sampling maxReps(int maxReps) {
        return new Sampling(ciPercent, batch, maxReps, timeCap);
    }

    public Sampling timeCap(String timeCap) {
        return new Sampling(ciPercent, batch, maxReps, timeCap);
    }

    /** These settings as the methods' command-line options. */
    java.util.List<String> options() {
        return java.util.List.of("--ci", Double.toString(ciPercent), "--batch", Integer.toString(batch), "--max-reps",
                Integer.toString(maxReps), "--time-cap", timeCap);
    }

    /** The sampler these settings make. */
    public Sampler sampler() {
        return new Sampler(ciPercent / 100, Sampler.DEFAULT_FLOOR_NS, batch, 4, maxReps, Durations.parse(timeCap).toNanos());
    }
}
