package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import org.fabprobe.model.Estimate;

/** Schema fabprobe.loggp/2: LogGP by Hoefler et al.'s PRTT(n, d, s) per size, parameters per size range. */
public record LogGPDocument(@JsonUnwrapped RunHeader<Settings> header, Timing timing,
                            List<ParameterRange> parameters, List<String> flags, List<String> notes,
                            int messages, List<Size> sizes) implements MethodDocument {
    public static final String SCHEMA = "fabprobe.loggp/2";
    /** Documents before settings.op: read as sends. */
    public static final String SCHEMA_1 = "fabprobe.loggp/1";

    /** loggp's inputs ({@code op}: send or write, absent in /1 documents), the methods' shared sampling settings, then the session's. */
    public record Settings(List<Long> sizes, int messages, String op, @JsonUnwrapped MethodSettings method,
                           @JsonUnwrapped PeerSettings peer) implements MethodSettings.Holder {}

    /** One size s: the three PRTTs, the delay d, g + (s-1)G and o. */
    public record Size(long sizeBytes, @JsonProperty("prtt_1_0_ns") SampledValue prtt10Ns,
                       @JsonProperty("prtt_n_0_ns") SampledValue prttN0Ns,
                       @JsonProperty("prtt_n_d_ns") SampledValue prttNDNs, double delayNs, double delaySpunNs,
                       Estimate gapAllNs, Estimate oNs) {}
}
