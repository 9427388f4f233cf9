package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import org.fabprobe.model.Estimate;

/** Schema fabprobe.plogp/2: parameterized LogP (Kielmann et al.) per size, LogGP per size range. */
public record PLogPDocument(@JsonUnwrapped RunHeader<Settings> header, Timing timing,
                            List<ParameterRange> parameters, List<String> flags, List<String> notes,
                            Saturation g0, @JsonProperty("L_ns") Estimate latencyNs, List<Size> sizes)
        implements MethodDocument {
    public static final String SCHEMA = "fabprobe.plogp/2";
    /** Documents before settings.op: read as sends. */
    public static final String SCHEMA_1 = "fabprobe.plogp/1";

    /**
     * plogp's inputs, the methods' shared sampling settings, then the session's; {@code order_seed}:
     * the seed of the random orders the sizes were measured in (absent: increasing, one pass); {@code op}:
     * send or write, what a probe's message is (absent in /1 documents: send).
     */
    public record Settings(List<Long> sizes, long adaptiveLimitBytes, boolean validate, double saturationEps,
                           @JsonInclude(JsonInclude.Include.NON_NULL) Long orderSeed, String op,
                           @JsonUnwrapped MethodSettings method, @JsonUnwrapped PeerSettings peer)
            implements MethodSettings.Holder {}

    /** g by saturation: a train of {@code messages} empty messages. */
    public record Saturation(Estimate gNs, int messages, boolean saturated, @JsonProperty("rtt_n_ns") SampledValue rttNNs, double wallMs) {}

    /**
     * One size m: o_s(m), o_r(m), RTT(m), g(m) and, with --validate, g(m) by saturation;
     * {@code rtt_repeat_ns} the round trip of the repeat pass, {@code state_dependent} true where
     * the passes or the batches read two steady states (flag STATE).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL) // g_saturated: with --validate only; the repeat: with a repeat pass
    public record Size(long sizeBytes, String origin, @JsonProperty("o_s_ns") SampledValue oSNs,
                       @JsonProperty("o_r_ns") SampledValue oRNs, SampledValue rttNs,
                       Estimate gNs, Saturation gSaturated, SampledValue rttRepeatNs, Boolean stateDependent) {}
}
