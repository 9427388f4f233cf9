package org.fabprobe.method;

import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.fabprobe.clock.Clock;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.MedianCi;
import org.fabprobe.model.Statistics;
import org.fabprobe.model.Summary;

/**
 * Repeats a probe in batches until every series it returns is known well enough: the 95 %
 * confidence interval of the median within +-{@code relative} of it (or within
 * {@code floorNs} or the clock's resolution, below which it cannot resolve anyway), or until a repetition or
 * time cap, and then the result says it did not converge. The first {@code warmup} samples
 * of every batch are discarded: the first messages after the untimed ready exchange find
 * colder caches than the steady state the method is about.
 *
 * <p>A batch during which the watched disturbance counter moved (a timing thread kept from
 * its CPU, the emulator late: {@code pattern.Disturbances}) is discarded and measured again while
 * the time cap allows; so is a batch whose wall time exceeds the fastest batch's by more than
 * the stall bound and that batch's own time (a stall in its untimed rounds, in no sample).
 * If the cap comes first and no undisturbed batch was kept, the last
 * disturbed one is, and the result says so ({@link Sampled#disturbed}).
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
    private final LongSupplier disturbances;
    /** Disturbed batches discarded so far (measured again or given up at the cap). */
    private long discarded;

    /**
     * How sampling went, per series; {@code batchMedians}: the median of each kept batch, in the
     * order measured (a state that changes between batches shows there, not in the median).
     */
    public record Sampled(Estimate median, Summary summary, boolean converged, double wallMs, int disturbedBatches,
                          boolean disturbed, double[] batchMedians) {
        public Sampled(Estimate median, Summary summary, boolean converged, double wallMs, int disturbedBatches,
                       boolean disturbed) {
            this(median, summary, converged, wallMs, disturbedBatches, disturbed, new double[0]);
        }

        public double value() {
            return median.value();
        }
    }

    public Sampler(double relative, double floorNs, int batch, int warmup, int maxReps, double timeCapNs) {
        this(relative, floorNs, batch, warmup, maxReps, timeCapNs, () -> 0);
    }

    private Sampler(double relative, double floorNs, int batch, int warmup, int maxReps, double timeCapNs,
                    LongSupplier disturbances) {
        if (batch < MedianCi.MIN_SAMPLES) throw new IllegalArgumentException("batch must be >= " + MedianCi.MIN_SAMPLES);
        if (maxReps < batch) throw new IllegalArgumentException("maximum repetitions must be >= the batch (" + batch + ")");
        this.relative = relative;
        this.floorNs = floorNs;
        this.batch = batch;
        this.warmup = warmup;
        this.maxReps = maxReps;
        this.timeCapNs = timeCapNs;
        this.disturbances = disturbances;
    }

    /** The same sampler, discarding batches during which {@code disturbances} moved. */
    public Sampler watching(LongSupplier disturbances) {
        return new Sampler(relative, floorNs, batch, warmup, maxReps, timeCapNs, disturbances);
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
        int count = 0, disturbedBatches = 0;
        boolean keptDisturbed = false;
        long fastestBatchNs = Long.MAX_VALUE;
        while (true) {
            long before = disturbances.getAsLong(), batchStart = System.nanoTime();
            double[][] got = probe.apply(warmup + batch);
            long batchNs = System.nanoTime() - batchStart;
            if (all == null) all = new double[got.length][maxReps];
            // a stall in a batch's untimed parts (warm-up, delays, ready exchange) is in no sample:
            // only its wall time beyond the fastest batch's shows it
            boolean stalled = stalled(batchNs, fastestBatchNs);
            fastestBatchNs = Math.min(fastestBatchNs, batchNs);
            if (disturbances.getAsLong() != before || stalled) {
                disturbedBatches++;
                discarded++;
                boolean timeLeft = System.nanoTime() - start < timeCapNs;
                if (timeLeft || count > 0) {
                    if (timeLeft) continue;
                    return result(all, count, false, start, disturbedBatches, keptDisturbed, batch);
                }
                keptDisturbed = true; // the cap came first and nothing else is there
            }
            int take = Math.min(batch, maxReps - count);
            for (int s = 0; s < got.length; s++) System.arraycopy(got[s], warmup, all[s], count, take);
            count += take;
            boolean converged = true;
            double floor = floorNs();
            Estimate[] medians = new Estimate[all.length];
            for (int s = 0; s < all.length; s++) {
                medians[s] = MedianCi.of(all[s], count, Clock.facts().resolutionNs());
                converged &= medians[s].ci95() <= Math.max(relative * Math.abs(medians[s].value()), floor);
            }
            double wallNs = System.nanoTime() - start;
            if (converged || count >= maxReps || wallNs >= timeCapNs) {
                return result(all, count, converged, start, disturbedBatches, keptDisturbed, batch);
            }
        }
    }

    /** Stall bound between batches: PingPong's for one round trip (50 ms). */
    static final double BATCH_STALL_MIN_NS = 50e6;

    /**
     * Whether a batch of {@code batchNs} stalled: longer than the fastest batch so far by more than
     * both the stall bound and that batch's own time (twice its expectation). The first batch has no
     * reference and never counts.
     */
    static boolean stalled(long batchNs, long fastestBatchNs) {
        return fastestBatchNs != Long.MAX_VALUE && batchNs - fastestBatchNs > Math.max(BATCH_STALL_MIN_NS, fastestBatchNs);
    }

    private static Sampled[] result(double[][] all, int count, boolean converged, long start, int disturbedBatches,
                                    boolean keptDisturbed, int batch) {
        double wallMs = (System.nanoTime() - start) / 1e6;
        Sampled[] result = new Sampled[all.length];
        for (int s = 0; s < all.length; s++) {
            result[s] = new Sampled(MedianCi.of(all[s], count, Clock.facts().resolutionNs()), Statistics.summarize(all[s], count),
                    converged, wallMs, disturbedBatches, keptDisturbed, batchMedians(all[s], count, batch));
        }
        return result;
    }

    private static double[] batchMedians(double[] samples, int count, int batch) {
        double[] medians = new double[(count + batch - 1) / batch];
        for (int i = 0; i < medians.length; i++) {
            double[] one = java.util.Arrays.copyOfRange(samples, i * batch, Math.min(count, (i + 1) * batch));
            java.util.Arrays.sort(one);
            int n = one.length;
            medians[i] = n % 2 == 1 ? one[n / 2] : (one[n / 2 - 1] + one[n / 2]) / 2;
        }
        return medians;
    }

    /** The floor, never below the clock's resolution: no interval can be narrower than a tick. */
    private double floorNs() {
        return Math.max(floorNs, Clock.facts().resolutionNs());
    }

    public long discardedBatches() {
        return discarded;
    }

    /** The note for quantities whose kept samples are disturbed, or null if none is. */
    public static String disturbedNote(String what, Sampled... samples) {
        for (Sampled s : samples) {
            if (s != null && s.disturbed()) {
                return DISTURBED_NOTE + what + ": every batch within the time cap was disturbed (a timing thread"
                        + " kept from its CPU or the emulator late); the values may be wrong";
            }
        }
        return null;
    }

    /** How notes about disturbed values start; the reports raise a flag for them. */
    public static final String DISTURBED_NOTE = "disturbed: ";

    /**
     * The note for overheads whose median is 0: every interval loses the clock's read cost
     * (TICK1) and is clamped at 0, so a 0 is that clamp (a read cost inflated by a disturbed
     * calibration, or an overhead shorter than one clock read), never a measurement. Null if none is 0.
     */
    public static String clampedNote(String what, double readCostNs, Sampled... overheads) {
        for (Sampled s : overheads) {
            if (s != null && s.summary() != null && s.summary().count() > 0 && s.value() == 0) {
                return String.format(java.util.Locale.ROOT, "%s%s: 0 is the clamp at the clock's read cost (%.1f ns,"
                        + " subtracted from every interval), not a measurement", CLAMPED_NOTE, what, readCostNs);
            }
        }
        return null;
    }

    /** How notes about overheads clamped to 0 start; the reports raise a flag for them. */
    public static final String CLAMPED_NOTE = "clamped: ";

    /** The note on batches measured again, or null. */
    public String discardedNote() {
        return discarded == 0 ? null : discarded + " disturbed batches (a timing thread kept from its CPU or the emulator late) were"
                + " discarded and measured again";
    }

    /** One series. */
    public Sampled sampleOne(IntFunction<double[]> probe) {
        return sample(reps -> new double[][] {probe.apply(reps)})[0];
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "median to +-%.0f%% (or %.0f ns), batches of %d (+%d warm-up), at most %d",
                relative * 100, floorNs(), batch, warmup, maxReps);
    }
}
