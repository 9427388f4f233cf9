package org.fabprobe.method;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;
import org.fabprobe.launch.Group.Channels;
import org.fabprobe.model.Robust;
import org.fabprobe.result.MatrixDocument;
import org.fabprobe.result.MatrixDocument.Group;
import org.fabprobe.result.MatrixDocument.Outlier;

/**
 * From the rows every rank keeps ({@link MatrixMethod}) to the matrix's figures on rank 0,
 * without gathering the pairs. Every rank takes part; what passes to rank 0 is linear in the
 * ranks:
 *
 * <pre>
 *   summary, kinds    median, MAD and worst over all pairs, over the pairs on one host and over
 *   and hosts         the pairs between hosts, and per host over the pairs that touch it:
 *                     exact order statistics by {@link DistributedSelection} (allreduces of
 *                     fixed-size histograms); each pair is counted by its lower rank, and for
 *                     the higher rank's host by the higher rank
 *   per rank          each rank's own row, n - 1 pairs: its medians and worst, gathered (n x 5)
 *   outliers          ranks and hosts on rank 0 (n and h values); pairs by their lower rank,
 *                     against the medians and MADs every rank now knows; at most
 *                     {@value #OUTLIERS_PER_RANK} per rank and {@value #OUTLIERS_KEPT} in all reach rank 0
 *   pairs             listed in the document up to {@value #LISTED_RANKS} ranks; beyond that, when
 *                     asked, streamed row by row to rank 0, which writes and forgets them
 * </pre>
 *
 * The figures equal those of sorting every pair in one place (the end-to-end test checks it).
 */
public final class MatrixReduction {
    /** Runs up to this many ranks (2 016 pairs) list their pairs in the document. */
    public static final int LISTED_RANKS = 64;
    /** Tests set fewer (2..64) to stream the rows of a small run as a large one does. */
    private static final String LISTED_RANKS_VARIABLE = "FABPROBE_MATRIX_LISTED_RANKS";

    /** The ranks up to which the pairs are listed: {@link #LISTED_RANKS}, or fewer when a test asks. */
    public static int listedRanks() {
        String v = System.getenv(LISTED_RANKS_VARIABLE);
        if (v == null || !v.strip().matches("[0-9]{1,2}")) return LISTED_RANKS;
        return Math.clamp(Integer.parseInt(v.strip()), 2, LISTED_RANKS);
    }
    static final int OUTLIERS_PER_RANK = 16, OUTLIERS_KEPT = 1000;
    /** Control-plane channels beyond MatrixMethod's. */
    private static final int OUTLIERS = 20, ROWS = 21;
    private static final int LATENCY = 0, BANDWIDTH = 1;
    /** Groups: all pairs, pairs on one host, pairs between hosts, then one per host. */
    private static final int ALL = 0, SAME = 1, CROSS = 2, HOSTS = 3;

    /**
     * Rank 0's figures.
     *
     * @param pairs          every pair up to {@link #LISTED_RANKS} ranks, sorted by (a, b); else empty
     * @param outliers       ranks, hosts, then pairs (at most {@link #OUTLIERS_KEPT} of these)
     * @param outlierPairs   the pairs named as outliers, all of them (outliers lists at most OUTLIERS_KEPT)
     * @param pairMsMedian   the median pair's whole time, rounds after the first (all when there is one)
     */
    public record Reduced(List<MatrixDocument.Pair> pairs, List<Group> perRank, List<Group> perHost, MatrixDocument.Summary summary,
                          List<Outlier> outliers, long outlierPairs, double pairMsMedian) {}

    private MatrixReduction() {}

    /**
     * Collective over every rank. {@code streamRows}, the same on every rank, sends every row to
     * rank 0 beyond {@link #LISTED_RANKS} ranks, where {@code sink} (rank 0) takes each pair.
     * Returns rank 0's figures; null elsewhere.
     */
    public static Reduced reduce(Channels control, MatrixMethod.Result r, double k, double minRatio, boolean streamRows,
                                 Consumer<MatrixDocument.Pair> sink) {
        int n = r.ranks(), rank = r.rank(), listed = listedRanks();
        List<String> hosts = r.hosts();
        Map<String, Integer> hostIndex = new LinkedHashMap<>();
        for (String h : hosts) hostIndex.putIfAbsent(h, hostIndex.size());
        int hostCount = hostIndex.size(), groups = HOSTS + hostCount, myHost = hostIndex.get(hosts.get(rank));
        int from = RoundRobin.rounds(n) > 1 ? 1 : 0;

        // this rank's values per quantity and group: its lower pairs, and for its host every pair that touches it once
        List<MatrixMethod.Pair> lower = new ArrayList<>(), forHost = new ArrayList<>();
        for (int partner = 0; partner < n; partner++) {
            MatrixMethod.Pair p = r.row()[partner];
            if (p == null) continue;
            boolean same = hosts.get(partner).equals(hosts.get(rank));
            if (partner > rank) lower.add(p);
            if (partner > rank || !same) forHost.add(p);
        }
        double[][][] values = new double[2][groups][];
        double[] none = new double[0];
        for (int q = 0; q < 2; q++) {
            ToDoubleFunction<MatrixMethod.Pair> f = q == LATENCY ? MatrixMethod.Pair::latencyNs : MatrixMethod.Pair::bandwidthMBs;
            Arrays.fill(values[q], none);
            values[q][ALL] = sorted(lower, f);
            values[q][SAME] = sorted(lower.stream().filter(p -> sameHost(hosts, p)).toList(), f);
            values[q][CROSS] = sorted(lower.stream().filter(p -> !sameHost(hosts, p)).toList(), f);
            values[q][HOSTS + myHost] = sorted(forHost, f);
        }
        double[] pairMs = sorted(lower.stream().filter(p -> p.round() >= from).toList(), MatrixMethod.Pair::pairMs);

        // how many values each group has, everywhere, and the disturbed pairs
        double[] counts = new double[2 * groups + 2];
        for (int q = 0; q < 2; q++) for (int g = 0; g < groups; g++) counts[q * groups + g] = values[q][g].length;
        counts[2 * groups] = pairMs.length;
        counts[2 * groups + 1] = lower.stream().filter(MatrixMethod.Pair::disturbed).count();
        counts = control.allreduceSum(counts);

        // medians (two middle values) and the worst of every group, then the MADs of all, same and cross
        int jobs = 2 * groups * 3 + 2;
        long[] kth = new long[jobs];
        double[][] jobValues = new double[jobs][];
        for (int q = 0; q < 2; q++) {
            for (int g = 0; g < groups; g++) {
                long c = (long) counts[q * groups + g];
                int j = 3 * (q * groups + g);
                kth[j] = c == 0 ? -1 : (c - 1) / 2;
                kth[j + 1] = c == 0 ? -1 : c / 2;
                kth[j + 2] = c == 0 ? -1 : q == LATENCY ? c - 1 : 0;
                jobValues[j] = jobValues[j + 1] = jobValues[j + 2] = values[q][g];
            }
        }
        long pc = (long) counts[2 * groups];
        kth[jobs - 2] = pc == 0 ? -1 : (pc - 1) / 2;
        kth[jobs - 1] = pc == 0 ? -1 : pc / 2;
        jobValues[jobs - 2] = jobValues[jobs - 1] = pairMs;
        double[] selected = DistributedSelection.select(jobValues, kth, control::allreduceSum);
        double[][] median = new double[2][groups], worst = new double[2][groups];
        for (int q = 0; q < 2; q++) {
            for (int g = 0; g < groups; g++) {
                int j = 3 * (q * groups + g);
                median[q][g] = median(selected[j], selected[j + 1], (long) counts[q * groups + g]);
                worst[q][g] = selected[j + 2];
            }
        }
        double pairMsMedian = median(selected[jobs - 2], selected[jobs - 1], pc);
        double[][] mad = new double[2][3];
        long[] madCount = new long[6];
        double[][] deviations = new double[6][];
        for (int q = 0; q < 2; q++) {
            for (int g = 0; g < 3; g++) {
                long c = (long) counts[q * groups + g];
                double med = median[q][g];
                double[] d = Arrays.stream(values[q][g]).map(v -> Math.abs(v - med) + 0.0).sorted().toArray();
                deviations[q * 3 + g] = d;
                madCount[q * 3 + g] = c;
            }
        }
        long[] madKth = new long[12];
        double[][] madValues = new double[12][];
        for (int i = 0; i < 6; i++) {
            long c = madCount[i];
            madKth[2 * i] = c == 0 ? -1 : (c - 1) / 2;
            madKth[2 * i + 1] = c == 0 ? -1 : c / 2;
            madValues[2 * i] = madValues[2 * i + 1] = deviations[i];
        }
        double[] madSelected = DistributedSelection.select(madValues, madKth, control::allreduceSum);
        for (int q = 0; q < 2; q++) {
            for (int g = 0; g < 3; g++) {
                int i = q * 3 + g;
                mad[q][g] = median(madSelected[2 * i], madSelected[2 * i + 1], madCount[i]);
            }
        }

        // per rank: each rank's own row, gathered
        List<MatrixMethod.Pair> mine = Arrays.stream(r.row()).filter(p -> p != null).toList();
        double[] lat = mine.stream().mapToDouble(MatrixMethod.Pair::latencyNs).toArray();
        double[] bw = mine.stream().mapToDouble(MatrixMethod.Pair::bandwidthMBs).toArray();
        double[] own = {mine.size(), Robust.median(lat), Arrays.stream(lat).max().orElse(Double.NaN), Robust.median(bw),
                Arrays.stream(bw).min().orElse(Double.NaN)};
        double[] all = control.gather(own);

        // outliers: ranks and hosts on rank 0, told to every rank, then each rank's pairs
        List<Outlier> outliers = new ArrayList<>();
        List<Group> perRank = new ArrayList<>(), perHost = new ArrayList<>();
        double[] rankFlags = new double[n];
        if (rank == 0) {
            for (int i = 0; i < n; i++) {
                perRank.add(new Group(Integer.toString(i), 1, (int) all[5 * i], all[5 * i + 1], all[5 * i + 2], all[5 * i + 3],
                        all[5 * i + 4]));
            }
            int[] ranksOn = new int[hostCount];
            for (String h : hosts) ranksOn[hostIndex.get(h)]++;
            for (Map.Entry<String, Integer> e : hostIndex.entrySet()) {
                int g = HOSTS + e.getValue();
                perHost.add(new Group(e.getKey(), ranksOn[e.getValue()], (int) counts[LATENCY * groups + g], median[LATENCY][g],
                        worst[LATENCY][g], median[BANDWIDTH][g], worst[BANDWIDTH][g]));
            }
            addOutliers(outliers, "rank", perRank, k, minRatio);
            for (Outlier o : outliers) rankFlags[Integer.parseInt(o.name())] += o.quantity().equals("latency") ? 1 : 2;
            addOutliers(outliers, "host", perHost, k, minRatio);
        }
        rankFlags = control.broadcast(rankFlags);

        // a pair of a rank named for the same quantity is that rank's, and not named again
        List<double[]> pairOutliers = new ArrayList<>();
        long distinct = 0;
        for (MatrixMethod.Pair p : lower) {
            int g = sameHost(hosts, p) ? SAME : CROSS;
            boolean named = false;
            for (int q = 0; q < 2; q++) {
                if (counts[q * groups + g] < 3) continue; // fewer than 3 of a kind have no outliers
                double v = q == LATENCY ? p.latencyNs() : p.bandwidthMBs(), med = median[q][g];
                double spread = Robust.MAD_SCALE * mad[q][g];
                double worse = q == LATENCY ? v - med : med - v, ratio = q == LATENCY ? v / med : med / v;
                if (!Double.isFinite(v) || !(worse > k * spread && ratio > minRatio)) continue;
                int flag = q == LATENCY ? 1 : 2;
                if (((int) rankFlags[p.a()] & flag) != 0 || ((int) rankFlags[p.b()] & flag) != 0) continue;
                named = true;
                pairOutliers.add(new double[] {g, q, p.a(), p.b(), v, med, v / med,
                        spread > 0 ? Math.abs(v - med) / spread : Double.POSITIVE_INFINITY});
            }
            if (named) distinct++;
        }
        long outlierPairs = (long) control.allreduceSum(new double[] {distinct})[0];
        List<double[]> kept = new ArrayList<>();
        if (rank != 0) {
            int send = Math.min(pairOutliers.size(), OUTLIERS_PER_RANK);
            control.send(0, OUTLIERS, send);
            for (int i = 0; i < send; i++) control.send(0, OUTLIERS, pairOutliers.get(i));
        } else {
            kept.addAll(pairOutliers.subList(0, Math.min(pairOutliers.size(), OUTLIERS_KEPT)));
            for (int source = 1; source < n; source++) {
                int count = (int) control.receive(source, OUTLIERS, 1)[0];
                for (int i = 0; i < count; i++) {
                    double[] o = control.receive(source, OUTLIERS, 8);
                    if (kept.size() < OUTLIERS_KEPT) kept.add(o);
                }
            }
            // as sorting them all would list them: pairs on one host first, latency before bandwidth, by (a, b)
            kept.sort(Comparator.<double[]>comparingDouble(o -> o[0]).thenComparingDouble(o -> o[1])
                    .thenComparingDouble(o -> o[2]).thenComparingDouble(o -> o[3]));
            for (double[] o : kept) {
                outliers.add(new Outlier("pair", (int) o[2] + "-" + (int) o[3], o[1] == LATENCY ? "latency" : "bandwidth", o[4],
                        o[5], o[6], o[7]));
            }
        }

        // the pairs themselves: rank 0 lists or streams them, row by row, and keeps none beyond the listed ones
        List<MatrixDocument.Pair> pairsListed = new ArrayList<>();
        if (n <= listed || streamRows) {
            if (rank != 0) {
                double[] v = new double[lower.size() * MatrixMethod.ROW_VALUES];
                for (int i = 0; i < lower.size(); i++) {
                    System.arraycopy(MatrixMethod.encodeRow(lower.get(i)), 0, v, i * MatrixMethod.ROW_VALUES, MatrixMethod.ROW_VALUES);
                }
                control.sendArray(0, ROWS, v);
            } else {
                for (int source = 0; source < n; source++) {
                    List<MatrixMethod.Pair> pairs = lower;
                    if (source != 0) {
                        int count = n - 1 - source;
                        double[] v = control.receiveArray(source, ROWS, count * MatrixMethod.ROW_VALUES);
                        pairs = new ArrayList<>(count);
                        for (int i = 0; i < count; i++) pairs.add(MatrixMethod.decodeRow(v, i * MatrixMethod.ROW_VALUES, r.settings()));
                    }
                    for (MatrixMethod.Pair p : pairs) {
                        MatrixDocument.Pair d = document(p, hosts);
                        if (n <= listed) pairsListed.add(d);
                        else if (sink != null) sink.accept(d);
                    }
                }
            }
        }
        if (rank != 0) return null;
        var summary = new MatrixDocument.Summary(median[LATENCY][ALL], mad[LATENCY][ALL], worst[LATENCY][ALL],
                worst[LATENCY][ALL] / median[LATENCY][ALL], median[BANDWIDTH][ALL], mad[BANDWIDTH][ALL], worst[BANDWIDTH][ALL],
                median[BANDWIDTH][ALL] / worst[BANDWIDTH][ALL], (int) outlierPairs, count(outliers, "rank"), count(outliers, "host"),
                (int) counts[2 * groups + 1]);
        return new Reduced(pairsListed, perRank, perHost, summary, outliers, outlierPairs, pairMsMedian);
    }

    /** One pair of the document: the method's figures with its hosts. */
    public static MatrixDocument.Pair document(MatrixMethod.Pair p, List<String> hosts) {
        String ha = hosts.get(p.a()), hb = hosts.get(p.b());
        MatrixMethod.LogGP l = p.loggp();
        var loggp = l == null ? null : new MatrixDocument.LogGP(l.fromBytes(), l.toBytes(), l.latencyNs(), l.sendOverheadNs(),
                l.recvOverheadNs(), l.gapNs(), l.gapPerByteNs(), l.flags());
        return new MatrixDocument.Pair(p.a(), p.b(), ha, hb, ha.equals(hb), p.round(), p.latencyNs(), p.latencyMinNs(),
                p.bandwidthMBs(), p.pairMs(), p.missed(), p.disturbed(), p.attempts(), loggp);
    }

    private static boolean sameHost(List<String> hosts, MatrixMethod.Pair p) {
        return hosts.get(p.a()).equals(hosts.get(p.b()));
    }

    /** The finite, non-negative values, sorted (what {@link DistributedSelection} takes). */
    private static double[] sorted(List<MatrixMethod.Pair> pairs, ToDoubleFunction<MatrixMethod.Pair> f) {
        return pairs.stream().mapToDouble(f).filter(v -> Double.isFinite(v) && v >= 0).map(v -> v + 0.0).sorted().toArray();
    }

    /** As {@link Robust#median}: the middle value, or the mean of the two middle ones. */
    static double median(double low, double high, long count) {
        if (count == 0) return Double.NaN;
        return count % 2 == 1 ? low : (low + high) / 2;
    }

    private static void addOutliers(List<Outlier> out, String kind, List<Group> groups, double k, double minRatio) {
        double[] latency = groups.stream().mapToDouble(Group::latencyNs).toArray();
        double[] bandwidth = groups.stream().mapToDouble(Group::bandwidthMbS).toArray();
        for (Robust.Outlier o : Robust.outliers(latency, true, k, minRatio)) {
            out.add(new Outlier(kind, groups.get(o.index()).name(), "latency", o.value(), o.median(), o.ratio(), o.deviationMads()));
        }
        for (Robust.Outlier o : Robust.outliers(bandwidth, false, k, minRatio)) {
            out.add(new Outlier(kind, groups.get(o.index()).name(), "bandwidth", o.value(), o.median(), o.ratio(), o.deviationMads()));
        }
    }

    private static int count(List<Outlier> outliers, String kind) {
        return (int) outliers.stream().filter(o -> o.kind().equals(kind)).map(Outlier::name).distinct().count();
    }
}
