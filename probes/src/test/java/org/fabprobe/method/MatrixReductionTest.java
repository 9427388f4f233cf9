package org.fabprobe.method;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.fabprobe.launch.Group;
import org.fabprobe.model.Robust;
import org.fabprobe.result.MatrixDocument;
import org.fabprobe.transport.Control;
import org.junit.jupiter.api.Test;

/**
 * The reduction of the ranks' rows: its order statistics equal sorting every value in one
 * place, over many synthetic ranks; its figures equal those computed from the whole list of
 * pairs; and what reaches rank 0 grows with the ranks, not with the pairs.
 */
class MatrixReductionTest {
    private static final MatrixMethod.Settings SETTINGS = new MatrixMethod.Settings(MatrixMethod.Mode.SERIAL, 8, 100, 1 << 20, 10,
            10, 2, 100, 10_000_000_000L, 2, null);

    @Test
    void selectionOverManyRanksEqualsSortingThemAll() {
        Random random = new Random(31);
        int ranks = 2000;
        double[][] values = new double[ranks][];
        List<Double> all = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            values[r] = new double[random.nextInt(40)];
            for (int i = 0; i < values[r].length; i++) {
                // a few exact repeats and zeros, the rest spread over six decades
                double v = random.nextInt(10) == 0 ? 250.0 : random.nextInt(50) == 0 ? 0.0 : Math.exp(random.nextGaussian() * 3) * 1e3;
                values[r][i] = v;
                all.add(v);
            }
            Arrays.sort(values[r]);
        }
        double[] sorted = all.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        long[] k = {0, sorted.length / 2, (sorted.length - 1) / 2, sorted.length - 1, 12345, sorted.length, -1};
        DistributedSelection s = new DistributedSelection(k);
        int sums = 0;
        while (!s.done(0, k.length)) {
            double[] total = new double[k.length * DistributedSelection.BINS];
            for (int r = 0; r < ranks; r++) {
                double[][] mine = new double[k.length][];
                Arrays.fill(mine, values[r]);
                double[] c = s.counts(mine, 0, k.length);
                for (int i = 0; i < c.length; i++) total[i] += c[i];
            }
            s.advance(0, k.length, total);
            sums++;
        }
        double[] found = s.values();
        for (int j = 0; j < 5; j++) assertEquals(sorted[(int) k[j]], found[j], "k = " + k[j]);
        assertTrue(Double.isNaN(found[5]) && Double.isNaN(found[6]), "no such value: NaN");
        assertTrue(sums <= 11, "bins of 64 over 63 bits: at most 11 sums, not " + sums);
    }

    /** n ranks on 4 hosts, noisy figures; rank {@code slowRank} 5x slower, link 1-2 10x slower. */
    private static List<MatrixMethod.Pair> pairs(int n, List<String> hosts, long seed) {
        Random random = new Random(seed);
        List<MatrixMethod.Pair> pairs = new ArrayList<>();
        for (int round = 0; round < RoundRobin.rounds(n); round++) {
            for (int[] p : RoundRobin.pairs(n, round)) {
                boolean same = hosts.get(p[0]).equals(hosts.get(p[1]));
                double f = (1 + 0.03 * random.nextGaussian()) * (p[0] == 1 && p[1] == 2 ? 10 : 1) * (p[1] == n - 1 ? 5 : 1);
                double latency = (same ? 300 : 2000) * f;
                pairs.add(new MatrixMethod.Pair(p[0], p[1], round, latency, latency * 0.9, (same ? 9000 : 4000) / f,
                        5 + random.nextDouble(), random.nextInt(3), false, 1, null));
            }
        }
        return pairs;
    }

    private static List<String> hosts(int n) {
        List<String> hosts = new ArrayList<>();
        for (int r = 0; r < n; r++) hosts.add("node" + (r * 4 / n));
        return hosts;
    }

    private static List<MatrixMethod.Result> results(int n, long seed) {
        List<String> hosts = hosts(n);
        int rounds = RoundRobin.rounds(n);
        return InMemoryRanks.results(SETTINGS, hosts, pairs(n, hosts, seed), new double[rounds], new double[rounds],
                new double[rounds], 40);
    }

    @Test
    void theReductionEqualsTheFiguresOfEveryPairInOnePlace() throws Exception {
        int n = 13;
        List<String> hosts = hosts(n);
        List<MatrixMethod.Pair> pairs = pairs(n, hosts, 7);
        int rounds = RoundRobin.rounds(n);
        MatrixReduction.Reduced r = InMemoryRanks.reduce(InMemoryRanks.results(SETTINGS, hosts, pairs, new double[rounds],
                new double[rounds], new double[rounds], 40), 5, 1.25);

        double[] lat = pairs.stream().mapToDouble(MatrixMethod.Pair::latencyNs).toArray();
        double[] bw = pairs.stream().mapToDouble(MatrixMethod.Pair::bandwidthMBs).toArray();
        MatrixDocument.Summary s = r.summary();
        assertEquals(Robust.median(lat), s.latencyMedianNs());
        assertEquals(Robust.mad(lat), s.latencyMadNs());
        assertEquals(Arrays.stream(lat).max().orElseThrow(), s.latencyWorstNs());
        assertEquals(Robust.median(bw), s.bandwidthMedianMbS());
        assertEquals(Robust.mad(bw), s.bandwidthMadMbS());
        assertEquals(Arrays.stream(bw).min().orElseThrow(), s.bandwidthWorstMbS());
        assertEquals(Robust.median(pairs.stream().filter(p -> p.round() >= 1).mapToDouble(MatrixMethod.Pair::pairMs).toArray()),
                r.pairMsMedian());
        assertEquals(pairs.size(), r.pairs().size(), "13 ranks: every pair listed");

        for (int rank = 0; rank < n; rank++) {
            int me = rank;
            List<MatrixMethod.Pair> mine = pairs.stream().filter(p -> p.a() == me || p.b() == me).toList();
            MatrixDocument.Group g = r.perRank().get(rank);
            assertEquals(n - 1, g.pairs());
            assertEquals(Robust.median(mine.stream().mapToDouble(MatrixMethod.Pair::latencyNs).toArray()), g.latencyNs(), g::toString);
            assertEquals(Robust.median(mine.stream().mapToDouble(MatrixMethod.Pair::bandwidthMBs).toArray()), g.bandwidthMbS());
        }
        for (MatrixDocument.Group g : r.perHost()) {
            List<MatrixMethod.Pair> touching = pairs.stream()
                    .filter(p -> hosts.get(p.a()).equals(g.name()) || hosts.get(p.b()).equals(g.name())).toList();
            assertEquals(touching.size(), g.pairs(), g::toString);
            double[] hl = touching.stream().mapToDouble(MatrixMethod.Pair::latencyNs).toArray();
            double[] hb = touching.stream().mapToDouble(MatrixMethod.Pair::bandwidthMBs).toArray();
            assertEquals(Robust.median(hl), g.latencyNs(), g::toString);
            assertEquals(Arrays.stream(hl).max().orElseThrow(), g.worstLatencyNs(), g::toString);
            assertEquals(Robust.median(hb), g.bandwidthMbS(), g::toString);
            assertEquals(Arrays.stream(hb).min().orElseThrow(), g.worstBandwidthMbS(), g::toString);
        }
        Set<String> named = new TreeSet<>();
        for (MatrixDocument.Outlier o : r.outliers()) named.add(o.kind() + " " + o.name() + " " + o.quantity());
        assertTrue(named.contains("rank 12 latency") && named.contains("rank 12 bandwidth"), named::toString);
        assertTrue(named.contains("pair 1-2 latency") && named.contains("pair 1-2 bandwidth"), named::toString);
        assertTrue(named.stream().noneMatch(x -> x.startsWith("pair") && x.contains("-12 ")), "rank 12's pairs are its own: " + named);
        assertEquals(1, r.outlierPairs());
    }

    /** Doubles that reach rank 0 in a whole reduction (what it receives and what its collectives hand it). */
    private static long receivedByRankZero(int n) throws Exception {
        List<MatrixMethod.Result> results = results(n, 3);
        AtomicLong doubles = new AtomicLong();
        InMemoryRanks.run(n, (rank, c) -> {
            Group.Channels counted = rank != 0 ? c : new Group.Channels() {
                public int rank() {
                    return c.rank();
                }

                public int size() {
                    return c.size();
                }

                public void barrier() {
                    c.barrier();
                }

                public byte[][] exchange(byte[] mine) {
                    return c.exchange(mine);
                }

                public Control control(int partner, int channel) {
                    return c.control(partner, channel);
                }

                public double[][] receiveFrom(int[] sources, int channel, int count) {
                    double[][] all = c.receiveFrom(sources, channel, count);
                    for (double[] v : all) count(v);
                    return all;
                }

                private double[] count(double[] v) {
                    if (v != null) doubles.addAndGet(v.length);
                    return v;
                }

                public double[] allreduceSum(double[] mine) {
                    return count(c.allreduceSum(mine));
                }

                public double[] broadcast(double[] values) {
                    return c.broadcast(values);
                }

                public double[] gather(double[] mine) {
                    return count(c.gather(mine));
                }

                public void send(int dest, int channel, double... values) {
                    c.send(dest, channel, values);
                }

                public double[] receive(int source, int channel, int count) {
                    return count(c.receive(source, channel, count));
                }

                public void sendArray(int dest, int channel, double[] values) {
                    c.sendArray(dest, channel, values);
                }

                public double[] receiveArray(int source, int channel, int count) {
                    return count(c.receiveArray(source, channel, count));
                }
            };
            return MatrixReduction.reduce(counted, results.get(rank), 5, 1.25, false, null);
        });
        return doubles.get();
    }

    @Test
    void rankZeroReceivesInProportionToTheRanksNotThePairs() throws Exception {
        // beyond the listed ranks: 70 and 140 ranks, 2 415 and 9 730 pairs
        long small = receivedByRankZero(70), large = receivedByRankZero(140);
        double ratio = (double) large / small;
        assertTrue(ratio < 2.2, "twice the ranks, four times the pairs: rank 0 got " + small + " then " + large + " doubles");
        assertTrue(large < 140L * 139 / 2 * MatrixMethod.ROW_VALUES / 4, "far less than the pairs' figures: " + large);
    }
}
