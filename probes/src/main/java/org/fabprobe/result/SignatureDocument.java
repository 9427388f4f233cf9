package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import org.fabprobe.model.Estimate;

/** Schema fabprobe.signature/1: Culler et al.'s signature, cost per request against burst length per delay. */
public record SignatureDocument(@JsonUnwrapped RunHeader<Settings> header, Timing timing,
                                List<ParameterRange> parameters, List<String> flags, List<String> notes,
                                SampledValue rttNs, List<Curve> curves, List<Bulk> bulk) implements MethodDocument {
    public static final String SCHEMA = "fabprobe.signature/1";

    /** signature's inputs, the methods' shared sampling settings, then the session's. */
    public record Settings(List<Integer> bursts, List<Long> bulkSizes, @JsonUnwrapped MethodSettings method,
                           @JsonUnwrapped PeerSettings peer) implements MethodSettings.Holder {}

    /** One delay Delta between requests: the cost per request at each burst length M. */
    public record Curve(double delayNs, Estimate steadyStateNs, List<Point> points) {}

    public record Point(int burst, SampledValue costNs) {}

    /** o_s(n) and g(n) for a bulk message size n. */
    public record Bulk(long sizeBytes, @JsonProperty("o_s_ns") SampledValue oSNs, Estimate gNs) {}
}
