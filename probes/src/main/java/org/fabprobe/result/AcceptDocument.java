package org.fabprobe.result;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * Schema fabprobe.accept/1: an acceptance spec's verdicts, with every measurement they came
 * from (its command line and its complete document, so that a later run can judge the same
 * measurements again: accept --from).
 */
public record AcceptDocument(String schema, String tool, String spec, String system, String description, Host host,
                             String startedAt, double wallSeconds, String inconclusive, boolean passed, Counts counts,
                             List<Measurement> measurements, List<Check> checks) {
    public static final String SCHEMA = "fabprobe.accept/1";

    /** How many checks got each verdict. */
    public record Counts(int checks, int pass, int fail, int inconclusive, int error) {}

    /**
     * One run of a fabprobe command. exit_code and error: its exit code and message (0 and null
     * when it worked); document: what its --json wrote (null when it failed); reused: taken from
     * an earlier accept document (--from), not measured again.
     */
    public record Measurement(String id, String command, String transport, List<String> args, int exitCode, String error,
                              double wallSeconds, boolean reused, JsonNode document) {}

    /**
     * One check: where it reads its figure (figure, transport, options as the spec gives them; at:
     * the size or range it was read at), reference, tolerances and bounds (null: open) and the
     * measured value with its 95 % interval [measured_low, measured_high], all in unit; the verdict and why.
     */
    public record Check(String name, String figure, String transport, Map<String, String> options, String measurement,
                        String at, String unit, double reference, Double lower, Double upper, double lowerBound,
                        double upperBound, double measured, double measuredLow, double measuredHigh, String verdict,
                        String reason) {}
}
