package org.fabprobe.method;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.ParameterSet;
import org.fabprobe.model.Segments;
import org.fabprobe.result.CompareDocument;
import org.fabprobe.result.CompareDocument.Cell;
import org.fabprobe.result.MethodDocument;
import org.fabprobe.result.PLogPDocument;
import org.fabprobe.result.ParameterRange;

/**
 * compare's analysis: raw and MPI parameters over the same size ranges, so that MPI - raw
 * subtracts like from like.
 *
 * <p><b>The common ranges are MPI's</b>, and raw's pLogP sweeps (both raw runs) are fitted
 * again over them by the same Table 1 conversion plogp uses. MPI's ranges are the library's
 * protocol regimes (eager, rendezvous), which is what MPI - raw is about. The union of both
 * sides' boundaries was the other choice; it cuts a range wherever either side's split falls,
 * also where that split follows noise (ucx:tcp's raw run split at 8 B), and leaves ranges of two
 * or three sizes whose G means nothing. A step that only one side has stays visible: the range
 * lists each side's own boundaries inside it, and the sizes both sides measured are compared
 * one by one. An MPI range where a raw run measured fewer than two sizes (each side's adaptive
 * sweep refines its own steps) joins its neighbour, so that raw's line there is a fit, not a gap.
 *
 * <p>loggp's documents hold no per-size o_s and o_r to fit again; there each MPI range is held
 * against raw's range that holds its first size, as before, and the table says so.
 */
public final class CompareAnalysis {
    /** How {@link CompareDocument#rangesRule} reads for each method. */
    public static final String PLOGP_RULE = "MPI's size ranges (one holding fewer than two raw sizes joins its neighbour);"
            + " both raw runs fitted again over them (Table 1, as plogp)";
    public static final String LOGGP_RULE = "MPI's size ranges, each against raw's own range that holds its first size"
            + " (loggp keeps no per-size o to fit raw again)";

    private CompareAnalysis() {}

    /** The comparison's ranges: common ones for plogp, MPI's against raw's own for loggp. */
    public static List<CompareDocument.Range> ranges(MethodDocument raw, MethodDocument rawAgain, MethodDocument mpi) {
        if (raw instanceof PLogPDocument r && rawAgain instanceof PLogPDocument a && mpi instanceof PLogPDocument m) {
            return commonRanges(r, a, m);
        }
        return differences(raw.parameters(), rawAgain.parameters(), mpi.parameters());
    }

    public static String rule(MethodDocument raw) {
        return raw instanceof PLogPDocument ? PLOGP_RULE : LOGGP_RULE;
    }

    /** Each side's own ranges, [from, to] each. */
    public static List<long[]> ownRanges(MethodDocument d) {
        return d.parameters().stream().map(p -> new long[] {p.fromBytes(), p.toBytes()}).toList();
    }

    /** pLogP's L = RTT(0)/2 - g(0) of both sides (plogp only, else null). */
    public static Cell pLogPLatency(MethodDocument raw, MethodDocument rawAgain, MethodDocument mpi) {
        if (raw instanceof PLogPDocument r && rawAgain instanceof PLogPDocument a && mpi instanceof PLogPDocument m) {
            return Cell.of(r.latencyNs(), a.latencyNs(), m.latencyNs());
        }
        return null;
    }

    /** MPI's ranges, with both raw runs fitted again over each. */
    static List<CompareDocument.Range> commonRanges(PLogPDocument raw, PLogPDocument rawAgain, PLogPDocument mpi) {
        Sweep r = Sweep.of(raw), a = Sweep.of(rawAgain), m = Sweep.of(mpi);
        List<long[]> common = joinedWhereThin(ownRanges(mpi), r.x, a.x);
        List<ParameterSet> rs = r.fit(common), as = a.fit(common), ms = m.fit(common);
        List<CompareDocument.Range> rows = new ArrayList<>();
        for (int i = 0; i < common.size(); i++) {
            long from = common.get(i)[0], to = common.get(i)[1];
            ParameterSet x = rs.get(i), y = as.get(i), z = ms.get(i);
            ParameterRange own = holding(raw.parameters(), from);
            rows.add(withUnresolved(new CompareDocument.Range(from, to, own == null ? null : new long[] {own.fromBytes(), own.toBytes()},
                    Cell.of(x.latency(), y.latency(), z.latency()),
                    Cell.of(x.sendOverhead(), y.sendOverhead(), z.sendOverhead()),
                    Cell.of(x.recvOverhead(), y.recvOverhead(), z.recvOverhead()),
                    Cell.of(x.gap(), y.gap(), z.gap()),
                    Cell.of(x.gapPerByte(), y.gapPerByte(), z.gapPerByte()),
                    stepsInside(raw.parameters(), from, to), stepsInside(mpi.parameters(), from, to),
                    CompareDocument.Overlap.of(x.latency(), y.latency(), z.latency()), List.of(),
                    perSize(raw, rawAgain, mpi, from, to))));
        }
        return rows;
    }

    /**
     * The ranges with each one that holds fewer than two sizes of either raw run joined to the
     * range before it (the first to the one after it), until every range holds two of each or
     * one range is left.
     */
    static List<long[]> joinedWhereThin(List<long[]> ranges, long[] raw, long[] rawAgain) {
        List<long[]> joined = new ArrayList<>();
        for (long[] r : ranges) joined.add(r.clone());
        for (int i = 0; i < joined.size() && joined.size() > 1; ) {
            long[] r = joined.get(i);
            if (Math.min(sizesIn(raw, r), sizesIn(rawAgain, r)) >= 2) { i++; continue; }
            if (i == 0) {
                joined.get(1)[0] = r[0];
                joined.remove(0);
            } else {
                joined.get(i - 1)[1] = r[1];
                joined.remove(i);
                i--;
            }
        }
        return joined;
    }

    private static long sizesIn(long[] sizes, long[] range) {
        return Arrays.stream(sizes).filter(s -> s >= range[0] && s <= range[1]).count();
    }

    /** The starts of a side's own ranges that lie inside (from, to]: a step that side has within the common range. */
    static List<Long> stepsInside(List<ParameterRange> own, long from, long to) {
        return own.stream().map(ParameterRange::fromBytes).filter(b -> b > from && b <= to).toList();
    }

    /** The sizes in [from, to] that all three runs measured: RTT, o_s, o_r, g each side and MPI - raw. */
    static List<CompareDocument.SizeRow> perSize(PLogPDocument raw, PLogPDocument rawAgain, PLogPDocument mpi, long from, long to) {
        Map<Long, PLogPDocument.Size> again = bySize(rawAgain), other = bySize(mpi);
        List<CompareDocument.SizeRow> rows = new ArrayList<>();
        for (PLogPDocument.Size s : raw.sizes()) {
            PLogPDocument.Size y = again.get(s.sizeBytes()), z = other.get(s.sizeBytes());
            if (s.sizeBytes() < from || s.sizeBytes() > to || y == null || z == null) continue;
            rows.add(new CompareDocument.SizeRow(s.sizeBytes(),
                    Cell.of(median(s.rttNs()), median(y.rttNs()), median(z.rttNs())),
                    Cell.of(median(s.oSNs()), median(y.oSNs()), median(z.oSNs())),
                    Cell.of(median(s.oRNs()), median(y.oRNs()), median(z.oRNs())),
                    Cell.of(s.gNs(), y.gNs(), z.gNs())));
        }
        return rows;
    }

    private static Map<Long, PLogPDocument.Size> bySize(PLogPDocument d) {
        Map<Long, PLogPDocument.Size> m = new HashMap<>();
        for (PLogPDocument.Size s : d.sizes()) m.put(s.sizeBytes(), s);
        return m;
    }

    private static Estimate median(org.fabprobe.result.SampledValue v) {
        return new Estimate(v.median(), v.ci95());
    }

    /**
     * True where a value is no figure: its 95 % uncertainty exceeds its size (and the clock's
     * scale of 10 ns, for times). Printed as "–" with a note; the JSON keeps the numbers and
     * lists them under {@code unresolved}.
     */
    public static boolean unresolved(Estimate e, boolean perByte) {
        if (e == null || Double.isNaN(e.value()) || Double.isNaN(e.ci95())) return false;
        return e.ci95() > Math.abs(e.value()) && (perByte || e.ci95() > RESOLUTION_NS);
    }

    private static final double RESOLUTION_NS = 10;
    private static final String[] NAMES = {"L_ns", "o_s_ns", "o_r_ns", "g_ns", "G_ns_per_byte"};

    /** The range with its unresolved values named ("raw G_ns_per_byte", "difference o_r_ns", ...). */
    static CompareDocument.Range withUnresolved(CompareDocument.Range r) {
        List<String> names = new ArrayList<>();
        List<Cell> cells = r.cells();
        for (int i = 0; i < cells.size(); i++) {
            boolean perByte = i == cells.size() - 1;
            Cell c = cells.get(i);
            if (unresolved(c.raw(), perByte)) names.add("raw " + NAMES[i]);
            if (unresolved(c.mpi(), perByte)) names.add("mpi " + NAMES[i]);
            if (unresolved(c.difference(), perByte)) names.add("difference " + NAMES[i]);
        }
        return new CompareDocument.Range(r.fromBytes(), r.toBytes(), r.rawRange(), r.latencyNs(), r.sendOverheadNs(),
                r.recvOverheadNs(), r.gapNs(), r.gapPerByteNs(), r.rawSteps(), r.mpiSteps(), r.latencyOverlapNs(), names,
                r.sizes());
    }

    /** One plogp run's sizes above 0: what Table 1 is fitted from. */
    record Sweep(long[] x, double[] gap, List<PLogPDocument.Size> sizes, Estimate pLatency, boolean reads) {
        static Sweep of(PLogPDocument d) {
            List<PLogPDocument.Size> positive = d.sizes().stream().filter(s -> s.sizeBytes() > 0).toList();
            return new Sweep(positive.stream().mapToLong(PLogPDocument.Size::sizeBytes).toArray(),
                    positive.stream().mapToDouble(s -> s.gNs().value()).toArray(), positive, d.latencyNs(),
                    d.header().settings() != null && "read".equals(d.header().settings().op()));
        }

        /**
         * Table 1 over the given ranges, as {@code PLogPMethod.toLogGP} over its own: g(1) from the
         * first range's line, L = pL + g(1) - o_s - o_r at the first size (reads: L = pL, LogGP's
         * already), per range o_s and o_r at
         * its first size, g its line at 1 B, G its slope. A range holding fewer than two of this
         * run's sizes gets NaN where a line is needed.
         */
        List<ParameterSet> fit(List<long[]> ranges) {
            List<ParameterSet> sets = new ArrayList<>();
            if (x.length == 0) return sets;
            Estimate g1 = null, latency = null;
            for (long[] range : ranges) {
                int from = 0;
                while (from < x.length && x[from] < range[0]) from++;
                int to = from;
                while (to < x.length && x[to] <= range[1]) to++;
                if (from == to) {
                    sets.add(new ParameterSet(range[0], range[1], ParameterSet.NOT_MEASURED, ParameterSet.NOT_MEASURED,
                            ParameterSet.NOT_MEASURED, ParameterSet.NOT_MEASURED, ParameterSet.NOT_MEASURED));
                    continue;
                }
                Segments.Line line = to - from >= 2 ? Segments.fit(x, gap, from, to) : null;
                PLogPDocument.Size start = sizes.get(from);
                Estimate oS = new Estimate(start.oSNs().median(), start.oSNs().ci95());
                Estimate oR = new Estimate(start.oRNs().median(), start.oRNs().ci95());
                Estimate atOne = line == null ? ParameterSet.NOT_MEASURED : new Estimate(line.at(1), line.interceptCi95()).withoutNaN();
                if (g1 == null) {
                    g1 = atOne;
                    latency = reads ? pLatency : pLatency.plus(g1).minus(oS).minus(oR);
                }
                Estimate gapAtOne = sets.isEmpty() ? g1 : new Estimate(atOne.value(), line == null ? Double.NaN : line.interceptCi95());
                Estimate slope = line == null ? ParameterSet.NOT_MEASURED : new Estimate(line.slope(), line.slopeCi95());
                sets.add(new ParameterSet(range[0], range[1], latency, oS, oR, gapAtOne, slope));
            }
            return sets;
        }
    }

    /** Each MPI range against the raw ranges (before and after) that hold its first size (loggp). */
    public static List<CompareDocument.Range> differences(List<ParameterRange> raw, List<ParameterRange> rawAgain,
                                                          List<ParameterRange> mpi) {
        List<CompareDocument.Range> rows = new ArrayList<>();
        for (ParameterRange m : mpi) {
            ParameterRange r = holding(raw, m.fromBytes()), a = holding(rawAgain, m.fromBytes());
            if (r == null || a == null) continue;
            rows.add(withUnresolved(new CompareDocument.Range(m.fromBytes(), m.toBytes(), new long[] {r.fromBytes(), r.toBytes()},
                    Cell.of(r.latencyNs(), a.latencyNs(), m.latencyNs()),
                    Cell.of(r.sendOverheadNs(), a.sendOverheadNs(), m.sendOverheadNs()),
                    Cell.of(r.recvOverheadNs(), a.recvOverheadNs(), m.recvOverheadNs()),
                    Cell.of(r.gapNs(), a.gapNs(), m.gapNs()),
                    Cell.of(r.gapPerByteNs(), a.gapPerByteNs(), m.gapPerByteNs()),
                    stepsInside(raw, m.fromBytes(), m.toBytes()), List.of(),
                    CompareDocument.Overlap.of(r.latencyNs(), a.latencyNs(), m.latencyNs()), List.of(), List.of())));
        }
        return rows;
    }

    /** The range that holds {@code size}, else the first one (null if there is none). */
    private static ParameterRange holding(List<ParameterRange> ranges, long size) {
        return ranges.stream().filter(x -> x.fromBytes() <= size && size <= x.toBytes())
                .findFirst().orElse(ranges.isEmpty() ? null : ranges.getFirst());
    }

    /** MPI adds work to raw: a clearly smaller MPI overhead means one of the two runs is off. */
    public static List<String> flags(List<CompareDocument.Range> rows) {
        List<String> flags = new ArrayList<>();
        for (CompareDocument.Range row : rows) {
            String[] names = {"o_s", "o_r"};
            Cell[] cells = {row.sendOverheadNs(), row.recvOverheadNs()};
            for (int i = 0; i < names.length; i++) {
                Estimate d = cells[i].difference();
                if (d.value() + (Double.isNaN(d.ci95()) ? 0 : d.ci95()) < 0) {
                    flags.add(String.format(Locale.ROOT, "%s: MPI below raw by %.0f ns (beyond uncertainty) in %d..%d B",
                            names[i], -d.value(), row.fromBytes(), row.toBytes()));
                }
            }
        }
        return flags;
    }

    /** The UCX settings each side pinned (facts ucx.*), where either side runs over UCX. */
    public static Map<String, Map<String, String>> ucxSettings(Map<String, String> rawFacts, Map<String, String> mpiFacts) {
        Map<String, String> rawUcx = ucxFacts(rawFacts);
        Map<String, String> mpiUcx = ucxFacts(mpiFacts);
        Map<String, Map<String, String>> both = new LinkedHashMap<>();
        if (rawUcx.isEmpty() && mpiUcx.isEmpty()) return both;
        both.put("raw", rawUcx);
        both.put("mpi", mpiUcx);
        return both;
    }

    private static Map<String, String> ucxFacts(Map<String, String> facts) {
        Map<String, String> m = new LinkedHashMap<>();
        if (facts != null) facts.forEach((k, v) -> {
            if (k.startsWith("ucx.")) m.put(k.substring(4), v);
        });
        return m;
    }

    /** Like for like: the same pinned UCX settings on both sides (the MPI's own "self" transport aside). */
    public static List<String> ucxFlags(Map<String, Map<String, String>> ucx) {
        List<String> flags = new ArrayList<>();
        if (ucx.isEmpty()) return flags;
        Map<String, String> raw = ucx.get("raw"), mpi = ucx.get("mpi");
        Set<String> keys = new TreeSet<>(raw.keySet());
        keys.addAll(mpi.keySet());
        for (String key : keys) {
            String a = String.valueOf(raw.get(key)), c = String.valueOf(mpi.get(key));
            if (key.equals("TLS")) c = c.replace(",self", "");
            if (!a.equals(c)) {
                flags.add("UCX_" + key + " differs: raw " + raw.get(key) + ", MPI " + mpi.get(key) + " (not like for like)");
            }
        }
        return flags;
    }
}
