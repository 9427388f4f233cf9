package org.fabprobe.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.fabprobe.api.RunFacts;
import org.fabprobe.method.MatrixMethod;
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

/**
 * The all-pairs matrix: from rank 0's figures to the typed document (per rank, per host,
 * outliers, the cost model), and from the document to the table, JSON and CSV.
 */
public final class MatrixReport {
    /** Matrices up to this many ranks are printed in full; larger ones go to --csv. */
    static final int PRINTED_RANKS = 32;
    /** Rank 0 keeps one record per pair; with the list's share, about this many bytes each. */
    static final long BYTES_PER_PAIR = 96;
    /** The model's cost of one pair's figures arriving at rank 0 (an eager MPI message): assumed, not measured. */
    static final double FIGURES_RECEIVE_MS = 0.001;
    private static final int[] ESTIMATED_RANKS = {1_000, 10_000};

    private MatrixReport() {}

    /** The document of a run: rank 0's figures, analysed with {@code k} and {@code minRatio}. */
    public static MatrixDocument document(RunFacts<MatrixDocument.Settings> run, MatrixMethod.Result r, double k, double minRatio, double wallSeconds,
                                          List<String> notes) {
        int n = r.ranks();
        List<String> hosts = r.hosts();
        List<MatrixMethod.Pair> measured = new ArrayList<>(r.pairs());
        measured.sort((x, y) -> x.a() != y.a() ? Integer.compare(x.a(), y.a()) : Integer.compare(x.b(), y.b()));
        List<Pair> pairs = new ArrayList<>(measured.size());
        for (MatrixMethod.Pair p : measured) {
            String ha = hosts.get(p.a()), hb = hosts.get(p.b());
            pairs.add(new Pair(p.a(), p.b(), ha, hb, ha.equals(hb), p.round(), p.latencyNs(), p.latencyMinNs(),
                    p.bandwidthMBs(), p.pairMs(), p.missed(), p.disturbed(), p.attempts(), logGP(p.loggp())));
        }
        List<Outlier> outliers = new ArrayList<>();
        List<Group> perRank = perRank(n, pairs);
        addOutliers(outliers, "rank", perRank.stream().map(Group::name).toArray(String[]::new),
                perRank.stream().mapToDouble(Group::latencyNs).toArray(),
                perRank.stream().mapToDouble(Group::bandwidthMbS).toArray(), k, minRatio);
        List<Group> perHost = perHost(hosts, pairs);
        addOutliers(outliers, "host", perHost.stream().map(Group::name).toArray(String[]::new),
                perHost.stream().mapToDouble(Group::latencyNs).toArray(),
                perHost.stream().mapToDouble(Group::bandwidthMbS).toArray(), k, minRatio);
        // pairs are compared with pairs of their kind: on one host (shared memory) or between hosts;
        // a pair of a rank named for the same quantity is that rank's, and not named again
        List<Outlier> pairOutliers = new ArrayList<>();
        for (boolean same : new boolean[] {true, false}) {
            List<Pair> kind = pairs.stream().filter(p -> p.sameHost() == same).toList();
            String[] names = kind.stream().map(p -> p.a() + "-" + p.b()).toArray(String[]::new);
            addOutliers(pairOutliers, "pair", names, kind.stream().mapToDouble(Pair::latencyNs).toArray(),
                    kind.stream().mapToDouble(Pair::bandwidthMbS).toArray(), k, minRatio);
        }
        for (Outlier o : pairOutliers) {
            String[] ab = o.name().split("-");
            boolean ranksOwn = outliers.stream().anyMatch(x -> x.kind().equals("rank") && x.quantity().equals(o.quantity())
                    && (x.name().equals(ab[0]) || x.name().equals(ab[1])));
            if (!ranksOwn) outliers.add(o);
        }
        double[] lat = pairs.stream().mapToDouble(Pair::latencyNs).toArray();
        double[] bw = pairs.stream().mapToDouble(Pair::bandwidthMbS).toArray();
        double latMed = Robust.median(lat), bwMed = Robust.median(bw);
        double latWorst = Arrays.stream(lat).max().orElse(Double.NaN), bwWorst = Arrays.stream(bw).min().orElse(Double.NaN);
        Summary summary = new Summary(latMed, Robust.mad(lat), latWorst, latWorst / latMed, bwMed, Robust.mad(bw), bwWorst,
                bwMed / bwWorst, count(outliers, "pair"), count(outliers, "rank"), count(outliers, "host"),
                (int) pairs.stream().filter(Pair::disturbed).count());
        OutlierRule rule = new OutlierRule(k, minRatio, String.format(Locale.ROOT, "worse than the median of its kind by more"
                + " than %s x 1.4826 MAD and by more than a factor %s (latency above, bandwidth below); pairs on one host and"
                + " pairs between hosts are separate kinds; fewer than 3 of a kind have no outliers; a pair of a rank named"
                + " for the same quantity is not named again", num(k), num(minRatio)));
        Timing timing = timing(r, pairs);
        List<Estimate> estimates = new ArrayList<>();
        for (int ranks : ESTIMATED_RANKS) estimates.add(estimate(ranks, n, r.settings().mode(), timing));
        return new MatrixDocument(run.header(MatrixDocument.SCHEMA, wallSeconds), r.settings().mode().label(), n, RoundRobin.rounds(n), r.settings().latencyBytes(), r.settings().bandwidthBytes(),
                hosts, pairs, perRank, perHost, summary, rule, outliers, timing, estimates, List.copyOf(notes));
    }

    private static MatrixDocument.LogGP logGP(MatrixMethod.LogGP p) {
        return p == null ? null : new MatrixDocument.LogGP(p.fromBytes(), p.toBytes(), p.latencyNs(), p.sendOverheadNs(),
                p.recvOverheadNs(), p.gapNs(), p.gapPerByteNs(), p.flags());
    }

    private static int count(List<Outlier> outliers, String kind) {
        return (int) outliers.stream().filter(o -> o.kind().equals(kind)).map(Outlier::name).distinct().count();
    }

    private static void addOutliers(List<Outlier> out, String kind, String[] names, double[] latency, double[] bandwidth,
                                    double k, double minRatio) {
        for (Robust.Outlier o : Robust.outliers(latency, true, k, minRatio)) {
            out.add(new Outlier(kind, names[o.index()], "latency", o.value(), o.median(), o.ratio(), o.deviationMads()));
        }
        for (Robust.Outlier o : Robust.outliers(bandwidth, false, k, minRatio)) {
            out.add(new Outlier(kind, names[o.index()], "bandwidth", o.value(), o.median(), o.ratio(), o.deviationMads()));
        }
    }

    private static List<Group> perRank(int n, List<Pair> pairs) {
        double[][] lat = new double[n][n - 1], bw = new double[n][n - 1];
        int[] count = new int[n];
        for (Pair p : pairs) {
            for (int r : new int[] {p.a(), p.b()}) {
                lat[r][count[r]] = p.latencyNs();
                bw[r][count[r]++] = p.bandwidthMbS();
            }
        }
        List<Group> out = new ArrayList<>(n);
        for (int r = 0; r < n; r++) out.add(group(Integer.toString(r), 1, Arrays.copyOf(lat[r], count[r]), Arrays.copyOf(bw[r], count[r])));
        return out;
    }

    private static List<Group> perHost(List<String> hosts, List<Pair> pairs) {
        Map<String, Integer> ranks = new LinkedHashMap<>();
        for (String h : hosts) ranks.merge(h, 1, Integer::sum);
        Map<String, List<Pair>> touching = new LinkedHashMap<>();
        for (String h : ranks.keySet()) touching.put(h, new ArrayList<>());
        for (Pair p : pairs) {
            touching.get(p.hostA()).add(p);
            if (!p.sameHost()) touching.get(p.hostB()).add(p);
        }
        List<Group> out = new ArrayList<>();
        touching.forEach((h, list) -> out.add(group(h, ranks.get(h), list.stream().mapToDouble(Pair::latencyNs).toArray(),
                list.stream().mapToDouble(Pair::bandwidthMbS).toArray())));
        return out;
    }

    private static Group group(String name, int ranks, double[] lat, double[] bw) {
        return new Group(name, ranks, lat.length, Robust.median(lat), Arrays.stream(lat).max().orElse(Double.NaN),
                Robust.median(bw), Arrays.stream(bw).min().orElse(Double.NaN));
    }

    // ---- the cost model -------------------------------------------------------------------

    /**
     * The model's inputs, from the rounds after the first (the first carries the JIT warm-up and
     * the transports' first contacts) when there are any.
     */
    private static Timing timing(MatrixMethod.Result r, List<Pair> pairs) {
        int rounds = r.roundMs().length;
        int from = rounds > 1 ? 1 : 0;
        double[] slowest = r.roundSlowestMs(), sum = r.roundPairsMs();
        int[] count = new int[rounds];
        for (Pair p : pairs) count[p.round()]++;
        double pairMedian = Robust.median(pairs.stream().filter(p -> p.round() >= from).mapToDouble(Pair::pairMs).toArray());
        boolean serial = r.settings().mode() == MatrixMethod.Mode.SERIAL;
        double[] over = new double[rounds - from];
        for (int i = from; i < rounds; i++) {
            // serial: the rounds' time beyond their pairs', per pair; parallel: beyond the slowest pair's
            over[i - from] = serial ? Math.max(0, r.roundMs()[i] - sum[i]) / Math.max(1, count[i])
                    : Math.max(0, r.roundMs()[i] - slowest[i]);
        }
        double overhead = Robust.median(over);
        String model = serial
                ? "serial: T(N) = N(N-1)/2 x (pair_ms_median + overhead_ms), overhead_ms per pair = a round's time beyond its"
                        + " pairs' own, per pair (rank 0's GO and the figures coming back), median over the rounds after the first"
                : "parallel: T(N) = R(N) x (slowest_pair_ms_median + overhead_ms x ceil(log2 N) / ceil(log2 n) + N/2 x "
                        + num(FIGURES_RECEIVE_MS * 1e3) + " us), R(N) = N - 1 (N even); overhead_ms = a round's time beyond its"
                        + " slowest pair (the dissemination barrier's ceil(log2 n) steps and the figures), median over the rounds"
                        + " after the first; the figures' receive at rank 0 is assumed, not measured; pairs are assumed not to"
                        + " slow each other down more at N ranks than here (the fabric's bisection decides that)";
        double[] slowestAfterFirst = Arrays.copyOfRange(slowest, from, rounds);
        return new Timing(r.wallMs(), Arrays.stream(r.roundMs()).boxed().toList(), pairMedian, Robust.median(slowestAfterFirst),
                overhead, r.addressBytes(), model);
    }

    /** This run's model at {@code ranks} ranks (measured with {@code measuredRanks}). */
    static Estimate estimate(int ranks, int measuredRanks, MatrixMethod.Mode mode, Timing t) {
        long pairs = RoundRobin.pairCount(ranks);
        int rounds = RoundRobin.rounds(ranks);
        double ms;
        if (mode == MatrixMethod.Mode.SERIAL) {
            ms = pairs * (t.pairMsMedian() + t.overheadMs());
        } else {
            double steps = Math.ceil(Math.log(ranks) / Math.log(2)) / Math.max(1, Math.ceil(Math.log(measuredRanks) / Math.log(2)));
            ms = rounds * (t.slowestPairMsMedian() + t.overheadMs() * steps + ranks / 2.0 * FIGURES_RECEIVE_MS);
        }
        return new Estimate(ranks, pairs, rounds, ms / 1e3, pairs * BYTES_PER_PAIR, (long) ranks * t.addressBytes());
    }

    // ---- table ----------------------------------------------------------------------------

    public static String table(MatrixDocument d) {
        StringBuilder b = new StringBuilder();
        String library = d.transportFacts().getOrDefault("library", "");
        long hostCount = d.perHost().size();
        b.append(String.format(Locale.ROOT, "fabprobe matrix  transport %s%s  %d ranks on %d host%s  mode %s  %d round%s, %d pair%s"
                        + "  clock %s  host %s%n", d.transport(), library.isEmpty() ? "" : " (" + library + ")", d.ranks(), hostCount,
                hostCount == 1 ? "" : "s", d.mode(), d.rounds(), d.rounds() == 1 ? "" : "s", d.pairs().size(),
                d.pairs().size() == 1 ? "" : "s", d.clock().source(), d.host().hostname()));
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
            b.append(String.format(Locale.ROOT, "estimate %s: %,d ranks, %,d pairs in %,d rounds: %s; rank 0 holds %s of figures,"
                            + " every rank %s of addresses%n", d.mode(), e.ranks(), e.pairs(), e.rounds(), duration(e.seconds()),
                    bytes(e.rank0Bytes()), bytes(e.addressTableBytes())));
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
        return String.format(Locale.ROOT, "%.1f GiB", b / (double) (1L << 30));
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
        StringBuilder b = new StringBuilder("a,b,host_a,host_b,same_host,round,latency_ns,latency_min_ns,bandwidth_mb_s,pair_ms,"
                + "missed_deadlines,disturbed,attempts,loggp_from_bytes,loggp_to_bytes,loggp_latency_ns,loggp_send_overhead_ns,"
                + "loggp_recv_overhead_ns,loggp_gap_ns,loggp_gap_per_byte_ns,loggp_flags\n");
        for (Pair p : d.pairs()) {
            b.append(p.a()).append(',').append(p.b()).append(',').append(csvText(p.hostA())).append(',').append(csvText(p.hostB()))
                    .append(',').append(p.sameHost()).append(',').append(p.round())
                    .append(String.format(Locale.ROOT, ",%.1f,%.1f,%.1f,%.3f,", p.latencyNs(), p.latencyMinNs(), p.bandwidthMbS(), p.pairMs()))
                    .append(p.missedDeadlines()).append(',').append(p.disturbed()).append(',').append(p.attempts());
            MatrixDocument.LogGP l = p.loggp();
            if (l == null) b.append(",,,,,,,,");
            else b.append(String.format(Locale.ROOT, ",%d,%d,%.1f,%.1f,%.1f,%.1f,%.5f,%d", l.fromBytes(), l.toBytes(), l.latencyNs(),
                    l.sendOverheadNs(), l.recvOverheadNs(), l.gapNs(), l.gapPerByteNs(), l.flags()));
            b.append('\n');
        }
        return b.toString();
    }

    private static String csvText(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
