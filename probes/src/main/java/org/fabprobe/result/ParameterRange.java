package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.ParameterSet;

/**
 * LogGP parameters over one size range, each with its 95 % uncertainty; null where the method
 * does not measure it. {@code L_overlap_ns} is present only where L < 0: then o_s + o_r exceed
 * RTT/2 by that much (the send overhead carries the transfer), and L is no latency.
 */
public record ParameterRange(long fromBytes, long toBytes, @JsonProperty("L_ns") Estimate latencyNs,
                             @JsonProperty("o_s_ns") Estimate sendOverheadNs, @JsonProperty("o_r_ns") Estimate recvOverheadNs,
                             @JsonProperty("g_ns") Estimate gapNs, @JsonProperty("G_ns_per_byte") Estimate gapPerByteNs,
                             @JsonProperty("L_overlap_ns") @JsonInclude(JsonInclude.Include.NON_NULL) Estimate latencyOverlapNs) {
    public ParameterRange(long fromBytes, long toBytes, Estimate latencyNs, Estimate sendOverheadNs,
                          Estimate recvOverheadNs, Estimate gapNs, Estimate gapPerByteNs) {
        this(fromBytes, toBytes, latencyNs, sendOverheadNs, recvOverheadNs, gapNs, gapPerByteNs,
                ParameterSet.overlap(latencyNs));
    }

    public static ParameterRange of(ParameterSet p) {
        return new ParameterRange(p.fromBytes(), p.toBytes(), p.latency(), p.sendOverhead(),
                p.recvOverhead(), p.gap(), p.gapPerByte());
    }

    public ParameterSet parameterSet() {
        return new ParameterSet(fromBytes, toBytes, latencyNs, sendOverheadNs,
                recvOverheadNs, gapNs, gapPerByteNs);
    }
}
