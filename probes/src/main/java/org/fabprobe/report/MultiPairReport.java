package org.fabprobe.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.fabprobe.api.RunFacts;
import org.fabprobe.method.MultiPairMethod.Point;
import org.fabprobe.method.MultiPairMethod.Result;
import org.fabprobe.model.MultiPairFit;
import org.fabprobe.model.MultiPairFitter;
import org.fabprobe.result.MultiPairDocument;
import org.fabprobe.result.ResultJson;

/**
 * Multi-pair ping-pong (IMB PingPong multi mode) and Hager and Wellein's model: per size the
 * repetition count n(x), T_b(x) (median over samples of the slowest pair's loop) and the
 * aggregated bandwidth b(x) = 2k x n(x) / T_b(x) (eq. 6 for k = 2 pairs); the fit of C, B_r,
 * T_1. Terminal table (µs, MB/s = 10^6 B/s), JSON (schema fabprobe.multipair/2, ns, bytes)
 * and CSV (one row per size).
 */
public final class MultiPairReport {
    public static final String SCHEMA = MultiPairDocument.SCHEMA;

    private MultiPairReport() {}

    /** Everything a report shows; {@code fit} empty when not fitted (see the notes). */
    public record Context(RunFacts<MultiPairDocument.Settings> run, Result result, long fitFromBytes, Optional<MultiPairFit> fit, double wallSeconds,
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
        var run = c.run();
        Result r = c.result();
        StringBuilder b = new StringBuilder();
        String library = run.transportFacts().getOrDefault("library", "");
        b.append(String.format(Locale.ROOT, "fabprobe multipair  transport %s%s  %d pairs (rank i pings rank i + %d)  clock %s  host %s%s%n",
                run.transport(), library.isEmpty() ? "" : " (" + library + ")", r.pairs(), r.pairs(), run.clock().source(),
                run.host().hostname(), MatrixReport.firstLineNote(r.sharedCpus())));
        b.append(String.format(Locale.ROOT, "%10s %6s %12s %12s %9s %12s %12s %12s%n", "size", "n(x)", "T_b µs", "min µs",
                "pairs ±%", "b(x) MB/s", "per pair", "model MB/s"));
        for (Point p : r.points()) {
            double spread = spreadPercent(p);
            String model = fitted(c, p)
                    ? String.format(Locale.ROOT, "%.0f", c.fit().get().model().aggregatedBandwidth(p.sizeBytes(), p.reps()) * 1e3)
                    : "-";
            b.append(String.format(Locale.ROOT, "%10s %6d %12.1f %12.1f %9.1f %12.0f %12.0f %12s%s%n", PingPongReport.human(p.sizeBytes()),
                    p.reps(), p.medianLoopNs() / 1e3, p.minLoopNs() / 1e3, spread, aggregatedMBs(p, r.pairs()),
                    aggregatedMBs(p, r.pairs()) / r.pairs(), model, rowNote(p)));
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
        String shared = org.fabprobe.result.SharedCpus.flag(r.sharedCpus());
        if (shared != null) b.append("flag: ").append(shared).append('\n');
        for (String note : c.notes()) b.append("note: ").append(note).append('\n');
        b.append(String.format(Locale.ROOT, "wall time %.2f s%n", c.wallSeconds()));
        return b.toString();
    }

    /** A size kept with most of its samples disturbed says so, and how often it was measured. */
    private static String rowNote(Point p) {
        String times = p.remeasured() == 0 ? "" : "measured " + (p.remeasured() + 1) + " times";
        if (p.disturbed()) return "  DISTURBED" + (times.isEmpty() ? "" : ", " + times);
        return times.isEmpty() ? "" : "  " + times + ", the last undisturbed";
    }

    /**
     * The note naming the sizes kept with most samples disturbed (the run's notes carry it into
     * the JSON), or null.
     */
    public static String disturbedNote(Result r) {
        List<String> sizes = r.points().stream().filter(Point::disturbed)
                .map(p -> PingPongReport.human(p.sizeBytes()) + " (" + p.disturbedSamples() + " of " + p.loopNs().length
                        + " samples, measured " + (p.remeasured() + 1) + (p.remeasured() == 0 ? " time)" : " times)"))
                .toList();
        return sizes.isEmpty() ? null : "DISTURBED " + String.join(", ", sizes) + ": in most samples some rank waited for a"
                + " CPU (other work on these CPUs, or more ranks than CPUs); T_b may read high";
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
        return ResultJson.write(document(c));
    }

    /** The typed document (schema fabprobe.multipair/2). */
    public static MultiPairDocument document(Context c) {
        var run = c.run();
        Result r = c.result();
        List<MultiPairDocument.Size> sizes = new ArrayList<>();
        for (Point p : r.points()) {
            Double model = fitted(c, p) ? c.fit().get().model().aggregatedBandwidth(p.sizeBytes(), p.reps()) * 1e3 : null;
            sizes.add(new MultiPairDocument.Size(p.sizeBytes(), p.reps(), p.loopNs().length,
                    new MultiPairDocument.LoopNs(p.minLoopNs(), p.medianLoopNs(), p.maxLoopNs()), p.loopNs(), p.pairLoopNs(),
                    aggregatedMBs(p, r.pairs()), fitted(c, p), model, p.disturbedSamples(), p.remeasured()));
        }
        MultiPairDocument.Model model = c.fit().map(f -> new MultiPairDocument.Model(f.fromBytes(), f.toBytes(), f.points(),
                f.chunkBytes(), f.chunkErrBytes(), f.chunkResolved(), f.rawMBs(), f.rawErrMBs(), f.t1Ns(), f.t1ErrNs(),
                f.rmsRelResidual(), "one standard error (covariance of the Levenberg-Marquardt fit, scaled by the residual variance)"))
                .orElse(null);
        return new MultiPairDocument(run.header(MultiPairDocument.SCHEMA, c.wallSeconds()), r.pairs(),
                r.timerOverheadNs(), r.jitWarmupMs(), sizes, model,
                r.sharedCpus() == null ? List.of() : r.sharedCpus(), c.notes());
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
