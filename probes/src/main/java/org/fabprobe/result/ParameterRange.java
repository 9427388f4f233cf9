package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.ParameterSet;

/** LogGP parameters over one size range, each with its 95 % uncertainty; null where the method does not measure it. */
public record ParameterRange(long fromBytes, long toBytes, @JsonProperty("L_ns") Estimate latencyNs,
                             @JsonProperty("o_s_ns") Estimate sendOverheadNs, @JsonProperty("o_r_ns") Estimate recvOverheadNs,
                             @JsonProperty("g_ns") Estimate gapNs, @JsonProperty("G_ns_per_byte") Estimate gapPerByteNs) {
    public static ParameterRange of(ParameterSet p) {
        return new ParameterRange(p.fromBytes(), p.toBytes(), p.latency(), p.sendOverhead(),
                p.recvOverhead(), p.gap(), p.gapPerByte());
    }

    public ParameterSet parameterSet() {
        return new ParameterSet(fromBytes, toBytes, latencyNs, sendOverheadNs,
                recvOverheadNs, gapNs, gapPerByteNs);
    }
}
