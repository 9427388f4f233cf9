package org.fabprobe.report;

import static org.junit.jupiter.api.Assertions.*;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import javax.imageio.ImageIO;
import org.fabprobe.api.RunFacts;
import org.fabprobe.clock.Clock;
import org.fabprobe.method.InMemoryRanks;
import org.fabprobe.method.MatrixMethod;
import org.fabprobe.method.RoundRobin;
import org.fabprobe.plot.Plots;
import org.fabprobe.result.Host;
import org.fabprobe.result.MatrixDocument;
import org.fabprobe.result.ResultJson;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The matrix analysis on figures made here (6 ranks on 3 hosts, with ±2 % noise): a slow link
 * names exactly its pair, a slow rank exactly that rank and its host, a uniform network
 * nothing; the document is valid against its schema, the CSV has one row per pair, the
 * heatmaps render, and the cost model follows its formula.
 */
class MatrixReportTest {
    private static final List<String> HOSTS = List.of("h0", "h0", "h1", "h1", "h2", "h2");
    private static final MatrixMethod.Settings SERIAL = new MatrixMethod.Settings(MatrixMethod.Mode.SERIAL, 8, 200, 1 << 20, 20,
            50, 3, 4000, 10_000_000_000L, 2, null);

    /** Figures of every pair: on one host 0.3 µs and 10 GB/s, between hosts 2 µs and 5 GB/s, times {@code slow}(a, b). */
    private static List<MatrixMethod.Result> result(BiFunction<Integer, Integer, Double> slow) {
        return result(HOSTS, slow);
    }

    /** Every rank's result (its row), as the ranks hold them at the end of a run. */
    private static List<MatrixMethod.Result> result(List<String> hosts, BiFunction<Integer, Integer, Double> slow) {
        int n = hosts.size();
        List<MatrixMethod.Pair> pairs = new ArrayList<>();
        for (int round = 0; round < RoundRobin.rounds(n); round++) {
            for (int[] p : RoundRobin.pairs(n, round)) {
                boolean same = hosts.get(p[0]).equals(hosts.get(p[1]));
                double noise = 1 + 0.02 * Math.sin(7.0 * p[0] + 3.0 * p[1]); // deterministic, ±2 %
                double factor = slow.apply(p[0], p[1]);
                double latency = (same ? 300 : 2000) * noise * factor;
                double bandwidth = (same ? 10_000 : 5_000) / noise / factor;
                pairs.add(new MatrixMethod.Pair(p[0], p[1], round, latency, latency * 0.9, bandwidth, 12 + round, 0, false, 1, null));
            }
        }
        double[] roundMs = new double[RoundRobin.rounds(n)], sums = new double[roundMs.length], slowest = new double[roundMs.length];
        for (MatrixMethod.Pair p : pairs) {
            sums[p.round()] += p.pairMs();
            slowest[p.round()] = Math.max(slowest[p.round()], p.pairMs());
        }
        for (int i = 0; i < roundMs.length; i++) roundMs[i] = sums[i] + RoundRobin.pairsPerRound(n); // 1 ms per pair
        return InMemoryRanks.results(SERIAL, hosts, pairs, roundMs, sums, slowest, 60);
    }

    /** The document as rank 0 makes it: the rows reduced over as many ranks (threads here). */
    private static MatrixDocument document(List<MatrixMethod.Result> ranks) {
        MatrixMethod.Result r = ranks.getFirst();
        var settings = new MatrixDocument.Settings("serial", 8, 100, 1 << 20, 10, 10, 2, 1000, 5000, 2, 5, 1.25, "round-robin",
                "launcher, ranks " + r.hosts().size());
        var run = new RunFacts<>("fabprobe test", "matrix", "sim:test", Map.of("library", "test"), settings,
                new Host("h0", "Linux", "amd64", "cpu", "2", "25"), Map.of(), Clock.facts(), "2026-01-01T00:00:00Z", -1);
        try {
            return MatrixReport.document(run, r, InMemoryRanks.reduce(ranks, 5, 1.25), 5, 1.25, 1.0, 123_456_789L, List.of(), List.of());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Set<String> named(MatrixDocument d) {
        Set<String> out = new TreeSet<>();
        for (MatrixDocument.Outlier o : d.outliers()) out.add(o.kind() + " " + o.name());
        return out;
    }

    @Test
    void aSlowLinkNamesExactlyItsPair() {
        MatrixDocument d = document(result((a, b) -> a == 1 && b == 3 ? 10.0 : 1.0));
        assertEquals(Set.of("pair 1-3"), named(d), d.outliers()::toString);
        MatrixDocument.Outlier latency = d.outliers().stream().filter(o -> o.quantity().equals("latency")).findFirst().orElseThrow();
        assertEquals(10, latency.ratio(), 0.5);
        assertEquals(1, d.summary().outlierPairs());
        assertEquals(10, d.summary().latencyWorstRatio(), 0.5);
        assertEquals(10, d.summary().bandwidthWorstRatio(), 0.5);
    }

    @Test
    void aSlowRankNamesExactlyThatRankAndItsHost() {
        MatrixDocument d = document(result((a, b) -> a == 4 || b == 4 ? 6.0 : 1.0));
        assertEquals(Set.of("rank 4", "host h2"), named(d), d.outliers()::toString);
    }

    @Test
    void aUniformNetworkNamesNothing() {
        MatrixDocument d = document(result((a, b) -> 1.0));
        assertEquals(Set.of(), named(d), d.outliers()::toString);
        assertEquals(0, d.summary().outlierPairs() + d.summary().outlierRanks() + d.summary().outlierHosts());
    }

    @Test
    void perRankAndPerHostAggregateTheirPairs() {
        MatrixDocument d = document(result((a, b) -> 1.0));
        assertEquals(6, d.perRank().size());
        for (MatrixDocument.Group g : d.perRank()) assertEquals(5, g.pairs(), g::toString);
        assertEquals(List.of("h0", "h1", "h2"), d.perHost().stream().map(MatrixDocument.Group::name).toList());
        for (MatrixDocument.Group g : d.perHost()) {
            assertEquals(2, g.ranks());
            assertEquals(9, g.pairs(), "1 on the host + 2 x 4 to the others: " + g);
            assertTrue(g.worstLatencyNs() >= g.latencyNs() && g.worstBandwidthMbS() <= g.bandwidthMbS(), g::toString);
        }
        assertEquals(15, d.pairs().size());
        assertEquals(3, d.pairs().stream().filter(MatrixDocument.Pair::sameHost).count());
    }

    @Test
    void twoRanksAreOnePairAndEveryColumnHasALabel() {
        String table = MatrixReport.table(document(result(List.of("h0", "h1"), (a, b) -> 1.0)));
        assertTrue(table.contains("mode serial  1 round, 1 pair  clock"), table);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("per rank") && l.contains("ranks  pairs")), table);
    }

    @Test
    void theDocumentIsValidAndReadsBack(@TempDir Path dir) throws Exception {
        MatrixDocument d = document(result((a, b) -> a == 1 && b == 3 ? 10.0 : 1.0));
        String json = MatrixReport.json(d);
        MatrixDocument read = Schemas.validated(json, MatrixDocument.class);
        assertEquals(MatrixDocument.SCHEMA, read.header().schema());
        assertEquals(d, read);

        List<String> csv = MatrixReport.csv(d).lines().toList();
        assertEquals(1 + 15, csv.size());
        assertEquals("a,b,host_a,host_b,same_host,round,latency_ns,latency_min_ns,bandwidth_mb_s,pair_ms,missed_deadlines,disturbed,attempts,"
                + "loggp_from_bytes,loggp_to_bytes,loggp_latency_ns,loggp_send_overhead_ns,loggp_recv_overhead_ns,loggp_gap_ns,"
                + "loggp_gap_per_byte_ns,loggp_flags", csv.getFirst());
        for (String row : csv.subList(1, csv.size())) assertEquals(21, row.split(",", -1).length, row);

        String table = MatrixReport.table(d);
        assertTrue(table.contains("pair 1-3"), table);
        assertTrue(table.contains("estimate serial     1,000 ranks,       499,500 pairs in    999 rounds"), table);
        assertTrue(table.contains("estimate parallel 100,000 ranks, 4,999,950,000 pairs in 99,999 rounds"), table);

        Path png = dir.resolve("m.png"), svg = dir.resolve("m.svg");
        Plots.write(d, png);
        Plots.write(d, svg);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1440, image.getWidth());
        assertEquals(640, image.getHeight());
        var xml = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile());
        String text = xml.getDocumentElement().getTextContent();
        assertTrue(text.contains("latency") && text.contains("bandwidth") && text.contains("µs") && text.contains("MB/s"), text);
        assertTrue(Files.size(svg) > 1000);
    }

    @Test
    void theCostModelFollowsItsFormula() {
        MatrixDocument d = document(result((a, b) -> 1.0));
        MatrixDocument.Timing t = d.timing();
        assertEquals(1.0, t.overheadMs(), 1e-9, "rounds cost 1 ms per pair beyond their pairs");
        MatrixDocument.Estimate thousand = d.estimates().getFirst();
        assertEquals(1000, thousand.ranks());
        assertEquals(499_500, thousand.pairs());
        assertEquals(999, thousand.rounds());
        assertEquals(499_500 * (t.pairMsMedian() + 1.0) / 1e3, thousand.seconds(), 1e-6);
        assertEquals(10_000L * 60, d.estimates().get(1).addressTableBytes());
        // parallel from the same run: per round the slowest pair and the barrier's ceil(log2 N) steps of half a serial overhead
        MatrixDocument.Estimate parallel = d.estimates().stream().filter(e -> e.mode().equals("parallel") && e.ranks() == 1000)
                .findFirst().orElseThrow();
        assertEquals(999 * (t.slowestPairMsMedian() + 10 * 0.5 + 500 * 0.001) / 1e3, parallel.seconds(), 1e-6);
        assertEquals(6, d.estimates().size());
        // memory per rank grows with the ranks, the --csv with the pairs
        MatrixDocument.Estimate big = d.estimates().get(2);
        assertEquals(100_000, big.ranks());
        assertEquals(100 * thousand.rankBytes(), big.rankBytes());
        assertEquals((double) big.pairs() / thousand.pairs(), (double) big.csvBytes() / thousand.csvBytes(), 1e-9);
        assertEquals(123_456_789L, t.rank0PeakRssBytes());
    }
}
