package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;

/** Schema fabprobe.pingpong/2: the half round-trip sweep and its Hockney fit per size range. */
public record PingPongDocument(@JsonUnwrapped RunHeader<Settings> header, List<Size> sizes,
                               List<HockneyRange> hockney, List<String> flags) implements RunDocument {
    public static final String SCHEMA = "fabprobe.pingpong/2";

    /** pingpong's inputs, then the session's. */
    public record Settings(List<Long> sizes, int warmup, int repetitions, String calls, int jitWarmupRoundTripsMax,
                           @JsonUnwrapped PeerSettings peer) {}

    /**
     * One message size: half round-trip times (ns), the median's distribution-free 95 % interval
     * (half-width, ns; accept judges the median with it) and bandwidth (MB/s = 10^6 B/s, size / median);
     * remeasured: times it was measured again because it was disturbed; disturbed: its last measurement was too.
     */
    public record Size(long sizeBytes, int repetitions, Stats halfRttNs, double medianCi95Ns, int outliers, double bandwidthMbS,
                       double wallMs, int remeasured, boolean disturbed) {}
}
