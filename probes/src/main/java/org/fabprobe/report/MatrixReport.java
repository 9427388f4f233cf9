package org.fabprobe.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.fabprobe.api.RunFacts;
import org.fabprobe.method.MatrixMethod;
import org.fabprobe.method.MatrixReduction;
import org.fabprobe.method.RoundRobin;
import org.fabprobe.model.Robust;
import org.fabprobe.result.MatrixDocument;
import org.fabprobe.result.MatrixDocument.Estimate;
import org.fabprobe.result.MatrixDocument.Group;
import org.fabprobe.result.MatrixDocument.Outlier;
import org.fabprobe.result.MatrixDocument.OutlierRule;
import org.fabprobe.result.MatrixDocument.Pair;
import org.fabprobe.result.MatrixDocument.Summary;
import org.fabprobe.result.MatrixDocument.Timing;
import org.fabprobe.result.ResultJson;
import org.fabprobe.result.SharedCpus;

/**
 * The all-pairs matrix: from rank 0's figures to the typed document (per rank, per host,
 * outliers, the cost model), and from the document to the table, JSON and CSV.
 */
public final class MatrixReport {
    /** Matrices up to this many ranks are printed in full; larger ones go to --csv. */
    static final int PRINTED_RANKS = 32;
    /**
     * What rank 0 holds per rank, counted, not measured: its row's pair (88 B), the rank's host
     * name (about 60 B), its per-rank figures gathered and kept (about 150 B), the round times
     * (32 B) and the document's text of that rank (per_rank, rank_hosts, round_ms: about 300 B,
     * held twice while written). docs/matrix-scaling.md checks it against measured runs.
     */
    static final long RANK0_BYTES_PER_RANK = 1024;
    /** One --csv row of a ping-pong pair: 100 B measured with short host names, room for long ones. */
    static final long CSV_BYTES_PER_PAIR = 140;
    /** The model's cost of one pair's figures arriving at rank 0 (an eager MPI message): assumed, not measured. */
    static final double FIGURES_RECEIVE_MS = 0.001;
    private static final int[] ESTIMATED_RANKS = {1_000, 10_000, 100_000};

    private MatrixReport() {}

    /** The document of a run: rank 0's own figures and what {@link MatrixReduction} reduced. */
    public static MatrixDocument document(RunFacts<MatrixDocument.Settings> run, MatrixMethod.Result r, MatrixReduction.Reduced reduced,
                                          double k, double minRatio, double wallSeconds, Long peakRssBytes, List<SharedCpus> sharedCpus,
                                          List<String> notes) {
        int n = r.ranks();
        List<Pair> pairs = new ArrayList<>(reduced.pairs());
        pairs.sort((x, y) -> x.a() != y.a() ? Integer.compare(x.a(), y.a()) : Integer.compare(x.b(), y.b()));
        OutlierRule rule = new OutlierRule(k, minRatio, String.format(Locale.ROOT, "worse than the median of its kind by more"
                + " than %s x 1.4826 MAD and by more than a factor %s (latency above, bandwidth below); pairs on one host and"
                + " pairs between hosts are separate kinds; fewer than 3 of a kind have no outliers; a pair of a rank named"
                + " for the same quantity is not named again", num(k), num(minRatio)));
        List<String> allNotes = new ArrayList<>(notes);
        long listedPairs = reduced.outliers().stream().filter(o -> o.kind().equals("pair")).map(Outlier::name).distinct().count();
        if (listedPairs < reduced.outlierPairs()) {
            allNotes.add(reduced.outlierPairs() + " pairs are outliers; " + listedPairs + " of them are listed");
        }
        Timing timing = timing(r, reduced.pairMsMedian(), peakRssBytes);
        List<Estimate> estimates = new ArrayList<>();
        for (MatrixMethod.Mode mode : MatrixMethod.Mode.values()) {
            for (int ranks : ESTIMATED_RANKS) estimates.add(estimate(ranks, n, r.settings().mode(), mode, timing));
        }
        return new MatrixDocument(run.header(MatrixDocument.SCHEMA, wallSeconds), r.settings().mode().label(), n, RoundRobin.rounds(n),
                r.settings().latencyBytes(), r.settings().bandwidthBytes(), r.hosts(), n <= MatrixReduction.listedRanks(), pairs,
                reduced.perRank(), reduced.perHost(), reduced.summary(), rule, reduced.outliers(), timing, estimates,
                List.copyOf(sharedCpus), List.copyOf(allNotes));
    }

    // ---- the cost model -------------------------------------------------------------------

    /**
     * The model's inputs, from the rounds after the first (the first carries the JIT warm-up and
     * the transports' first contacts) when there are any.
     */
    private static Timing timing(MatrixMethod.Result r, double pairMedian, Long peakRssBytes) {
        int rounds = r.roundMs().length;
        int from = rounds > 1 ? 1 : 0;
        int n = r.ranks();
        double[] slowest = r.roundSlowestMs(), sum = r.roundPairsMs();
        boolean serial = r.settings().mode() == MatrixMethod.Mode.SERIAL;
        double[] over = new double[rounds - from];
        for (int i = from; i < rounds; i++) {
            // serial: the rounds' time beyond their pairs', per pair; parallel: beyond the slowest pair's
            over[i - from] = serial ? Math.max(0, r.roundMs()[i] - sum[i]) / Math.max(1, RoundRobin.pairs(n, i).length)
                    : Math.max(0, r.roundMs()[i] - slowest[i]);
        }
        double overhead = Robust.median(over);
        String model = "serial: T(N) = N(N-1)/2 x (pair_ms_median + 2 step), parallel: T(N) = R(N) x (slowest_pair_ms_median"
                + " + ceil(log2 N) step + N/2 x " + num(FIGURES_RECEIVE_MS * 1e3) + " us), R(N) = N - 1 (N even), N + 1 (odd);"
                + " step = one control message: measured in " + (serial ? "serial mode as overhead_ms / 2 (overhead_ms per pair ="
                + " a round's time beyond its pairs' own, per pair: GO and the figures)" : "parallel mode as overhead_ms /"
                + " ceil(log2 n) (overhead_ms per round = a round's time beyond its slowest pair: the dissemination barrier)")
                + ", median over the rounds after the first; the other mode's pair times are this mode's (serial pairs are"
                + " alone, parallel pairs share the fabric: the bisection decides how far that holds); the figures' receive at"
                + " rank 0 is assumed, not measured";
        double[] slowestAfterFirst = Arrays.copyOfRange(slowest, from, rounds);
        return new Timing(r.wallMs(), Arrays.stream(r.roundMs()).boxed().toList(), pairMedian, Robust.median(slowestAfterFirst),
                overhead, r.addressBytes(), peakRssBytes, model);
    }

    /** This run's model (measured in {@code measuredMode} with {@code measuredRanks}) at {@code ranks} ranks in {@code mode}. */
    static Estimate estimate(int ranks, int measuredRanks, MatrixMethod.Mode measuredMode, MatrixMethod.Mode mode, Timing t) {
        long pairs = RoundRobin.pairCount(ranks);
        int rounds = RoundRobin.rounds(ranks);
        double step = measuredMode == MatrixMethod.Mode.SERIAL ? t.overheadMs() / 2 : t.overheadMs() / Math.max(1, log2(measuredRanks));
        double ms = mode == MatrixMethod.Mode.SERIAL ? pairs * (t.pairMsMedian() + 2 * step)
                : rounds * (t.slowestPairMsMedian() + step * log2(ranks) + ranks / 2.0 * FIGURES_RECEIVE_MS);
        return new Estimate(mode.label(), ranks, pairs, rounds, ms / 1e3, (long) ranks * RANK0_BYTES_PER_RANK,
                pairs * CSV_BYTES_PER_PAIR, (long) ranks * t.addressBytes());
    }

    private static double log2(int n) {
        return Math.ceil(Math.log(n) / Math.log(2));
    }

    // ---- table ----------------------------------------------------------------------------

    public static String table(MatrixDocument d) {
        StringBuilder b = new StringBuilder();
        String library = d.transportFacts().getOrDefault("library", "");
        long hostCount = d.perHost().size();
        b.append(String.format(Locale.ROOT, "fabprobe matrix  transport %s%s  %d ranks on %d host%s  mode %s  %d round%s, %d pair%s"
                        + "  clock %s  host %s%s%n", d.transport(), library.isEmpty() ? "" : " (" + library + ")", d.ranks(), hostCount,
                hostCount == 1 ? "" : "s", d.mode(), d.rounds(), d.rounds() == 1 ? "" : "s", d.pairs().size(),
                d.pairs().size() == 1 ? "" : "s", d.clock().source(), d.host().hostname(), firstLineNote(d.sharedCpus())));
        if (d.ranks() <= PRINTED_RANKS) {
            b.append(String.format(Locale.ROOT, "latency: median half round trip at %s, µs (row: lower rank, column: higher)%n",
                    PingPongReport.human(d.latencyBytes())));
            matrix(b, d, Pair::latencyNs, 1e-3, "%.2f");
            b.append(String.format(Locale.ROOT, "bandwidth at %s, MB/s (size / median half round trip)%n",
                    PingPongReport.human(d.bandwidthBytes())));
            matrix(b, d, Pair::bandwidthMbS, 1, "%.0f");
        } else {
            b.append("(the matrices of ").append(d.ranks()).append(" ranks are in --csv and --json)\n");
        }
        b.append(String.format(Locale.ROOT, "%-20s %6s %6s %12s %12s %14s %14s%n", "per host", "ranks", "pairs", "latency µs",
                "worst µs", "bandwidth MB/s", "worst MB/s"));
        for (Group g : d.perHost()) group(b, g);
        if (d.ranks() <= PRINTED_RANKS) {
            b.append(String.format(Locale.ROOT, "%-20s %6s %6s %12s %12s %14s %14s%n", "per rank", "ranks", "pairs", "latency µs",
                    "worst µs", "bandwidth MB/s", "worst MB/s"));
            for (Group g : d.perRank()) group(b, g);
        }
        if (d.pairs().stream().anyMatch(p -> p.loggp() != null)) logGPTable(b, d);
        Summary s = d.summary();
        b.append(String.format(Locale.ROOT, "all pairs: latency median %.2f µs (MAD %.3f), worst %.2f µs = %.2f x median;"
                        + " bandwidth median %.0f MB/s (MAD %.0f), worst %.0f MB/s = median / %.2f%n", s.latencyMedianNs() / 1e3,
                s.latencyMadNs() / 1e3, s.latencyWorstNs() / 1e3, s.latencyWorstRatio(), s.bandwidthMedianMbS(),
                s.bandwidthMadMbS(), s.bandwidthWorstMbS(), s.bandwidthWorstRatio()));
        String shared = SharedCpus.flag(d.sharedCpus());
        if (shared != null) b.append("flag: ").append(shared).append('\n');
        b.append(String.format(Locale.ROOT, "outliers (worse than the median by > %s x 1.4826 MAD and by > x%s):%s%n",
                num(d.outlierRule().k()), num(d.outlierRule().minRatio()), d.outliers().isEmpty() ? " none" : ""));
        for (Outlier o : d.outliers()) {
            boolean latency = o.quantity().equals("latency");
            b.append(String.format(Locale.ROOT, "  %-4s %-16s %-9s %10s %s = %.2f x the median %s (%s MADs)%n", o.kind(), o.name(),
                    o.quantity(), latency ? String.format(Locale.ROOT, "%.2f", o.value() / 1e3) : String.format(Locale.ROOT, "%.0f", o.value()),
                    latency ? "µs" : "MB/s", o.ratio(),
                    latency ? String.format(Locale.ROOT, "%.2f µs", o.median() / 1e3) : String.format(Locale.ROOT, "%.0f MB/s", o.median()),
                    Double.isFinite(o.deviationMads()) ? String.format(Locale.ROOT, "%.0f", o.deviationMads()) : "inf"));
        }
        Timing t = d.timing();
        b.append(String.format(Locale.ROOT, "cost: schedule %.0f ms, median pair %.1f ms, overhead %.2f ms per %s%n", t.scheduleMs(),
                t.pairMsMedian(), t.overheadMs(), d.mode().equals("serial") ? "pair" : "round"));
        for (Estimate e : d.estimates()) {
            b.append(String.format(Locale.ROOT, "estimate %-8s %,7d ranks, %,13d pairs in %,6d rounds: %9s; rank 0 holds %s of"
                            + " figures, every rank %s of addresses; --csv %s%n", e.mode(), e.ranks(), e.pairs(), e.rounds(),
                    duration(e.seconds()), bytes(e.rankBytes()), bytes(e.addressTableBytes()), bytes(e.csvBytes())));
        }
        if (d.summary().disturbedPairs() > 0) {
            int disturbed = d.summary().disturbedPairs();
            b.append("note: ").append(disturbed).append(disturbed == 1 ? " pair stayed" : " pairs stayed").append(" disturbed after the retries (their timing"
                    + " threads were preempted, or the emulator missed deadlines, in more than 10 % of their round trips): their"
                    + " figures include the scheduler\n");
        }
        for (String note : d.notes()) b.append("note: ").append(note).append('\n');
        b.append(String.format(Locale.ROOT, "wall time %.2f s%n", d.wallSeconds()));
        return b.toString();
    }

    /** Two spaces and the statement of shared CPUs, for the end of a first line; empty when no host shares them. */
    static String firstLineNote(List<SharedCpus> sharedCpus) {
        String s = SharedCpus.statement(sharedCpus);
        return s.isEmpty() ? "" : "  " + s;
    }

    /** --method plogp: every pair's LogGP set (first size range), then the median and spread over the pairs. */
    private static void logGPTable(StringBuilder b, MatrixDocument d) {
        b.append("LogGP per pair (pLogP, Table 1, first size range), µs and ns/B:\n");
        String header = String.format(Locale.ROOT, "%-9s %-16s %9s %9s %9s %9s %9s %6s%n", "pair", "range", "L", "o_s", "o_r", "g",
                "G", "flags");
        b.append(header);
        List<double[]> all = new ArrayList<>();
        for (Pair p : d.pairs()) {
            MatrixDocument.LogGP l = p.loggp();
            if (l == null) continue;
            double[] v = {l.latencyNs() / 1e3, l.sendOverheadNs() / 1e3, l.recvOverheadNs() / 1e3, l.gapNs() / 1e3, l.gapPerByteNs()};
            all.add(v);
            if (d.ranks() <= PRINTED_RANKS) {
                b.append(String.format(Locale.ROOT, "%-9s %-16s %9s %9.3f %9.3f %9.3f %9.4f %6d%n", p.a() + "-" + p.b(),
                        PingPongReport.human(l.fromBytes()) + ".." + PingPongReport.human(l.toBytes()), latency(v[0]), v[1], v[2], v[3], v[4],
                        l.flags()));
            }
        }
        double[] median = new double[5];
        String[] range = new String[5];
        for (int i = 0; i < 5; i++) {
            final int q = i;
            double[] values = all.stream().mapToDouble(v -> v[q]).sorted().toArray();
            median[i] = Robust.median(values);
            range[i] = i == 0 && values[0] < 0 ? "overlap" : String.format(Locale.ROOT, "%.2f..%.2f", values[0], values[values.length - 1]);
        }
        b.append(String.format(Locale.ROOT, "%-26s %9s %9.3f %9.3f %9.3f %9.4f%n", "median of the pairs", latency(median[0]), median[1], median[2],
                median[3], median[4]));
        b.append(String.format(Locale.ROOT, "%-26s %9s %9s %9s %9s %9s%n", "lowest..highest", range[0], range[1], range[2], range[3],
                range[4]));
        double[] l = all.stream().mapToDouble(v -> v[0]).sorted().toArray();
        if (l.length > 0 && l[0] < 0) {
            // Table 1's L < 0 is no latency: the overheads hold the transfer (docs/methods.md)
            b.append(String.format(Locale.ROOT, "L \"overlap\": the send overhead carries the transfer (o_s + o_r > RTT/2"
                    + " by up to %.3f µs); L over the pairs reads %.3f..%.3f µs in the JSON%n", -l[0], l[0], l[l.length - 1]));
        }
    }

    /** A pair's L, µs, or "overlap" where it is negative (the send overhead carries the transfer). */
    private static String latency(double us) {
        return us < 0 ? "overlap" : String.format(Locale.ROOT, "%.3f", us);
    }

    private static void matrix(StringBuilder b, MatrixDocument d, java.util.function.ToDoubleFunction<Pair> value, double scale,
                               String format) {
        int n = d.ranks();
        double[][] m = new double[n][n];
        for (double[] row : m) Arrays.fill(row, Double.NaN);
        for (Pair p : d.pairs()) m[p.a()][p.b()] = m[p.b()][p.a()] = value.applyAsDouble(p) * scale;
        b.append(String.format(Locale.ROOT, "%5s", ""));
        for (int c = 0; c < n; c++) b.append(String.format(Locale.ROOT, " %8d", c));
        b.append('\n');
        for (int r = 0; r < n; r++) {
            b.append(String.format(Locale.ROOT, "%5d", r));
            for (int c = 0; c < n; c++) {
                b.append(' ').append(r == c ? String.format(Locale.ROOT, "%8s", "-")
                        : String.format(Locale.ROOT, "%8s", String.format(Locale.ROOT, format, m[r][c])));
            }
            b.append('\n');
        }
    }

    private static void group(StringBuilder b, Group g) {
        b.append(String.format(Locale.ROOT, "%-20s %6d %6d %12.2f %12.2f %14.0f %14.0f%n", g.name(), g.ranks(), g.pairs(),
                g.latencyNs() / 1e3, g.worstLatencyNs() / 1e3, g.bandwidthMbS(), g.worstBandwidthMbS()));
    }

    static String duration(double seconds) {
        if (seconds < 120) return String.format(Locale.ROOT, "%.1f s", seconds);
        if (seconds < 2 * 3600) return String.format(Locale.ROOT, "%.1f min", seconds / 60);
        if (seconds < 2 * 86400) return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
        return String.format(Locale.ROOT, "%.1f days", seconds / 86400);
    }

    static String bytes(long b) {
        if (b < 1L << 20) return String.format(Locale.ROOT, "%.0f KiB", b / 1024.0);
        if (b < 1L << 30) return String.format(Locale.ROOT, "%.0f MiB", b / (double) (1L << 20));
        if (b < 1L << 40) return String.format(Locale.ROOT, "%.1f GiB", b / (double) (1L << 30));
        return String.format(Locale.ROOT, "%.1f TiB", b / (double) (1L << 40));
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }

    // ---- JSON and CSV ---------------------------------------------------------------------

    public static String json(MatrixDocument d) {
        return ResultJson.write(d);
    }

    /** One row per pair. */
    public static String csv(MatrixDocument d) {
        StringBuilder b = new StringBuilder(CSV_HEADER);
        for (Pair p : d.pairs()) b.append(csvRow(p));
        return b.toString();
    }

    /** The first line of --csv. */
    public static final String CSV_HEADER = "a,b,host_a,host_b,same_host,round,latency_ns,latency_min_ns,bandwidth_mb_s,pair_ms,"
            + "missed_deadlines,disturbed,attempts,loggp_from_bytes,loggp_to_bytes,loggp_latency_ns,loggp_send_overhead_ns,"
            + "loggp_recv_overhead_ns,loggp_gap_ns,loggp_gap_per_byte_ns,loggp_flags\n";

    /**
     * One pair's --csv line. Latency and bandwidth in full (the shortest text that reads back as
     * the same double), so that the summary can be computed again from the file.
     */
    public static String csvRow(Pair p) {
        StringBuilder b = new StringBuilder(160);
        b.append(p.a()).append(',').append(p.b()).append(',').append(csvText(p.hostA())).append(',').append(csvText(p.hostB()))
                .append(',').append(p.sameHost()).append(',').append(p.round()).append(',').append(exact(p.latencyNs()))
                .append(',').append(exact(p.latencyMinNs())).append(',').append(exact(p.bandwidthMbS()))
                .append(String.format(Locale.ROOT, ",%.3f,", p.pairMs()))
                .append(p.missedDeadlines()).append(',').append(p.disturbed()).append(',').append(p.attempts());
        MatrixDocument.LogGP l = p.loggp();
        if (l == null) b.append(",,,,,,,,");
        else b.append(String.format(Locale.ROOT, ",%d,%d,%.1f,%.1f,%.1f,%.1f,%.5f,%d", l.fromBytes(), l.toBytes(), l.latencyNs(),
                l.sendOverheadNs(), l.recvOverheadNs(), l.gapNs(), l.gapPerByteNs(), l.flags()));
        return b.append('\n').toString();
    }

    private static String exact(double v) {
        return Double.isFinite(v) ? new java.math.BigDecimal(Double.toString(v)).toPlainString() : "";
    }

    private static String csvText(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
