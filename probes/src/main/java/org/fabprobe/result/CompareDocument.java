package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.ParameterSet;

/**
 * Schema fabprobe.compare/3: one method, with one op (send, write or read), on the raw transport and over MPI, and per size range
 * raw, MPI and MPI - raw of every parameter (the MPI library's own overhead), with all runs whole.
 * Both sides' parameters of a range are fitted over that same range ({@code ranges_rule});
 * {@code raw_ranges} and {@code mpi_ranges} are each side's own.
 *
 * <p>The raw side runs twice, before and after the MPI run (A B A): the host's speed moves
 * between runs seconds apart (on a shared VM, raw o_s over tcp by microseconds), so "raw" is
 * the mean of the two, and their difference, {@code raw_drift}, widens MPI - raw's interval.
 */
public record CompareDocument(String schema, String method, String op, String startedAt, String rawTransport,
                              String mpiTransport, Map<String, String> mpiEnvironment, String rawCalls, String mpiCalls,
                              String callsNote, Map<String, Map<String, String>> ucxSettings, String rangesRule,
                              List<long[]> rawRanges, List<long[]> mpiRanges,
                              @JsonProperty("pLogP_L_ns") @JsonInclude(JsonInclude.Include.NON_NULL) Cell pLogPLatencyNs,
                              List<Range> ranges, List<String> flags, MethodDocument raw, MethodDocument mpi,
                              MethodDocument rawAgain) {
    public static final String SCHEMA = "fabprobe.compare/3";

    /**
     * One common size range: both sides fitted over it; {@code raw_range} raw's own range that
     * holds its first size; {@code raw_steps}, {@code mpi_steps} where a side's own ranges start
     * inside it (a step the other side may lack); {@code L_overlap_ns} where L < 0 on a side, by
     * how much o_s + o_r exceed RTT/2; {@code unresolved} the values whose uncertainty exceeds
     * them ("raw G_ns_per_byte"); {@code sizes} the sizes all runs measured, one by one.
     */
    public record Range(long fromBytes, long toBytes, long[] rawRange, @JsonProperty("L_ns") Cell latencyNs,
                        @JsonProperty("o_s_ns") Cell sendOverheadNs, @JsonProperty("o_r_ns") Cell recvOverheadNs,
                        @JsonProperty("g_ns") Cell gapNs, @JsonProperty("G_ns_per_byte") Cell gapPerByteNs,
                        List<Long> rawSteps, List<Long> mpiSteps,
                        @JsonProperty("L_overlap_ns") @JsonInclude(JsonInclude.Include.NON_NULL) Overlap latencyOverlapNs,
                        List<String> unresolved, List<SizeRow> sizes) {
        public Range(long fromBytes, long toBytes, long[] rawRange, Cell latencyNs, Cell sendOverheadNs,
                     Cell recvOverheadNs, Cell gapNs, Cell gapPerByteNs) {
            this(fromBytes, toBytes, rawRange, latencyNs, sendOverheadNs, recvOverheadNs, gapNs, gapPerByteNs,
                    List.of(), List.of(), null, List.of(), List.of());
        }

        public List<Cell> cells() {
            return List.of(latencyNs, sendOverheadNs, recvOverheadNs, gapNs, gapPerByteNs);
        }
    }

    /** One size all runs measured: RTT, o_s, o_r and g(m), raw against MPI. */
    public record SizeRow(long sizeBytes, Cell rttNs, @JsonProperty("o_s_ns") Cell oSNs, @JsonProperty("o_r_ns") Cell oRNs,
                          @JsonProperty("g_ns") Cell gNs) {}

    /** By how much o_s + o_r exceed RTT/2 (-L) on each side where its LogGP L < 0; null where it is not. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Overlap(Estimate raw, Estimate mpi) {
        /** null where neither side's L is negative. */
        public static Overlap of(Estimate rawBefore, Estimate rawAfter, Estimate mpi) {
            Estimate raw = ParameterSet.overlap(Cell.of(rawBefore, rawAfter, mpi).raw()), other = ParameterSet.overlap(mpi);
            return raw == null && other == null ? null : new Overlap(raw, other);
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
