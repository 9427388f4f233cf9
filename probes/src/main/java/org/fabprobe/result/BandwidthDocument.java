package org.fabprobe.result;

import java.util.List;
import java.util.Map;
import org.fabprobe.clock.ClockFacts;

/** Schema fabprobe.bandwidth/2: streaming bandwidth, windows of back-to-back messages per size. */
public record BandwidthDocument(String schema, String tool, String command, String transport,
                                Map<String, String> transportFacts, Map<String, Object> settings, Host host,
                                Map<String, String> mirrorHost, ClockFacts clock, String startedAt, double wallSeconds, List<Size> sizes,
                                List<String> flags)
        implements RunDocument {
    public static final String SCHEMA = "fabprobe.bandwidth/2";

    /** One size: the time of each window (ns), bandwidth (MB/s), messages per second, and whether it was disturbed. */
    public record Size(long sizeBytes, int window, int windows, Stats windowNs, int outliers, double bandwidthMbS,
                       double messageRate, boolean disturbed) {}
}
