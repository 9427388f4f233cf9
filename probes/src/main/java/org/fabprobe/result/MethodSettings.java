package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The settings the LogP methods (plogp, loggp, signature) share: the calls they timed, how they
 * sampled, and the probe's depth.
 *
 * @param oSTiming how blocking sends were timed; absent with nonblocking calls
 */
public record MethodSettings(String calls, String callsDetail,
                             @JsonProperty("o_s_timing") @JsonInclude(JsonInclude.Include.NON_NULL) String oSTiming,
                             String sampling, double ciTargetPercent, int batch, int maxReps, String timeCap, int depth) {
    /** A method's settings record, which holds this shared part. */
    public interface Holder {
        MethodSettings method();

        /** What a probe's message is: send, write or read (plogp and loggp --op). */
        default String op() {
            return "send";
        }
    }
}
