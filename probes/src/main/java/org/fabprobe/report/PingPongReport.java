package org.fabprobe.report;

import java.util.Locale;
import org.fabprobe.api.PingPongResult;
import org.fabprobe.api.SizeList;
import org.fabprobe.model.Summary;
import org.fabprobe.result.HockneyRange;
import org.fabprobe.result.PingPongDocument;


/**
 * A ping-pong sweep as a terminal table, a JSON document and CSV. Times are ns in JSON and CSV,
 * µs in the table. Values that do not exist (NaN, e.g. the spread of a single sample) are null
 * in JSON and empty in CSV; an infinite r_inf (a flat size range, see HockneyFitter) is null in
 * JSON, with n_half_bytes and r_inf_err_mb_s null too.
 */
public final class PingPongReport {
    private PingPongReport() {}

    /** What a sample is, by op: a write ping-pong's half round trip, else one operation (see pattern.OneSidedPingPong). */
    private static final java.util.Map<String, String> OP_TIMES = java.util.Map.of("write",
            "half round-trip times of RDMA-write ping-pong (the target polls its memory)", "read",
            "read latency, one operation each", "fetch-add", "fetch-and-add latency on 8 B, one operation each",
            "cswap", "compare-and-swap latency on 8 B, one operation each");

    public static String table(PingPongResult r) {
        PingPongDocument run = r.document();
        StringBuilder b = new StringBuilder();
        String library = run.transportFacts().getOrDefault("library", "");
        String congestionControl = run.transportFacts().get("tcp_congestion_control"); // paces the large sizes
        if (congestionControl != null) library += (library.isEmpty() ? "" : ", ") + "tcp " + congestionControl;
        String clock = run.clock().source() + (run.clock().fallbackReason().isEmpty() ? ""
                : " (" + run.clock().fallbackReason() + ")");
        String op = run.header().settings().op() == null ? "send" : run.header().settings().op();
        b.append(String.format(Locale.ROOT, "fabprobe pingpong%s  transport %s%s  clock %s  host %s%s%n",
                "send".equals(op) ? "" : "  op " + op, run.transport(),
                library.isEmpty() ? "" : " (" + library + ")", clock, run.host().hostname(), r.headerNote()));
        b.append(String.format(Locale.ROOT, "%10s %7s %11s %11s %11s %11s %12s %8s%n", "size", "reps", "min µs",
                "median µs", "p99 µs", "max µs", "MB/s", "outliers"));
        for (PingPongDocument.Size p : run.sizes()) {
            Summary s = p.halfRttNs();
            b.append(String.format(Locale.ROOT, "%10s %7d %11.3f %11.3f %11.3f %11.3f %12.1f %8d%s%n", human(p.sizeBytes()),
                    s.count(), s.min() / 1e3, s.median() / 1e3, s.p99() / 1e3, s.max() / 1e3, p.bandwidthMbS(), s.outliers(),
                    remeasuredNote(p)));
        }
        String times = run.targetProgress() != null ? "one operation each with the target progressing (a write with its completion"
                + " at the target)" : OP_TIMES.getOrDefault(op, "half round-trip times");
        b.append(times).append("; max: the longest, where a preemption shows; MB/s = size / median.\n");
        if (run.targetProgress() != null) targetTable(b, run.targetProgress());
        if (run.hockney().isEmpty()) {
            b.append("Hockney fit: needs at least 3 sizes.\n");
        } else {
            b.append("Hockney fit t(n) = t0 + n / r_inf per size range:\n");
            b.append(String.format(Locale.ROOT, "  %-21s %19s %21s %12s %8s%n", "range", "t0 µs", "r_inf MB/s",
                    "n_1/2 B", "rms"));
            for (HockneyRange f : run.hockney()) {
                String range = human(f.fromBytes()) + " .. " + human(f.toBytes());
                String t0 = String.format(Locale.ROOT, "%.3f ± %.3f", f.t0Ns() / 1e3, f.t0ErrNs() / 1e3);
                boolean flat = !Double.isFinite(f.rInfMbS()); // infinite, or null once written
                String rInf = flat ? "∞ (flat)"
                        : String.format(Locale.ROOT, "%.0f ± %.0f", f.rInfMbS(), f.rInfErrMbS());
                String nHalf = flat ? "∞" : String.format(Locale.ROOT, "%.0f", f.nHalfBytes());
                b.append(String.format(Locale.ROOT, "  %-21s %19s %21s %12s %7.2f%%%n", range, t0, rInf, nHalf,
                        f.rmsRelResidual() * 100));
            }
        }
        for (String flag : run.flags()) b.append("flag: ").append(flag).append('\n');
        b.append(String.format(Locale.ROOT, "wall time %.2f s%n", run.wallSeconds()));
        return b.toString();
    }

    /** Who must progress the op: per size, the passive-target run beside the active one, and the verdict. */
    private static void targetTable(StringBuilder b, java.util.List<PingPongDocument.TargetProgress> rows) {
        b.append("Who must progress (target passive: no library call while the operations run):\n");
        b.append(String.format(Locale.ROOT, "%10s  %-42s %11s %11s %13s  %s%n", "size", "target passive", "passive µs",
                "active µs", "target CPU µs", "verdict"));
        for (PingPongDocument.TargetProgress r : rows) {
            // a native op needs no target CPU: what a progressing target would spend anyway is in the JSON
            boolean needed = !PingPongDocument.TargetProgress.COMPLETES.equals(r.passive());
            String cpu = r.targetCpuNsPerOp() == null || !needed ? "–"
                    : String.format(Locale.ROOT, "%.3f", r.targetCpuNsPerOp() / 1e3);
            String passive = r.passiveMedianNs() == null ? "–" : String.format(Locale.ROOT, "%.3f", r.passiveMedianNs() / 1e3);
            b.append(String.format(Locale.ROOT, "%10s  %-42s %11s %11.3f %13s  %s%s%n", human(r.sizeBytes()), r.passive(),
                    passive, r.activeMedianNs() / 1e3, cpu, r.verdict(), r.disturbed() ? "  DISTURBED" : ""));
        }
        b.append("target CPU: the target thread's CPU time while it progresses with a nap before each call, less as many idle"
                + " calls', per operation (docs/methods.md).\n");
    }

    /** A disturbed size's row says so, and how often it was measured. */
    private static String remeasuredNote(PingPongDocument.Size p) {
        String times = p.remeasured() == 0 ? "" : "measured " + (p.remeasured() + 1) + " times";
        if (p.disturbed()) return (p.stalled() ? "  STALL" : "  DISTURBED") + (times.isEmpty() ? "" : ", " + times);
        return times.isEmpty() ? "" : "  " + times + ", the last undisturbed";
    }

    public static String csv(PingPongDocument d) {
        StringBuilder b = new StringBuilder(
                "size_bytes,repetitions,min_ns,median_ns,p99_ns,max_ns,mean_ns,stddev_ns,ci95_ns,outliers,bandwidth_mb_s\n");
        for (PingPongDocument.Size p : d.sizes()) {
            Summary s = p.halfRttNs();
            b.append(p.sizeBytes()).append(',').append(s.count());
            for (double ns : new double[] {s.min(), s.median(), s.p99(), s.max(), s.mean(), s.stddev(), s.ci95()}) {
                b.append(',').append(csvNumber("%.1f", ns));
            }
            b.append(',').append(s.outliers()).append(',').append(csvNumber("%.3f", p.bandwidthMbS())).append('\n');
        }
        return b.toString();
    }

    private static String csvNumber(String format, double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, format, value) : "";
    }

    /** Exact sizes in the largest binary unit that divides them: 0 B, 8 B, 4 KiB, 1 MiB, 1000 B. */
    static String human(long bytes) {
        return SizeList.human(bytes);
    }
}
