package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * Schema fabprobe.compare/1: one method on the raw transport and over MPI, and per MPI size range
 * raw, MPI and MPI - raw of every parameter (the MPI library's own overhead), with both runs whole.
 */
public record CompareDocument(String schema, String method, String startedAt, String rawTransport,
                              String mpiTransport, Map<String, String> mpiEnvironment, String rawCalls, String mpiCalls,
                              String callsNote, Map<String, Map<String, String>> ucxSettings, List<Range> ranges,
                              List<String> flags, MethodDocument raw, MethodDocument mpi) {
    public static final String SCHEMA = "fabprobe.compare/1";

    /** An MPI size range against the raw range that holds its first size. */
    public record Range(long fromBytes, long toBytes, long[] rawRange, @JsonProperty("L_ns") Cell latencyNs,
                        @JsonProperty("o_s_ns") Cell sendOverheadNs, @JsonProperty("o_r_ns") Cell recvOverheadNs,
                        @JsonProperty("g_ns") Cell gapNs, @JsonProperty("G_ns_per_byte") Cell gapPerByteNs) {
        public List<Cell> cells() {
            return List.of(latencyNs, sendOverheadNs, recvOverheadNs, gapNs, gapPerByteNs);
        }
    }

    /** One parameter: raw, MPI, and MPI - raw with the uncertainties added in quadrature. */
    public record Cell(Value raw, Value mpi, Value difference) {
        public static Cell of(Value raw, Value mpi) {
            return new Cell(raw, mpi, new Value(mpi.value() - raw.value(), Math.hypot(raw.ci95(), mpi.ci95())));
        }
    }
}
