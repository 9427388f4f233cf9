package org.fabprobe.result;

import java.util.List;
import java.util.Map;
import org.fabprobe.clock.ClockFacts;

/** Schema fabprobe.pingpong/2: the half round-trip sweep and its Hockney fit per size range. */
public record PingPongDocument(String schema, String tool, String command, String transport,
                               Map<String, String> transportFacts, Map<String, Object> settings, Host host,
                               Map<String, String> mirrorHost, ClockFacts clock, String startedAt, double wallSeconds, List<Size> sizes,
                               List<HockneyRange> hockney, List<String> flags) implements RunDocument {
    public static final String SCHEMA = "fabprobe.pingpong/2";

    /**
     * One message size: half round-trip times (ns), the median's distribution-free 95 % interval
     * (half-width, ns; accept judges the median with it) and bandwidth (MB/s = 10^6 B/s, size / median);
     * remeasured: times it was measured again because it was disturbed; disturbed: its last measurement was too.
     */
    public record Size(long sizeBytes, int repetitions, Stats halfRttNs, double medianCi95Ns, int outliers, double bandwidthMbS,
                       double wallMs, int remeasured, boolean disturbed) {}
}
