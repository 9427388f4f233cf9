package org.fabprobe.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.fabprobe.model.Drift;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.HockneyFit;
import org.fabprobe.model.HockneyFitter;
import org.fabprobe.model.MedianCi;
import org.fabprobe.model.Robust;
import org.fabprobe.model.Segments;
import org.fabprobe.model.Summary;
import org.fabprobe.result.HockneyRange;
import org.fabprobe.result.PingPongDocument;
import org.fabprobe.result.Stats;

/**
 * A ping-pong sweep as a terminal table, a JSON document and CSV. Times are ns in JSON and CSV,
 * µs in the table. Values that do not exist (NaN, e.g. the spread of a single sample) are null
 * in JSON and empty in CSV; an infinite r_inf (a flat size range, see HockneyFitter) is null in
 * JSON, with n_half_bytes and r_inf_err_mb_s null too.
 */
public final class PingPongReport {
    private PingPongReport() {}

    public static String table(PingPongResult r) {
        RunFacts run = r.run();
        StringBuilder b = new StringBuilder();
        String library = run.transportFacts().getOrDefault("library", "");
        String congestionControl = run.transportFacts().get("tcp_congestion_control"); // paces the large sizes
        if (congestionControl != null) library += (library.isEmpty() ? "" : ", ") + "tcp " + congestionControl;
        String clock = run.clock().source() + (run.clock().fallbackReason().isEmpty() ? ""
                : " (" + run.clock().fallbackReason() + ")");
        b.append(String.format(Locale.ROOT, "fabprobe pingpong  transport %s%s  clock %s  host %s%n", run.transport(),
                library.isEmpty() ? "" : " (" + library + ")", clock, run.host().hostname()));
        b.append(String.format(Locale.ROOT, "%10s %7s %11s %11s %11s %12s %8s%n", "size", "reps", "min µs",
                "median µs", "p99 µs", "MB/s", "outliers"));
        for (SizePoint p : r.points()) {
            Summary s = p.halfRttNs();
            b.append(String.format(Locale.ROOT, "%10s %7d %11.3f %11.3f %11.3f %12.1f %8d%n", human(p.sizeBytes()),
                    s.count(), s.min() / 1e3, s.median() / 1e3, s.p99() / 1e3, p.bandwidthMBs(), s.outliers()));
        }
        b.append("half round-trip times; MB/s = size / median.\n");
        if (r.fits().isEmpty()) {
            b.append("Hockney fit: needs at least 3 sizes.\n");
        } else {
            b.append("Hockney fit t(n) = t0 + n / r_inf per size range:\n");
            b.append(String.format(Locale.ROOT, "  %-21s %19s %21s %12s %8s%n", "range", "t0 µs", "r_inf MB/s",
                    "n_1/2 B", "rms"));
            for (HockneyFit f : r.fits()) {
                String range = human(f.fromBytes()) + " .. " + human(f.toBytes());
                String t0 = String.format(Locale.ROOT, "%.3f ± %.3f", f.t0Ns() / 1e3, f.t0ErrNs() / 1e3);
                boolean flat = Double.isInfinite(f.rInfMBs());
                String rInf = flat ? "∞ (flat)"
                        : String.format(Locale.ROOT, "%.0f ± %.0f", f.rInfMBs(), f.rInfErrMBs());
                String nHalf = flat ? "∞" : String.format(Locale.ROOT, "%.0f", f.nHalfBytes());
                b.append(String.format(Locale.ROOT, "  %-21s %19s %21s %12s %7.2f%%%n", range, t0, rInf, nHalf,
                        f.rmsRelResidual() * 100));
            }
        }
        for (String flag : flags(r)) b.append("flag: ").append(flag).append('\n');
        b.append(String.format(Locale.ROOT, "wall time %.2f s%n", r.wallSeconds()));
        return b.toString();
    }

    /** Ranges the line fits poorly, and sizes left out of the fit: never printed as if fine. */
    static List<String> flags(PingPongResult r) {
        List<String> flags = new ArrayList<>();
        String leftOut = HockneyFitter.leftOutNote(r.points().stream().mapToLong(SizePoint::sizeBytes).toArray(),
                r.points().stream().mapToDouble(p -> p.halfRttNs().median()).toArray(), r.fits());
        if (leftOut != null) flags.add(leftOut);
        if (r.driftFlag() != null) flags.add(r.driftFlag());
        if (r.disturbedFlag() != null) flags.add(r.disturbedFlag());
        for (HockneyFit f : r.fits()) {
            if (f.rmsRelResidual() > Segments.POOR_FIT) {
                flags.add(String.format(Locale.ROOT, "POOR FIT %s .. %s: t0 + n / r_inf misses by %.1f %% rms (a step or"
                        + " curve inside the range, or noise)", human(f.fromBytes()), human(f.toBytes()),
                        100 * f.rmsRelResidual()));
            }
        }
        return flags;
    }

    /**
     * The sizes whose sentinel before or after (0 B round trips, see PingPong) left the run's
     * reference, the median of all sentinels: a flag naming them, or null.
     *
     * @param sentinelNs sizes.length + 1 batches of 0 B half round trips, size i between i and i + 1
     */
    public static String driftFlag(long[] sizes, double[][] sentinelNs, double resolutionNs) {
        int n = sentinelNs.length;
        double[] medians = new double[n], cis = new double[n];
        for (int i = 0; i < n; i++) {
            Estimate e = MedianCi.of(sentinelNs[i], sentinelNs[i].length, resolutionNs);
            medians[i] = e.value();
            cis[i] = e.ci95();
        }
        double reference = Robust.median(medians), referenceCi = Robust.median(cis);
        List<String> drifted = new ArrayList<>();
        double furthest = reference;
        for (int i = 0; i < sizes.length && i + 1 < n; i++) {
            for (int s : new int[] {i, i + 1}) {
                if (Drift.moved(medians[s], cis[s], reference, referenceCi)) {
                    drifted.add(human(sizes[i]));
                    if (Math.abs(medians[s] - reference) > Math.abs(furthest - reference)) furthest = medians[s];
                    break;
                }
            }
        }
        if (drifted.isEmpty()) return null;
        return String.format(Locale.ROOT, "DRIFT %s: the 0 B half round trip measured beside %s read up to %.3f µs"
                + " instead of the run's %.3f µs (the host changed speed: other work, CPU frequency, or the hypervisor's"
                + " placement of the CPUs); their times and the ranges around them may be artefacts",
                String.join(", ", drifted), drifted.size() == 1 ? "it" : "them", furthest / 1e3, reference / 1e3);
    }

    /**
     * The sizes during which a timing thread waited for a CPU long enough to move their median
     * (or the emulator missed a deadline): a flag naming them and the wait, or null.
     */
    public static String disturbedFlag(long[] sizes, boolean[] disturbed, double[] cpuWaitMs) {
        List<String> named = new ArrayList<>();
        double waitMs = 0;
        for (int i = 0; i < sizes.length; i++) {
            if (!disturbed[i]) continue;
            named.add(human(sizes[i]));
            waitMs += Math.max(cpuWaitMs[i], 0);
        }
        if (named.isEmpty()) return null;
        return String.format(Locale.ROOT, "DISTURBED %s: the timing threads waited %.0f ms for a CPU while %s measured"
                + " (other work on these CPUs, or measure and mirror sharing one); %s times may be inflated",
                String.join(", ", named), waitMs, named.size() == 1 ? "it was" : "they were", named.size() == 1 ? "its" : "their");
    }

    public static PingPongDocument document(PingPongResult r) {
        RunFacts run = r.run();
        List<PingPongDocument.Size> sizes = new ArrayList<>();
        for (SizePoint p : r.points()) {
            Summary s = p.halfRttNs();
            sizes.add(new PingPongDocument.Size(p.sizeBytes(), s.count(), Stats.of(s), p.medianCi95Ns(), s.outliers(), p.bandwidthMBs(),
                    p.wallMs()));
        }
        return new PingPongDocument(PingPongDocument.SCHEMA, run.tool(), run.command(), run.transport(),
                run.transportFacts(), run.settings(), run.host(), run.mirrorHost(), run.clock(), run.startedAt(), r.wallSeconds(), sizes,
                r.fits().stream().map(HockneyRange::of).toList(), flags(r));
    }

    public static String csv(PingPongResult r) {
        StringBuilder b = new StringBuilder(
                "size_bytes,repetitions,min_ns,median_ns,p99_ns,mean_ns,stddev_ns,ci95_ns,outliers,bandwidth_mb_s\n");
        for (SizePoint p : r.points()) {
            Summary s = p.halfRttNs();
            b.append(p.sizeBytes()).append(',').append(s.count());
            for (double ns : new double[] {s.min(), s.median(), s.p99(), s.mean(), s.stddev(), s.ci95()}) {
                b.append(',').append(csvNumber("%.1f", ns));
            }
            b.append(',').append(s.outliers()).append(',').append(csvNumber("%.3f", p.bandwidthMBs())).append('\n');
        }
        return b.toString();
    }

    private static String csvNumber(String format, double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, format, value) : "";
    }

    /** Exact sizes in the largest binary unit that divides them: 0 B, 8 B, 4 KiB, 1 MiB, 1000 B. */
    static String human(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) return (bytes >> 30) + " GiB";
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) return (bytes >> 20) + " MiB";
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) return (bytes >> 10) + " KiB";
        return bytes + " B";
    }
}
