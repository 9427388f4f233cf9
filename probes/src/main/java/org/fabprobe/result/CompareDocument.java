package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import org.fabprobe.model.Estimate;

/**
 * Schema fabprobe.compare/1: one method on the raw transport and over MPI, and per MPI size range
 * raw, MPI and MPI - raw of every parameter (the MPI library's own overhead), with all runs whole.
 *
 * <p>The raw side runs twice, before and after the MPI run (A B A): the host's speed moves
 * between runs seconds apart (on a shared VM, raw o_s over tcp by microseconds), so "raw" is
 * the mean of the two, and their difference, {@code raw_drift}, widens MPI - raw's interval.
 */
public record CompareDocument(String schema, String method, String startedAt, String rawTransport,
                              String mpiTransport, Map<String, String> mpiEnvironment, String rawCalls, String mpiCalls,
                              String callsNote, Map<String, Map<String, String>> ucxSettings, List<Range> ranges,
                              List<String> flags, MethodDocument raw, MethodDocument mpi, MethodDocument rawAgain) {
    public static final String SCHEMA = "fabprobe.compare/1";

    /** An MPI size range against the raw range that holds its first size. */
    public record Range(long fromBytes, long toBytes, long[] rawRange, @JsonProperty("L_ns") Cell latencyNs,
                        @JsonProperty("o_s_ns") Cell sendOverheadNs, @JsonProperty("o_r_ns") Cell recvOverheadNs,
                        @JsonProperty("g_ns") Cell gapNs, @JsonProperty("G_ns_per_byte") Cell gapPerByteNs) {
        public List<Cell> cells() {
            return List.of(latencyNs, sendOverheadNs, recvOverheadNs, gapNs, gapPerByteNs);
        }
    }

    /**
     * One parameter: raw (the mean of the runs before and after MPI's), MPI, and MPI - raw,
     * whose interval adds in quadrature raw's, MPI's and half the raw runs' difference (the
     * host's drift: MPI ran between them).
     */
    public record Cell(Estimate raw, Estimate mpi, Estimate difference, double rawDrift) {
        public static Cell of(Estimate rawBefore, Estimate rawAfter, Estimate mpi) {
            if (Double.isNaN(rawAfter.value())) rawAfter = rawBefore; // one run without the parameter: no drift known
            if (Double.isNaN(rawBefore.value())) rawBefore = rawAfter;
            double drift = Math.abs(rawAfter.value() - rawBefore.value());
            Estimate raw = new Estimate((rawBefore.value() + rawAfter.value()) / 2, Math.hypot(rawBefore.ci95(), rawAfter.ci95()) / 2);
            double ci = Math.sqrt(raw.ci95() * raw.ci95() + mpi.ci95() * mpi.ci95() + drift * drift / 4);
            return new Cell(raw, mpi, new Estimate(mpi.value() - raw.value(), ci), drift);
        }

        /** One raw run only: no drift measured. */
        public static Cell of(Estimate raw, Estimate mpi) {
            return of(raw, raw, mpi);
        }
    }
}
