package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;

/** Schema fabprobe.bandwidth/2: streaming bandwidth, windows of back-to-back messages per size. */
public record BandwidthDocument(@JsonUnwrapped RunHeader<Settings> header, List<Size> sizes,
                                List<String> flags)
        implements RunDocument {
    public static final String SCHEMA = "fabprobe.bandwidth/2";

    /** bandwidth's inputs, then the session's. */
    public record Settings(List<Long> sizes, int window, int warmup, int repetitions, @JsonUnwrapped PeerSettings peer) {}

    /** One size: the time of each window (ns), bandwidth (MB/s), messages per second, and whether it was disturbed. */
    public record Size(long sizeBytes, int window, int windows, Stats windowNs, int outliers, double bandwidthMbS,
                       double messageRate, boolean disturbed) {}
}
