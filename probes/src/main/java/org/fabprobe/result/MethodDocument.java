package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import java.util.List;

/** The LogP methods' documents (plogp, loggp, signature): parameters per size range, flags, notes. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.EXISTING_PROPERTY, property = "schema", visible = true)
@JsonSubTypes({@JsonSubTypes.Type(value = PLogPDocument.class, names = {PLogPDocument.SCHEMA, PLogPDocument.SCHEMA_1}),
        @JsonSubTypes.Type(value = LogGPDocument.class, names = {LogGPDocument.SCHEMA, LogGPDocument.SCHEMA_1}),
        @JsonSubTypes.Type(value = SignatureDocument.class, name = SignatureDocument.SCHEMA)})
public interface MethodDocument extends RunDocument {
    Timing timing();

    List<ParameterRange> parameters();

    List<String> flags();

    List<String> notes();

    /**
     * Time spent, ms: the JIT warm-up, the whole measurement, and for plogp its phases
     * (g(0) by saturation, o_s/o_r with implicit g(m), g(m) by saturation with --validate).
     */
    @JsonInclude(Include.NON_NULL) // the phases: plogp only
    record Timing(Double g0Ms,
                  Double overheadsMs,
                  Double saturationMs,
                  double measurementMs, double warmupMs) {
        public static Timing of(double measurementMs, double warmupMs) {
            return new Timing(null, null, null, measurementMs, warmupMs);
        }
    }
}
