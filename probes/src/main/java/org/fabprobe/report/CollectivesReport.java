package org.fabprobe.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.fabprobe.method.CollectivesMethod.Operation;
import org.fabprobe.method.CollectivesMethod.Point;
import org.fabprobe.method.CollectivesMethod.Result;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.HockneyFit;
import org.fabprobe.model.HockneyFitter;
import org.fabprobe.model.Summary;

/**
 * MPI collectives (Santos et al.): per operation and number of processes p the Hockney fit
 * t(n, p) = t0(p) + n / r_inf(p), n_1/2 = t0 r_inf, of the median per-repetition maximum over
 * ranks; barrier has no message and gets t0 alone (its median). Terminal table (µs), JSON
 * (schema fabprobe.collectives/1, ns) and CSV (one row per operation, p and size).
 * Also the per-p "part" document a rank 0 hands to the command that launched it.
 */
public final class CollectivesReport {
    public static final String SCHEMA = "fabprobe.collectives/1";

    private CollectivesReport() {}

    /** Run facts, the results for every p (in order), wall time and notes for the reader. */
    public record Context(RunFacts run, List<Result> results, double wallSeconds, List<String> notes) {}

    /**
     * The fits of one operation at one p (empty for barrier and for fewer than 3 sizes). n = 0
     * is measured but not fitted: with no data an MPI may return at once (Open MPI's gather,
     * scatter, alltoall, reduce and scan do, in tens of ns), which says nothing about t0.
     */
    public static List<HockneyFit> fits(Result r, Operation op) {
        List<Point> points = points(r, op).stream().filter(p -> p.sizeBytes() > 0).toList();
        if (op == Operation.BARRIER) return List.of();
        long[] sizes = points.stream().mapToLong(Point::sizeBytes).toArray();
        double[] medians = points.stream().mapToDouble(p -> p.median().value()).toArray();
        return HockneyFitter.fit(sizes, medians);
    }

    private static List<Point> points(Result r, Operation op) {
        return r.points().stream().filter(p -> p.operation() == op).toList();
    }

    private static List<Operation> operations(Context c) {
        List<Operation> ops = new ArrayList<>();
        for (Result r : c.results()) for (Point p : r.points()) if (!ops.contains(p.operation())) ops.add(p.operation());
        return ops;
    }

    // ---- table ------------------------------------------------------------------------

    public static String table(Context c) {
        RunFacts run = c.run();
        StringBuilder b = new StringBuilder();
        String library = run.transportFacts().getOrDefault("library", "");
        b.append(String.format(Locale.ROOT, "fabprobe collectives  transport %s%s  clock %s  host %s%n", run.transport(),
                library.isEmpty() ? "" : " (" + library + ")", run.clock().source(), run.host().getOrDefault("hostname", "?")));
        b.append(String.format(Locale.ROOT, "%-10s %3s %-21s %19s %19s %12s %6s %7s%n", "operation", "p", "n range",
                "t0 µs", "r_inf MB/s", "n_1/2 B", "points", "rms"));
        int unconverged = 0, points = 0;
        for (Operation op : operations(c)) {
            for (Result r : c.results()) {
                List<Point> ps = points(r, op);
                if (ps.isEmpty()) continue;
                points += ps.size();
                unconverged += (int) ps.stream().filter(p -> !p.converged()).count();
                if (op == Operation.BARRIER) {
                    Estimate m = ps.getFirst().median();
                    b.append(String.format(Locale.ROOT, "%-10s %3d %-21s %19s %19s %12s %6d %7s%n", op.id, r.procs(), "-",
                            pm(m.value() / 1e3, m.ci95() / 1e3, "%.3f"), "-", "-", 1, "-"));
                    continue;
                }
                List<HockneyFit> fits = fits(r, op);
                if (fits.isEmpty()) {
                    b.append(String.format(Locale.ROOT, "%-10s %3d %-21s %s%n", op.id, r.procs(),
                            range(ps.getFirst().sizeBytes(), ps.getLast().sizeBytes()), "(a fit needs 3 sizes > 0)"));
                }
                for (HockneyFit f : fits) {
                    boolean flat = Double.isInfinite(f.rInfMBs());
                    b.append(String.format(Locale.ROOT, "%-10s %3d %-21s %19s %19s %12s %6d %6.2f%%%n", op.id, r.procs(),
                            range(f.fromBytes(), f.toBytes()), pm(f.t0Ns() / 1e3, f.t0ErrNs() / 1e3, "%.3f"),
                            flat ? "∞ (flat)" : pm(f.rInfMBs(), f.rInfErrMBs(), "%.0f"),
                            flat ? "∞" : String.format(Locale.ROOT, "%.0f", f.nHalfBytes()), f.points(),
                            f.rmsRelResidual() * 100));
                }
            }
        }
        b.append("t(n) = t0 + n / r_inf fitted to the median over repetitions of the maximum over ranks; t0 ± its\n"
                + "standard error (barrier: median ± 95 % CI). n per rank: bcast/scatter what the root sends to each,\n"
                + "gather/allgather what each contributes, alltoall what each sends to each, reduce/scan doubles;\n"
                + "n = 0 is measured (JSON, CSV) but not fitted: an MPI may return at once when there is no data.\n");
        if (unconverged > 0) {
            b.append(String.format(Locale.ROOT, "note: %d of %d sizes not within the confidence target (repetition or time cap)%n",
                    unconverged, points));
        }
        for (String note : c.notes()) b.append("note: ").append(note).append('\n');
        b.append(String.format(Locale.ROOT, "wall time %.2f s%n", c.wallSeconds()));
        return b.toString();
    }

    private static String pm(double value, double err, String format) {
        return Double.isFinite(err) ? String.format(Locale.ROOT, format + " ± " + format, value, err)
                : String.format(Locale.ROOT, format, value);
    }

    private static String range(long from, long to) {
        return from == to ? PingPongReport.human(from) : PingPongReport.human(from) + " .. " + PingPongReport.human(to);
    }

    // ---- JSON ---------------------------------------------------------------------------

    public static String json(Context c) {
        RunFacts run = c.run();
        List<Object> operations = new ArrayList<>();
        for (Operation op : operations(c)) {
            operations.add(Json.object("operation", op.id, "message_length", op.messageLength, "aggregate_factor",
                    op.aggregateFactorName()));
        }
        List<Object> runs = new ArrayList<>();
        List<Object> results = new ArrayList<>();
        for (Result r : c.results()) {
            runs.add(Json.object("procs", r.procs(), "timer_overhead_ns", r.timerOverheadNs(), "jit_warmup_ms", r.jitWarmupMs()));
        }
        for (Operation op : operations(c)) {
            for (Result r : c.results()) {
                List<Point> ps = points(r, op);
                if (ps.isEmpty()) continue;
                List<Object> sizes = new ArrayList<>();
                for (Point p : ps) sizes.add(point(p));
                List<Object> fits = new ArrayList<>();
                for (HockneyFit f : fits(r, op)) {
                    fits.add(Json.object("from_bytes", f.fromBytes(), "to_bytes", f.toBytes(), "points", f.points(),
                            "t0_ns", f.t0Ns(), "t0_err_ns", f.t0ErrNs(), "r_inf_mb_s", f.rInfMBs(),
                            "r_inf_err_mb_s", f.rInfErrMBs(), "n_half_bytes", f.nHalfBytes(),
                            "aggregate_r_inf_mb_s", f.rInfMBs() * op.aggregateFactor(r.procs()),
                            "rms_rel_residual", f.rmsRelResidual()));
                }
                Map<String, Object> result = Json.object("operation", op.id, "procs", r.procs(), "sizes", sizes, "hockney", fits);
                if (op == Operation.BARRIER) {
                    result.put("t0_ns", ps.getFirst().median().value());
                    result.put("t0_ci95_ns", ps.getFirst().median().ci95());
                }
                results.add(result);
            }
        }
        Map<String, Object> doc = Json.object("schema", SCHEMA, "tool", run.tool(), "command", run.command(),
                "transport", run.transport(), "transport_facts", run.transportFacts(), "settings", run.settings(),
                "host", run.host(), "mirror_host", run.mirrorHost(), "clock", Json.clock(run.clock()), "started_at", run.startedAt(),
                "wall_seconds", c.wallSeconds(), "operations", operations, "runs", runs, "results", results,
                "notes", c.notes());
        return Json.write(doc);
    }

    private static Map<String, Object> point(Point p) {
        Summary s = p.summary();
        return Json.object("size_bytes", p.sizeBytes(), "repetitions", s.count(),
                "time_ns", Json.object("min", s.min(), "median", s.median(), "p99", s.p99(), "mean", s.mean(),
                        "stddev", s.stddev(), "ci95", s.ci95()),
                "median_ci95_ns", p.median().ci95(), "outliers", s.outliers(), "converged", p.converged(),
                "wall_ms", p.wallMs());
    }

    // ---- CSV ----------------------------------------------------------------------------

    public static String csv(Context c) {
        StringBuilder b = new StringBuilder("operation,procs,size_bytes,repetitions,min_ns,median_ns,median_ci95_ns,"
                + "p99_ns,mean_ns,stddev_ns,outliers,converged\n");
        for (Operation op : operations(c)) {
            for (Result r : c.results()) {
                for (Point p : points(r, op)) {
                    Summary s = p.summary();
                    b.append(op.id).append(',').append(r.procs()).append(',').append(p.sizeBytes()).append(',').append(s.count());
                    for (double ns : new double[] {s.min(), s.median(), p.median().ci95(), s.p99(), s.mean(), s.stddev()}) {
                        b.append(',').append(Double.isFinite(ns) ? String.format(Locale.ROOT, "%.1f", ns) : "");
                    }
                    b.append(',').append(s.outliers()).append(',').append(p.converged()).append('\n');
                }
            }
        }
        return b.toString();
    }

    // ---- the part one launch of p ranks hands back ----------------------------------------

    public static String part(Result r) {
        List<Object> points = new ArrayList<>();
        for (Point p : r.points()) {
            Map<String, Object> m = point(p);
            m.put("operation", p.operation().id);
            m.put("median_ns", p.median().value());
            points.add(m);
        }
        return Json.write(Json.object("procs", r.procs(), "transport_facts", r.transportFacts(),
                "timer_overhead_ns", r.timerOverheadNs(), "jit_warmup_ms", r.jitWarmupMs(), "points", points));
    }

    @SuppressWarnings("unchecked")
    public static Result parsePart(String text) {
        Map<String, Object> doc = (Map<String, Object>) JsonReader.parse(text.strip());
        List<Point> points = new ArrayList<>();
        for (Object o : (List<Object>) doc.get("points")) {
            Map<String, Object> m = (Map<String, Object>) o;
            Map<String, Object> t = (Map<String, Object>) m.get("time_ns");
            Summary s = new Summary((int) number(m.get("repetitions")), number(t.get("min")), number(t.get("median")),
                    number(t.get("p99")), number(t.get("mean")), number(t.get("stddev")), number(t.get("ci95")),
                    (int) number(m.get("outliers")));
            points.add(new Point(Operation.of((String) m.get("operation")), (long) number(m.get("size_bytes")), s,
                    new Estimate(number(m.get("median_ns")), number(m.get("median_ci95_ns"))),
                    Boolean.TRUE.equals(m.get("converged")), number(m.get("wall_ms"))));
        }
        Map<String, String> facts = new LinkedHashMap<>();
        ((Map<String, Object>) doc.get("transport_facts")).forEach((k, v) -> facts.put(k, String.valueOf(v)));
        return new Result((int) number(doc.get("procs")), facts, number(doc.get("timer_overhead_ns")),
                number(doc.get("jit_warmup_ms")), points);
    }

    private static double number(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN; // null: NaN written as null
    }
}
