package org.fabprobe.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.fabprobe.model.HockneyFit;
import org.fabprobe.model.Summary;

/** A ping-pong sweep as a terminal table, a JSON document (schema fabprobe.pingpong/1) and CSV. */
public final class PingPongReport {
    private PingPongReport() {}

    public static String table(PingPongResult r) {
        StringBuilder b = new StringBuilder();
        RunFacts run = r.run();
        b.append(String.format(Locale.ROOT, "fabprobe pingpong  %s (%s %s)  clock %s  host %s%n", run.transport(),
                run.transportFacts().getOrDefault("provider", ""), run.transportFacts().getOrDefault("library", ""),
                run.clock().source(), run.host().getOrDefault("hostname", "")));
        b.append(String.format(Locale.ROOT, "%10s %7s %11s %11s %11s %12s %8s%n", "size", "reps", "min µs",
                "median µs", "p99 µs", "MB/s", "outliers"));
        for (SizePoint p : r.points()) {
            Summary s = p.halfRttNs();
            b.append(String.format(Locale.ROOT, "%10s %7d %11.3f %11.3f %11.3f %12.1f %8d%n", human(p.sizeBytes()),
                    s.count(), s.min() / 1e3, s.median() / 1e3, s.p99() / 1e3, p.bandwidthMBs(), s.outliers()));
        }
        b.append("half round-trip times; Hockney fit t(n) = t0 + n / r_inf of the medians, per size range:\n");
        for (HockneyFit f : r.fits()) {
            b.append(String.format(Locale.ROOT, "  %9s .. %-9s t0 = %.3f ± %.3f µs   r_inf = %s MB/s   n_1/2 = %s B%n",
                    human(f.fromBytes()), human(f.toBytes()), f.t0Ns() / 1e3, f.t0ErrNs() / 1e3,
                    Double.isFinite(f.rInfMBs()) ? String.format(Locale.ROOT, "%.0f ± %.0f", f.rInfMBs(), f.rInfErrMBs()) : "∞",
                    Double.isFinite(f.nHalfBytes()) ? String.format(Locale.ROOT, "%.0f", f.nHalfBytes()) : "∞"));
        }
        b.append(String.format(Locale.ROOT, "wall time %.2f s%n", r.wallSeconds()));
        return b.toString();
    }

    public static String json(PingPongResult r) {
        RunFacts run = r.run();
        List<Object> sizes = new ArrayList<>();
        for (SizePoint p : r.points()) {
            Summary s = p.halfRttNs();
            sizes.add(Json.object("size_bytes", p.sizeBytes(), "repetitions", s.count(),
                    "half_rtt_ns", Json.object("min", s.min(), "median", s.median(), "p99", s.p99(), "mean", s.mean(),
                            "stddev", s.stddev(), "ci95", s.ci95()),
                    "outliers", s.outliers(), "bandwidth_mb_s", p.bandwidthMBs(), "wall_ms", p.wallMs()));
        }
        List<Object> fits = new ArrayList<>();
        for (HockneyFit f : r.fits()) {
            fits.add(Json.object("from_bytes", f.fromBytes(), "to_bytes", f.toBytes(), "points", f.points(),
                    "t0_ns", f.t0Ns(), "t0_err_ns", f.t0ErrNs(), "r_inf_mb_s", f.rInfMBs(),
                    "r_inf_err_mb_s", f.rInfErrMBs(), "n_half_bytes", f.nHalfBytes(),
                    "rms_rel_residual", f.rmsRelResidual()));
        }
        Map<String, Object> doc = Json.object("schema", "fabprobe.pingpong/1", "tool", run.tool(), "command", run.command(),
                "transport", run.transport(), "transport_facts", run.transportFacts(), "settings", run.settings(),
                "host", run.host(), "clock", Json.clock(run.clock()), "started_at", run.startedAt(),
                "wall_seconds", r.wallSeconds(), "sizes", sizes, "hockney", fits);
        return Json.write(doc);
    }

    public static String csv(PingPongResult r) {
        StringBuilder b = new StringBuilder(
                "size_bytes,repetitions,min_ns,median_ns,p99_ns,mean_ns,stddev_ns,ci95_ns,outliers,bandwidth_mb_s\n");
        for (SizePoint p : r.points()) {
            Summary s = p.halfRttNs();
            b.append(String.format(Locale.ROOT, "%d,%d,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%d,%.3f%n", p.sizeBytes(), s.count(),
                    s.min(), s.median(), s.p99(), s.mean(), s.stddev(), s.ci95(), s.outliers(), p.bandwidthMBs()));
        }
        return b.toString();
    }

    /** 0 B, 8 B, 4 KiB, 1 MiB. */
    static String human(long bytes) {
        if (bytes >= 1 << 30 && bytes % (1 << 30) == 0) return (bytes >> 30) + " GiB";
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) return (bytes >> 20) + " MiB";
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) return (bytes >> 10) + " KiB";
        return bytes + " B";
    }
}
