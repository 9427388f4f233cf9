package org.fabprobe.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.fabprobe.api.RunFacts;
import org.fabprobe.method.CollectivesMethod.Operation;
import org.fabprobe.method.CollectivesMethod.Point;
import org.fabprobe.method.CollectivesMethod.Result;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.HockneyFit;
import org.fabprobe.model.HockneyFitter;
import org.fabprobe.model.Summary;
import org.fabprobe.result.CollectivesDocument;
import org.fabprobe.result.HockneyRange;
import org.fabprobe.result.ResultJson;
import org.fabprobe.result.SharedCpus;

/**
 * MPI collectives (Santos et al.): per operation and number of processes p the Hockney fit
 * t(n, p) = t0(p) + n / r_inf(p), n_1/2 = t0 r_inf, of the median per-repetition maximum over
 * ranks; barrier has no message and gets t0 alone (its median). Terminal table (µs), JSON
 * (schema fabprobe.collectives/2, ns) and CSV (one row per operation, p and size).
 * Also the per-p "part" document a rank 0 hands to the command that launched it.
 */
public final class CollectivesReport {
    public static final String SCHEMA = CollectivesDocument.SCHEMA;

    private CollectivesReport() {}

    /** Run facts, the results for every p (in order), wall time and notes for the reader. */
    public record Context(RunFacts<CollectivesDocument.Settings> run, List<Result> results, double wallSeconds, List<String> notes) {}

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

    /** The notes of the run, and per operation and p the sizes left out of the fit (see HockneyFitter). */
    static List<String> notes(Context c) {
        List<String> notes = new ArrayList<>(c.notes());
        for (Operation op : operations(c)) {
            for (Result r : c.results()) {
                List<Point> ps = points(r, op).stream().filter(p -> p.sizeBytes() > 0).toList();
                String leftOut = HockneyFitter.leftOutNote(ps.stream().mapToLong(Point::sizeBytes).toArray(),
                        ps.stream().mapToDouble(p -> p.median().value()).toArray(), fits(r, op));
                if (leftOut != null) notes.add(op.id + " at p = " + r.procs() + ": " + leftOut);
                List<String> disturbed = points(r, op).stream().filter(p -> p.disturbedBatches() > 0)
                        .map(p -> PingPongReport.human(p.sizeBytes()) + " (" + p.disturbedBatches()
                                + (p.disturbedBatches() == 1 ? " batch)" : " batches)")).toList();
                if (!disturbed.isEmpty()) {
                    notes.add("DISTURBED " + op.id + " at p = " + r.procs() + ": " + String.join(", ", disturbed)
                            + " kept batches in which some rank waited for a CPU (other work on these CPUs, or more ranks"
                            + " than CPUs); their times may read high");
                }
            }
        }
        return notes;
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
        var run = c.run();
        StringBuilder b = new StringBuilder();
        String library = run.transportFacts().getOrDefault("library", "");
        b.append(String.format(Locale.ROOT, "fabprobe collectives  transport %s%s  clock %s  host %s%s%n", run.transport(),
                library.isEmpty() ? "" : " (" + library + ")", run.clock().source(), run.host().hostname(),
                MatrixReport.firstLineNote(sharedCpus(c))));
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
        String shared = SharedCpus.flag(sharedCpus(c));
        if (shared != null) b.append("flag: ").append(shared).append('\n');
        for (String note : notes(c)) b.append("note: ").append(note).append('\n');
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

    public static CollectivesDocument document(Context c) {
        var run = c.run();
        List<CollectivesDocument.Operation> operations = new ArrayList<>();
        for (Operation op : operations(c)) {
            operations.add(new CollectivesDocument.Operation(op.id, op.messageLength, op.aggregateFactorName()));
        }
        List<CollectivesDocument.Run> runs = new ArrayList<>();
        for (Result r : c.results()) runs.add(new CollectivesDocument.Run(r.procs(), r.timerOverheadNs(), r.jitWarmupMs()));
        List<CollectivesDocument.Result> results = new ArrayList<>();
        for (Operation op : operations(c)) {
            for (Result r : c.results()) {
                List<Point> ps = points(r, op);
                if (ps.isEmpty()) continue;
                List<CollectivesDocument.Point> sizes = ps.stream().map(CollectivesReport::point).toList();
                List<HockneyRange> fits = fits(r, op).stream()
                        .map(f -> HockneyRange.of(f, f.rInfMBs() * op.aggregateFactor(r.procs()))).toList();
                boolean barrier = op == Operation.BARRIER;
                results.add(new CollectivesDocument.Result(op.id, r.procs(), sizes, fits,
                        barrier ? ps.getFirst().median().value() : null, barrier ? ps.getFirst().median().ci95() : null));
            }
        }
        return new CollectivesDocument(run.header(CollectivesDocument.SCHEMA, c.wallSeconds()), operations, runs, results,
                sharedCpus(c), notes(c));
    }

    /** The hosts whose ranks shared CPUs, over every launch (each entry names its launch's p as {@code world}). */
    static List<SharedCpus> sharedCpus(Context c) {
        return c.results().stream().filter(r -> r.sharedCpus() != null).flatMap(r -> r.sharedCpus().stream()).toList();
    }

    private static CollectivesDocument.Point point(Point p) {
        return new CollectivesDocument.Point(p.sizeBytes(), p.summary(), p.median().ci95(), p.converged(), p.wallMs(),
                p.disturbedBatches(), p.discardedBatches());
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
        List<CollectivesDocument.PartPoint> points = new ArrayList<>();
        for (Point p : r.points()) {
            points.add(new CollectivesDocument.PartPoint(p.operation().id, p.sizeBytes(), p.summary(), p.median().value(),
                    p.median().ci95(), p.converged(), p.wallMs(), p.disturbedBatches(), p.discardedBatches()));
        }
        return ResultJson.write(new CollectivesDocument.Part(r.procs(), r.transportFacts(), r.timerOverheadNs(),
                r.jitWarmupMs(), points, r.sharedCpus()));
    }

    public static Result parsePart(String text) {
        CollectivesDocument.Part part = ResultJson.read(text, CollectivesDocument.Part.class);
        List<Point> points = new ArrayList<>();
        for (CollectivesDocument.PartPoint m : part.points()) {
            points.add(new Point(Operation.of(m.operation()), m.sizeBytes(), m.timeNs(),
                    new Estimate(m.medianNs(), m.medianCi95Ns()), m.converged(), m.wallMs(), m.disturbedBatches(),
                    m.discardedBatches()));
        }
        return new Result(part.procs(), part.transportFacts(), part.timerOverheadNs(), part.jitWarmupMs(), points,
                part.sharedCpus() == null ? List.of() : part.sharedCpus());
    }
}
