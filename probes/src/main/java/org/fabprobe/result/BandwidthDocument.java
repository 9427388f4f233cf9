package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import org.fabprobe.model.Summary;

/** Schema fabprobe.bandwidth/3: streaming bandwidth, windows of back-to-back messages per size. */
public record BandwidthDocument(@JsonUnwrapped RunHeader<Settings> header, List<Size> sizes,
                                List<String> flags)
        implements RunDocument {
    public static final String SCHEMA = "fabprobe.bandwidth/3";

    /**
     * bandwidth's inputs, then the session's. op: send, write or read (absent before it
     * existed: send); windowCompletion: what ends a window (absent before: the acknowledgement).
     */
    public record Settings(List<Long> sizes, int window, int warmup, int repetitions, String op, String windowCompletion,
                           @JsonUnwrapped PeerSettings peer) {}

    /**
     * One size: the time of each window (ns), bandwidth (MB/s), messages per second, whether its last
     * measurement was disturbed, how often it was measured again, its wall time no window accounts
     * for (gapMs) and whether it stalled.
     * The statistics' count and outliers are written beside them, as windows and outliers.
     */
    @JsonPropertyOrder({"size_bytes", "window", "windows", "window_ns", "outliers"})
    public record Size(long sizeBytes, int window, @JsonIgnoreProperties({"count", "outliers"}) Summary windowNs,
                       double bandwidthMbS, double messageRate, boolean disturbed, int remeasured, double gapMs,
                       boolean stalled) {
        @JsonCreator
        static Size read(@JsonProperty("size_bytes") long sizeBytes, @JsonProperty("window") int window,
                         @JsonProperty("windows") int windows, @JsonProperty("window_ns") Summary windowNs,
                         @JsonProperty("outliers") int outliers, @JsonProperty("bandwidth_mb_s") double bandwidthMbS,
                         @JsonProperty("message_rate") double messageRate, @JsonProperty("disturbed") boolean disturbed,
                         @JsonProperty("remeasured") int remeasured, @JsonProperty("gap_ms") double gapMs,
                         @JsonProperty("stalled") boolean stalled) {
            return new Size(sizeBytes, window, windowNs.counting(windows, outliers), bandwidthMbS, messageRate, disturbed,
                    remeasured, gapMs, stalled);
        }

        @JsonProperty
        public int windows() {
            return windowNs.count();
        }

        @JsonProperty
        public int outliers() {
            return windowNs.outliers();
        }
    }
}
