package org.fabprobe.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.fabprobe.method.MultiPairMethod.Point;
import org.fabprobe.method.MultiPairMethod.Result;
import org.fabprobe.model.MultiPairFit;
import org.fabprobe.model.MultiPairFitter;
import org.fabprobe.result.ResultJson;

/**
 * Multi-pair ping-pong (IMB PingPong multi mode) and Hager and Wellein's model: per size the
 * repetition count n(x), T_b(x) (median over samples of the slowest pair's loop) and the
 * aggregated bandwidth b(x) = 2k x n(x) / T_b(x) (eq. 6 for k = 2 pairs); the fit of C, B_r,
 * T_1. Terminal table (µs, MB/s = 10^6 B/s), JSON (schema fabprobe.multipair/1, ns, bytes)
 * and CSV (one row per size).
 */
public final class MultiPairReport {
    public static final String SCHEMA = "fabprobe.multipair/1";

    private MultiPairReport() {}

    /** Everything a report shows; {@code fit} empty when not fitted (see the notes). */
    public record Context(RunFacts run, Result result, long fitFromBytes, Optional<MultiPairFit> fit, double wallSeconds,
                         List<String> notes) {}

    /** The model's fit over the sizes from {@code fromBytes} on (the model is for 2 pairs: empty otherwise). */
    public static Optional<MultiPairFit> fit(Result r, long fromBytes) {
        if (r.pairs() != 2) return Optional.empty();
        List<Point> used = r.points().stream().filter(p -> p.sizeBytes() > 0 && p.sizeBytes() >= fromBytes && p.medianLoopNs() > 0).toList();
        return MultiPairFitter.fit(used.stream().mapToLong(Point::sizeBytes).toArray(),
                used.stream().mapToLong(Point::reps).toArray(), used.stream().mapToDouble(Point::medianLoopNs).toArray());
    }

    /** b(x) = 2k x n(x) / T_b(x) in MB/s: every byte that crossed, both directions, all pairs. */
    public static double aggregatedMBs(Point p, int pairs) {
        return 2.0 * pairs * p.sizeBytes() * p.reps() / p.medianLoopNs() * 1e3;
    }

    private static boolean fitted(Context c, Point p) {
        return c.fit().isPresent() && p.sizeBytes() > 0 && p.sizeBytes() >= c.fitFromBytes();
    }

    // ---- table ------------------------------------------------------------------------

    public static String table(Context c) {
        RunFacts run = c.run();
        Result r = c.result();
        StringBuilder b = new StringBuilder();
        String library = run.transportFacts().getOrDefault("library", "");
        b.append(String.format(Locale.ROOT, "fabprobe multipair  transport %s%s  %d pairs (rank i pings rank i + %d)  clock %s  host %s%n",
                run.transport(), library.isEmpty() ? "" : " (" + library + ")", r.pairs(), r.pairs(), run.clock().source(),
                run.host().hostname()));
        b.append(String.format(Locale.ROOT, "%10s %6s %12s %12s %9s %12s %12s %12s%n", "size", "n(x)", "T_b µs", "min µs",
                "pairs ±%", "b(x) MB/s", "per pair", "model MB/s"));
        for (Point p : r.points()) {
            double spread = spreadPercent(p);
            String model = fitted(c, p)
                    ? String.format(Locale.ROOT, "%.0f", c.fit().get().model().aggregatedBandwidth(p.sizeBytes(), p.reps()) * 1e3)
                    : "-";
            b.append(String.format(Locale.ROOT, "%10s %6d %12.1f %12.1f %9.1f %12.0f %12.0f %12s%n", PingPongReport.human(p.sizeBytes()),
                    p.reps(), p.medianLoopNs() / 1e3, p.minLoopNs() / 1e3, spread, aggregatedMBs(p, r.pairs()),
                    aggregatedMBs(p, r.pairs()) / r.pairs(), model));
        }
        b.append("T_b: the time of n(x) ping-pongs, median over samples of the slowest pair; pairs ±%: the pairs' own loop\n"
                + "times (medians) max vs min; b(x) = 2k x n(x) / T_b(x), both directions, all k pairs (eq. 6 for k = 2).\n");
        if (c.fit().isPresent()) {
            MultiPairFit f = c.fit().get();
            b.append(String.format(Locale.ROOT, "Hager-Wellein fit over %s .. %s (%d sizes, rms %.2f %%):%n", PingPongReport.human(f.fromBytes()),
                    PingPongReport.human(f.toBytes()), f.points(), f.rmsRelResidual() * 100));
            b.append(String.format(Locale.ROOT, "  C   = %s B%s%n", pm(f.chunkBytes(), f.chunkErrBytes(), "%.0f"),
                    f.chunkResolved() ? "" : "  (at the edge of the sizes: a bound, not a value)"));
            b.append(String.format(Locale.ROOT, "  B_r = %s MB/s%n", pm(f.rawMBs(), f.rawErrMBs(), "%.0f")));
            b.append(String.format(Locale.ROOT, "  T_1 = %s µs%n", pm(f.t1Ns() / 1e3, f.t1ErrNs() / 1e3, "%.3f")));
            b.append("  (± one standard error; T_b = T_p [4n - (2n-1)/beta] + T_1 (4n - 1), T_p = x / B_r, beta = max(1, x / C))\n");
        }
        for (String note : c.notes()) b.append("note: ").append(note).append('\n');
        b.append(String.format(Locale.ROOT, "wall time %.2f s%n", c.wallSeconds()));
        return b.toString();
    }

    /** (max - min) / median of the pairs' loop medians, in percent. */
    private static double spreadPercent(Point p) {
        double[] v = p.pairLoopNs();
        double lo = Double.POSITIVE_INFINITY, hi = 0;
        for (double d : v) {
            lo = Math.min(lo, d);
            hi = Math.max(hi, d);
        }
        return v.length < 2 ? 0 : 100 * (hi - lo) / ((hi + lo) / 2);
    }

    private static String pm(double value, double err, String format) {
        return Double.isFinite(err) ? String.format(Locale.ROOT, format + " ± " + format, value, err)
                : String.format(Locale.ROOT, format, value);
    }

    // ---- JSON ---------------------------------------------------------------------------

    public static String json(Context c) {
        RunFacts run = c.run();
        Result r = c.result();
        List<Object> sizes = new ArrayList<>();
        for (Point p : r.points()) {
            Map<String, Object> s = object("size_bytes", p.sizeBytes(), "repetitions", p.reps(), "samples", p.loopNs().length,
                    "loop_ns", object("min", p.minLoopNs(), "median", p.medianLoopNs(), "max", p.maxLoopNs()),
                    "sample_loop_ns", p.loopNs(), "pair_loop_ns", p.pairLoopNs(),
                    "aggregated_bandwidth_mb_s", aggregatedMBs(p, r.pairs()), "fitted", fitted(c, p));
            if (fitted(c, p)) s.put("model_bandwidth_mb_s", c.fit().get().model().aggregatedBandwidth(p.sizeBytes(), p.reps()) * 1e3);
            sizes.add(s);
        }
        Object model = null;
        if (c.fit().isPresent()) {
            MultiPairFit f = c.fit().get();
            model = object("from_bytes", f.fromBytes(), "to_bytes", f.toBytes(), "points", f.points(),
                    "chunk_bytes", f.chunkBytes(), "chunk_err_bytes", f.chunkErrBytes(), "chunk_resolved", f.chunkResolved(),
                    "raw_bandwidth_mb_s", f.rawMBs(), "raw_bandwidth_err_mb_s", f.rawErrMBs(),
                    "t1_ns", f.t1Ns(), "t1_err_ns", f.t1ErrNs(), "rms_rel_residual", f.rmsRelResidual(),
                    "errors", "one standard error (covariance of the Levenberg-Marquardt fit, scaled by the residual variance)");
        }
        Map<String, Object> doc = object("schema", SCHEMA, "tool", run.tool(), "command", run.command(),
                "transport", run.transport(), "transport_facts", run.transportFacts(), "settings", run.settings(),
                "host", run.host(), "clock", run.clock(), "started_at", run.startedAt(),
                "wall_seconds", c.wallSeconds(), "pairs", r.pairs(), "timer_overhead_ns", r.timerOverheadNs(),
                "jit_warmup_ms", r.jitWarmupMs(), "sizes", sizes, "model", model, "notes", c.notes());
        return ResultJson.write(doc);
    }

    /** An ordered JSON object from key, value pairs (Jackson writes maps in their order). */
    private static Map<String, Object> object(Object... keysAndValues) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return m;
    }

    // ---- CSV ----------------------------------------------------------------------------

    public static String csv(Context c) {
        Result r = c.result();
        StringBuilder b = new StringBuilder("size_bytes,repetitions,samples,loop_min_ns,loop_median_ns,loop_max_ns,"
                + "aggregated_bandwidth_mb_s,model_bandwidth_mb_s\n");
        for (Point p : r.points()) {
            b.append(p.sizeBytes()).append(',').append(p.reps()).append(',').append(p.loopNs().length);
            for (double v : new double[] {p.minLoopNs(), p.medianLoopNs(), p.maxLoopNs(), aggregatedMBs(p, r.pairs())}) {
                b.append(',').append(String.format(Locale.ROOT, "%.1f", v));
            }
            b.append(',');
            if (fitted(c, p)) {
                b.append(String.format(Locale.ROOT, "%.1f", c.fit().get().model().aggregatedBandwidth(p.sizeBytes(), p.reps()) * 1e3));
            }
            b.append('\n');
        }
        return b.toString();
    }
}
