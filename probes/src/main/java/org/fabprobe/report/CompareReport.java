package org.fabprobe.report;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.fabprobe.method.CompareAnalysis;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.ParameterSet;
import org.fabprobe.result.CompareDocument;
import org.fabprobe.result.CompareDocument.Cell;

/**
 * compare's table: per common size range raw, MPI, MPI - raw and the raw drift of every
 * parameter. A value whose uncertainty exceeds it prints as "–" (with a note), a negative L as
 * the overlap it stands for, and a range where one side has a step the other lacks also per size.
 */
public final class CompareReport {
    private CompareReport() {}

    private static final String[] LABELS = {"L µs", "o_s µs", "o_r µs", "g µs", "G ns/B"};
    private static final String ROW = "%-12s %22s %22s %22s %12s%n";

    public static String table(CompareDocument doc) {
        StringBuilder b = new StringBuilder();
        String op = doc.op() == null || doc.op().equals("send") ? "" : "  --op " + doc.op();
        b.append(String.format(Locale.ROOT, "fabprobe compare  %s%s  raw %s  vs  %s (%s)%n", doc.method(), op, doc.rawTransport(),
                doc.mpiTransport(), doc.mpi().transportFacts().getOrDefault("library", "?")));
        b.append("calls: ").append(doc.callsNote()).append('\n');
        if (!doc.ucxSettings().isEmpty()) {
            b.append("UCX pinned: raw ").append(doc.ucxSettings().get("raw")).append(", MPI ").append(doc.ucxSettings().get("mpi")).append('\n');
        }
        b.append("size ranges: ").append(doc.rangesRule()).append('\n');
        b.append("  own ranges: raw ").append(ranges(doc.rawRanges())).append("; MPI ").append(ranges(doc.mpiRanges())).append('\n');
        boolean unresolved = false, bare = false;
        if (doc.pLogPLatencyNs() != null) {
            b.append(String.format(Locale.ROOT, "%n" + ROW, "", "raw", "MPI", "MPI - raw", "raw drift"));
            Cell c = doc.pLogPLatencyNs();
            bare = row(b, "pLogP L µs", c, false);
            b.append("read".equals(doc.op()) ? "  (L = (RTT(0) - o_s(0) - o_r(0))/2 of the reads, one per run: LogGP's L already)\n"
                    : "  (pLogP's L = RTT(0)/2 - g(0), one per run; the ranges below give LogGP's by Table 1)\n");
            if (c.raw().value() < 0) b.append("  pLogP L raw: ").append(MethodReport.pLogPLatency(c.raw())).append('\n');
            if (c.mpi().value() < 0) b.append("  pLogP L MPI: ").append(MethodReport.pLogPLatency(c.mpi())).append('\n');
            unresolved = anyUnresolved(c, false);
        }
        for (CompareDocument.Range r : doc.ranges()) {
            b.append(String.format(Locale.ROOT, "%nrange %s .. %s%s%n", PingPongReport.human(r.fromBytes()),
                    PingPongReport.human(r.toBytes()), steps(r)));
            b.append(String.format(Locale.ROOT, ROW, "", "raw", "MPI", "MPI - raw", "raw drift"));
            List<Cell> cells = r.cells();
            for (int i = 0; i < cells.size(); i++) {
                boolean perByte = i == cells.size() - 1;
                bare |= row(b, LABELS[i], cells.get(i), perByte);
                unresolved |= anyUnresolved(cells.get(i), perByte);
            }
            CompareDocument.Overlap o = r.latencyOverlapNs();
            if (o != null) {
                if (o.raw() != null) b.append("  L raw: ").append(ParameterSet.overlapText(o.raw().times(-1))).append('\n');
                if (o.mpi() != null) b.append("  L MPI: ").append(ParameterSet.overlapText(o.mpi().times(-1))).append('\n');
                b.append("  (L < 0 from Table 1 is no latency: the overheads hold the transfer; MPI - raw of L is the"
                        + " difference of the two overlaps)\n");
            }
            if ((!r.rawSteps().isEmpty() || !r.mpiSteps().isEmpty()) && !r.sizes().isEmpty()) perSize(b, r);
        }
        b.append(String.format(Locale.ROOT, "%n± is the 95 %% uncertainty; MPI - raw is the library's own overhead. Raw ran"
                + " before and after MPI:%nraw is their mean, raw drift their difference (the host's, between runs), and"
                + " half of it is in MPI - raw's ±.%n"));
        if (unresolved) {
            b.append("–  the 95 % uncertainty is larger than the value (raw, MPI: not resolved by this run; MPI - raw:"
                    + " not told from 0); the JSON has the numbers.\n");
        }
        if (bare) {
            b.append("A value without ± has no uncertainty of its own (a line through two sizes, or a raw run whose line"
                    + " came out flat): read it against raw drift.\n");
        }
        for (String f : doc.flags()) b.append("FLAG ").append(f).append('\n');
        return b.toString();
    }

    /** A printed raw, MPI or MPI - raw value that is a number without ± (raw drift is a plain difference by design). */
    static boolean bare(String printed) {
        return printed.matches("-?[0-9.]+");
    }

    private static String steps(CompareDocument.Range r) {
        StringBuilder s = new StringBuilder();
        if (!r.rawSteps().isEmpty()) s.append("; raw alone steps at ").append(sizes(r.rawSteps()));
        if (!r.mpiSteps().isEmpty()) s.append("; MPI alone steps at ").append(sizes(r.mpiSteps()));
        // sizes both sides measured; MPI's adaptive sizes beyond the requested ones have no raw twin
        if (!s.isEmpty()) s.append(r.sizes().isEmpty() ? " (no size both sides measured)" : " (per size below)");
        return s.toString();
    }

    /** The sizes both sides measured inside a range where one side steps: RTT, o_s, o_r, g of each and MPI - raw. */
    private static void perSize(StringBuilder b, CompareDocument.Range r) {
        b.append(String.format(Locale.ROOT, "  %9s %22s %22s %22s %22s%n", "size", "RTT µs raw / MPI", "o_s µs raw / MPI",
                "o_r µs raw / MPI", "g µs raw / MPI"));
        for (CompareDocument.SizeRow s : r.sizes()) {
            b.append(String.format(Locale.ROOT, "  %9s %22s %22s %22s %22s%n", PingPongReport.human(s.sizeBytes()),
                    pair(s.rttNs()), pair(s.oSNs()), pair(s.oRNs()), pair(s.gNs())));
        }
    }

    private static String pair(Cell c) {
        return String.format(Locale.ROOT, "%.3f / %.3f", c.raw().value() / 1e3, c.mpi().value() / 1e3);
    }

    /** Appends one parameter's row; true if a value in it has no ± of its own. */
    private static boolean row(StringBuilder b, String label, Cell c, boolean perByte) {
        double scale = perByte ? 1 : 1e-3;
        // a negative L is no latency: the overlap (Table 1) or a gap above RTT(0)/2 (pLogP), named below the row
        String negative = label.startsWith("L ") ? "– (overlap)" : label.startsWith("pLogP L") ? "– (see below)" : null;
        // the difference of a value this run did not resolve says nothing either
        boolean sideUnresolved = CompareAnalysis.unresolved(c.raw(), perByte) || CompareAnalysis.unresolved(c.mpi(), perByte);
        String raw = value(c.raw(), scale, perByte, negative), mpi = value(c.mpi(), scale, perByte, negative),
                difference = sideUnresolved ? "–" : value(c.difference(), scale, perByte, null);
        b.append(String.format(Locale.ROOT, ROW, label, raw, mpi, difference,
                Double.isNaN(c.rawDrift()) ? "–" : String.format(Locale.ROOT, perByte ? "%.4f" : "%.3f", c.rawDrift() * scale)));
        return bare(raw) || bare(mpi) || bare(difference);
    }

    private static boolean anyUnresolved(Cell c, boolean perByte) {
        return CompareAnalysis.unresolved(c.raw(), perByte) || CompareAnalysis.unresolved(c.mpi(), perByte)
                || CompareAnalysis.unresolved(c.difference(), perByte);
    }

    /** "1.234 ± 0.005", "–" where not measured or not resolved, {@code negative} for a value below 0 that is no latency. */
    private static String value(Estimate e, double scale, boolean perByte, String negative) {
        double v = e.value(), ci = e.ci95();
        if (Double.isNaN(v)) return "–";
        if (negative != null && v < 0) return negative;
        if (CompareAnalysis.unresolved(e, perByte)) return "–";
        String f = perByte ? "%.4f" : "%.3f";
        return Double.isNaN(ci) ? String.format(Locale.ROOT, f, v * scale)
                : String.format(Locale.ROOT, f + " ± " + f, v * scale, ci * scale);
    }

    private static String ranges(List<long[]> ranges) {
        return ranges.stream().map(r -> PingPongReport.human(r[0]) + ".." + PingPongReport.human(r[1]))
                .collect(Collectors.joining(", "));
    }

    private static String sizes(List<Long> sizes) {
        return sizes.stream().map(PingPongReport::human).collect(Collectors.joining(", "));
    }
}
