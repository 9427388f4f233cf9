package org.fabprobe.accept;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.fabprobe.accept.Units.Dimension;

/**
 * What a check compares with its reference: one figure of one fabprobe command, with the spec
 * keys that say where to read it (a size, a parameter, an operation ...). Every check also has
 * the keys of {@link #COMMON_KEYS}.
 */
public enum Figure {
    /** pingpong: median half round trip at {@code size}. */
    HALF_RTT("pingpong", List.of("size"), List.of("reps")),
    /** pingpong: size / median half round trip at {@code size}. */
    PINGPONG_BANDWIDTH("pingpong", List.of("size"), List.of("reps")),
    /** bandwidth: streaming bandwidth (windows of back-to-back messages) at {@code size}. */
    BANDWIDTH("bandwidth", List.of("size"), List.of("window", "reps")),
    /** plogp or loggp: one LogGP parameter of the size range that holds {@code at}. */
    PARAMETER("plogp", List.of("parameter", "sizes"), List.of("method", "at", "adaptive_limit")),
    /** compare: MPI - raw of one parameter in the MPI size range that holds {@code at}. */
    MPI_OVERHEAD("compare", List.of("parameter", "mpi", "sizes"), List.of("method", "calls", "at")),
    /** collectives: Hockney's t0(p) of one operation at p = {@code procs} (barrier: its median time). */
    COLLECTIVE_T0("collectives", List.of("operation", "procs"), List.of("sizes", "at")),
    /** multipair: the Hager-Wellein model's raw bandwidth B_r. */
    MULTIPAIR_RAW_BANDWIDTH("multipair", List.of(), List.of("sizes", "reps", "samples", "fit_from")),
    /** matrix: the number of outlier pairs and hosts. */
    MATRIX_OUTLIERS("matrix", List.of("procs"), List.of("mode", "of", "size", "threshold")),
    /** matrix: the worst pair's figure over the median pair's (half-RTT: worst = slowest; bandwidth: the median over the worst). */
    MATRIX_WORST_RATIO("matrix", List.of("procs", "of"), List.of("mode", "size", "threshold")),
    /** pingpong --op write: median half round trip of RDMA writes at {@code size}, the target polling its memory. */
    WRITE_LATENCY("pingpong", List.of("size"), List.of("reps")),
    /** pingpong --op read: median latency of one read of {@code size}. */
    READ_LATENCY("pingpong", List.of("size"), List.of("reps")),
    /** pingpong --op fetch-add (or {@code op}: cswap): median latency of one atomic on a 64-bit word. */
    ATOMIC_LATENCY("pingpong", List.of(), List.of("op", "reps")),
    /** bandwidth --op write: streaming bandwidth of windows of RDMA writes at {@code size}. */
    WRITE_BANDWIDTH("bandwidth", List.of("size"), List.of("window", "reps")),
    /** register: median time to register {@code size} (pages: fresh, never touched, or reused: the same buffer again). */
    REGISTRATION("register", List.of("size"), List.of("pages", "reps"));

    /** Keys every check has; name, figure, transport, reference and unit are required, lower and upper are optional (unbounded). */
    public static final List<String> COMMON_KEYS = List.of("name", "figure", "transport", "reference", "lower", "upper", "unit");

    public static final Set<String> PARAMETERS = Set.of("L", "o_s", "o_r", "g", "G");
    public static final Set<String> ATOMICS = Set.of("fetch-add", "cswap");
    public static final Set<String> OPERATIONS = Set.of("bcast", "gather", "scatter", "allgather", "alltoall", "barrier",
            "reduce", "scan");

    /** The fabprobe command that measures it (PARAMETER: plogp unless the spec says method: loggp). */
    public final String command;
    public final List<String> requiredKeys;
    public final List<String> optionalKeys;

    Figure(String command, List<String> requiredKeys, List<String> optionalKeys) {
        this.command = command;
        this.requiredKeys = requiredKeys;
        this.optionalKeys = optionalKeys;
    }

    /** The name a spec uses: half_rtt, pingpong_bandwidth, ... */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Figure of(String key) {
        for (Figure f : values()) if (f.key().equals(key)) return f;
        return null;
    }

    public static String names() {
        return String.join(", ", java.util.Arrays.stream(values()).map(Figure::key).toList());
    }

    /** The --op of its pingpong or bandwidth run: send for the two-sided figures. */
    public String op(java.util.Map<String, String> options) {
        return switch (this) {
            case WRITE_LATENCY, WRITE_BANDWIDTH -> "write";
            case READ_LATENCY -> "read";
            case ATOMIC_LATENCY -> options.getOrDefault("op", "fetch-add");
            default -> "send";
        };
    }

    /** Whether the figure can be below 0: only MPI - raw, a difference; times, bandwidths, counts and ratios cannot. */
    public boolean canBeNegative() {
        return this == MPI_OVERHEAD;
    }

    /** Whether the figure is judged as measured, without an interval (the matrix's count and ratio), so that a bound can be met exactly. */
    public boolean exact() {
        return this == MATRIX_OUTLIERS || this == MATRIX_WORST_RATIO;
    }

    /** The dimension of the figure for a check with these keys (G is per byte, the rest of LogGP time). */
    public Dimension dimension(java.util.Map<String, String> options) {
        return switch (this) {
            case HALF_RTT, COLLECTIVE_T0, WRITE_LATENCY, READ_LATENCY, ATOMIC_LATENCY, REGISTRATION -> Dimension.TIME;
            case PINGPONG_BANDWIDTH, BANDWIDTH, MULTIPAIR_RAW_BANDWIDTH, WRITE_BANDWIDTH -> Dimension.BANDWIDTH;
            case PARAMETER, MPI_OVERHEAD -> "G".equals(options.get("parameter")) ? Dimension.PER_BYTE : Dimension.TIME;
            case MATRIX_OUTLIERS -> Dimension.COUNT;
            case MATRIX_WORST_RATIO -> Dimension.RATIO;
        };
    }
}
