package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import org.fabprobe.model.Summary;

/** Schema fabprobe.pingpong/3: the half round-trip sweep and its Hockney fit per size range. */
public record PingPongDocument(@JsonUnwrapped RunHeader<Settings> header, List<Size> sizes,
                               List<HockneyRange> hockney, List<String> flags) implements RunDocument {
    public static final String SCHEMA = "fabprobe.pingpong/3";

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
