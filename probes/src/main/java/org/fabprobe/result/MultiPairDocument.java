package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;

/**
 * Schema fabprobe.multipair/2: IMB PingPong in multi mode, k pairs at once, per size x the
 * repetitions n(x), T_b(x) and the aggregated bandwidth b(x); for 2 pairs Hager and Wellein's
 * model (chunk C, raw bandwidth B_r, latency T_1, each with one standard error), else null;
 * the hosts whose ranks share CPUs (found before timing), empty when none.
 */
public record MultiPairDocument(@JsonUnwrapped RunHeader<Settings> header, int pairs, double timerOverheadNs,
                                double jitWarmupMs, List<Size> sizes, Model model, List<SharedCpus> sharedCpus,
                                List<String> notes) implements RunDocument {
    public static final String SCHEMA = "fabprobe.multipair/2";

    /**
     * multipair's inputs and how it measured.
     *
     * @param repetitions how n(x) follows from reps and volume_bytes
     * @param timing      how a sample is timed
     * @param fit         how the model is fitted
     */
    public record Settings(List<Long> sizes, int pairs, String pairing, String repetitions, long reps, long volumeBytes,
                           int samples, int warmup, String jitWarmup, long fitFromBytes, String timing, String fit,
                           String launch) {}

    /**
     * One size x: n(x) ping-pongs per pair and timed loop, the slowest pair's loop per sample
     * ({@code sampleLoopNs}, min / median / max in {@code loopNs}), each pair's median loop, b(x);
     * {@code modelBandwidthMbS} where the model was fitted to this size (absent elsewhere); the samples
     * during which some rank waited for a CPU, and how often the size was measured again for them.
     */
    @JsonInclude(Include.NON_NULL)
    public record Size(long sizeBytes, long repetitions, int samples, LoopNs loopNs, double[] sampleLoopNs,
                       double[] pairLoopNs, double aggregatedBandwidthMbS, boolean fitted, Double modelBandwidthMbS,
                       int disturbedSamples, int remeasured) {}

    /** The slowest pair's loop time over the samples, ns: T_b(x) is the median. */
    public record LoopNs(double min, double median, double max) {}

    /**
     * The fit over {@code fromBytes .. toBytes}; {@code chunkErrBytes} null where C is only a bound
     * ({@code chunkResolved} false: at the edge of the sizes).
     */
    public record Model(long fromBytes, long toBytes, int points, double chunkBytes, double chunkErrBytes,
                        boolean chunkResolved, double rawBandwidthMbS, double rawBandwidthErrMbS, double t1Ns,
                        double t1ErrNs, double rmsRelResidual, String errors) {}
}
