package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.fabprobe.model.ParameterSet;

/** LogGP parameters over one size range, each with its 95 % uncertainty; null where the method does not measure it. */
public record ParameterRange(long fromBytes, long toBytes, @JsonProperty("L_ns") Value latencyNs,
                             @JsonProperty("o_s_ns") Value sendOverheadNs, @JsonProperty("o_r_ns") Value recvOverheadNs,
                             @JsonProperty("g_ns") Value gapNs, @JsonProperty("G_ns_per_byte") Value gapPerByteNs) {
    public static ParameterRange of(ParameterSet p) {
        return new ParameterRange(p.fromBytes(), p.toBytes(), Value.of(p.latency()), Value.of(p.sendOverhead()),
                Value.of(p.recvOverhead()), Value.of(p.gap()), Value.of(p.gapPerByte()));
    }

    public ParameterSet parameterSet() {
        return new ParameterSet(fromBytes, toBytes, latencyNs.estimate(), sendOverheadNs.estimate(),
                recvOverheadNs.estimate(), gapNs.estimate(), gapPerByteNs.estimate());
    }
}
