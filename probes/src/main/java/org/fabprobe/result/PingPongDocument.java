package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import org.fabprobe.model.Summary;

/**
 * Schema fabprobe.pingpong/4: the half round-trip sweep and its Hockney fit per size range;
 * under --target passive also who must progress the op, per size (targetProgress; else absent).
 */
public record PingPongDocument(@JsonUnwrapped RunHeader<Settings> header, List<Size> sizes,
                               List<HockneyRange> hockney, List<String> flags,
                               @JsonInclude(JsonInclude.Include.NON_NULL) List<TargetProgress> targetProgress)
        implements RunDocument {
    public static final String SCHEMA = "fabprobe.pingpong/4";

    public PingPongDocument(RunHeader<Settings> header, List<Size> sizes, List<HockneyRange> hockney, List<String> flags) {
        this(header, sizes, hockney, flags, null);
    }

    /** The same document with who must progress the op, per size. */
    public PingPongDocument withTargetProgress(List<TargetProgress> targetProgress) {
        return new PingPongDocument(header, sizes, hockney, flags, targetProgress);
    }

    /**
     * Who must progress the one-sided op at one size (pattern.TargetProgress): whether it
     * completes while the target makes no library call (passive), how many operations did,
     * their median (ns, null if none), whether the target found the last one in its memory;
     * with the target progressing (active): the operations, their median; with the target
     * napping before each progress call (paced): its progress calls, an idle call's CPU time
     * and its CPU per operation (ns, beyond idle calls, see docs/methods.md); whether the target
     * waited for a CPU for a tenth of the active run; verdict: "native: no target CPU" or "emulated: needs the
     * target to progress, X µs target CPU per op".
     */
    public record TargetProgress(long sizeBytes, String passive, int passiveOperations, Double passiveMedianNs,
                                 boolean targetMemorySeen, int activeOperations, double activeMedianNs,
                                 long targetProgressCalls, double idleProgressCallNs, Double targetCpuNsPerOp,
                                 boolean disturbed, String verdict) {
        public static final String COMPLETES = "completes", DOES_NOT_COMPLETE = "does not complete without target progress";
    }

    /** pingpong's inputs, then the session's; op: send, or the one-sided operation timed (absent before it existed). */
    public record Settings(List<Long> sizes, int warmup, int repetitions, String calls, String op, int jitWarmupRoundTripsMax,
                           @JsonUnwrapped PeerSettings peer) {}

    /**
     * One message size: half round-trip times (ns), the median's distribution-free 95 % interval
     * (half-width, ns; accept judges the median with it) and bandwidth (MB/s = 10^6 B/s, size / median);
     * remeasured: times it was measured again because it was disturbed; disturbed: its last measurement was too;
     * gapMs: its wall time that no round trip nor wait for a CPU accounts for; stalled: one round trip or
     * that gap went beyond the stall bound (a link outage, a retransmission timeout), also disturbed.
     * The statistics' count and outliers are written beside them, as repetitions and outliers.
     */
    @JsonPropertyOrder({"size_bytes", "repetitions", "half_rtt_ns", "median_ci95_ns", "outliers"})
    public record Size(long sizeBytes, @JsonIgnoreProperties({"count", "outliers"}) Summary halfRttNs, double medianCi95Ns,
                       double bandwidthMbS, double wallMs, int remeasured, boolean disturbed, double gapMs,
                       boolean stalled) {
        @JsonCreator
        static Size read(@JsonProperty("size_bytes") long sizeBytes, @JsonProperty("repetitions") int repetitions,
                         @JsonProperty("half_rtt_ns") Summary halfRttNs, @JsonProperty("median_ci95_ns") double medianCi95Ns,
                         @JsonProperty("outliers") int outliers, @JsonProperty("bandwidth_mb_s") double bandwidthMbS,
                         @JsonProperty("wall_ms") double wallMs, @JsonProperty("remeasured") int remeasured,
                         @JsonProperty("disturbed") boolean disturbed, @JsonProperty("gap_ms") double gapMs,
                         @JsonProperty("stalled") boolean stalled) {
            return new Size(sizeBytes, halfRttNs.counting(repetitions, outliers), medianCi95Ns, bandwidthMbS, wallMs, remeasured,
                    disturbed, gapMs, stalled);
        }

        @JsonProperty
        public int repetitions() {
            return halfRttNs.count();
        }

        @JsonProperty
        public int outliers() {
            return halfRttNs.outliers();
        }
    }
}
