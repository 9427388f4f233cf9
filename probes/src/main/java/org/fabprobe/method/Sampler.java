package org.fabprobe.method;

import java.util.function.IntFunction;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.MedianCi;
import org.fabprobe.model.Statistics;
import org.fabprobe.model.Summary;

/**
 * Repeats a probe in batches until every series it returns is known well enough: the 95 %
 * confidence interval of the median within +-{@code relative} of it (or within
 * {@code floorNs}, below which the clock cannot resolve anyway), or until a repetition or
 * time cap, and then the result says it did not converge. The first {@code warmup} samples
 * of every batch are discarded: the first messages after the untimed ready exchange find
 * colder caches than the steady state the method is about.
 */
public final class Sampler {
    public static final double DEFAULT_RELATIVE = 0.05;
    public static final double DEFAULT_FLOOR_NS = 5;

    private final double relative;
    private final double floorNs;
    private final int batch;
    private final int warmup;
    private final int maxReps;
    private final double timeCapNs;

    /** How sampling went, per series. */
    public record Sampled(Estimate median, Summary summary, boolean converged, double wallMs) {
        public double value() {
            return median.value();
        }
    }

    public Sampler(double relative, double floorNs, int batch, int warmup, int maxReps, double timeCapNs) {
        if (batch < MedianCi.MIN_SAMPLES) throw new IllegalArgumentException("batch must be >= " + MedianCi.MIN_SAMPLES);
        if (maxReps < batch) throw new IllegalArgumentException("maximum repetitions must be >= the batch (" + batch + ")");
        this.relative = relative;
        this.floorNs = floorNs;
        this.batch = batch;
        this.warmup = warmup;
        this.maxReps = maxReps;
        this.timeCapNs = timeCapNs;
    }

    public int maxReps() {
        return maxReps;
    }

    public double relative() {
        return relative;
    }

    /** Runs {@code probe(reps)} (one array of samples per series) until all series converge. */
    public Sampled[] sample(IntFunction<double[][]> probe) {
        long start = System.nanoTime();
        double[][] all = null;
        int count = 0;
        while (true) {
            double[][] got = probe.apply(warmup + batch);
            if (all == null) all = new double[got.length][maxReps];
            int take = Math.min(batch, maxReps - count);
            for (int s = 0; s < got.length; s++) System.arraycopy(got[s], warmup, all[s], count, take);
            count += take;
            boolean converged = true;
            Estimate[] medians = new Estimate[all.length];
            for (int s = 0; s < all.length; s++) {
                medians[s] = MedianCi.of(all[s], count);
                converged &= medians[s].ci95() <= Math.max(relative * Math.abs(medians[s].value()), floorNs);
            }
            double wallNs = System.nanoTime() - start;
            if (converged || count >= maxReps || wallNs >= timeCapNs) {
                Sampled[] result = new Sampled[all.length];
                for (int s = 0; s < all.length; s++) {
                    result[s] = new Sampled(medians[s], Statistics.summarize(all[s], count), converged, wallNs / 1e6);
                }
                return result;
            }
        }
    }

    /** One series. */
    public Sampled sampleOne(IntFunction<double[]> probe) {
        return sample(reps -> new double[][] {probe.apply(reps)})[0];
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "median to +-%.0f%% (or %.0f ns), batches of %d (+%d warm-up), at most %d",
                relative * 100, floorNs, batch, warmup, maxReps);
    }
}
