package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.fabprobe.ExitCode;
import org.fabprobe.result.MatrixDocument;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * `fabprobe matrix` under the real Open MPI of this machine with 4 ranks on 2 cores
 * (oversubscribed). The emulator proof: one slow link names exactly that pair, one slow rank
 * exactly that rank, a uniform network nothing; the differences are large (10x, 6x) and the
 * thresholds robust (5 scaled MADs and a factor 1.25), disturbed pairs are measured again
 * (--retries), and a run the busy machine still disturbed is repeated. ofi:shm and
 * mpi:openmpi/ob1:vader print the whole matrix; the JSON is valid against its schema.
 */
@org.junit.jupiter.api.extension.ExtendWith(BusyHost.class)
class MatrixEndToEndTest {
    private static final String BASE = "sim:L=3us,os=1us,or=1us,g=2us";
    private static final List<String> SIM = List.of("--bandwidth-size", "8K", "-n", "200", "--retries", "4", "--timeout", "20s");

    private static MatrixDocument runUnderMpirun(int ranks, Path json, List<String> args) {
        List<String> all = new ArrayList<>(List.of("matrix"));
        all.addAll(args);
        all.addAll(List.of("--json", json.toString()));
        CliRun run;
        try {
            run = LauncherModeTest.underLauncher("openmpi", ranks, all.toArray(String[]::new));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(1, LauncherModeTest.occurrences(run.out(), "fabprobe matrix "), "one table, rank 0's: " + run);
        return Schemas.validated(json, MatrixDocument.class);
    }

    private static Set<String> named(MatrixDocument doc) {
        Set<String> out = new TreeSet<>();
        for (MatrixDocument.Outlier o : doc.outliers()) out.add(o.kind() + " " + o.name());
        return out;
    }

    private static void emulatorNames(Set<String> expected, String spec, Path dir) {
        // four emulated ranks spin on 2 CPUs: a disturbed pair leaves the tolerance
        MethodsOnSimTest.withRetries(3, () -> {
            List<String> args = new ArrayList<>(List.of("-t", spec));
            args.addAll(SIM);
            MatrixDocument doc = runUnderMpirun(4, dir.resolve("m.json"), args);
            assertEquals(expected, named(doc), () -> spec + ": " + doc.outliers() + "\n" + doc.pairs());
        });
    }

    @Test
    void aSlowLinkNamesExactlyThatPair(@TempDir Path dir) {
        emulatorNames(Set.of("pair 1-3"), BASE + ";link(1,3):L=50us", dir); // ~5 us against ~52 us
    }

    @Test
    void aSlowRankNamesExactlyThatRank(@TempDir Path dir) {
        emulatorNames(Set.of("rank 2"), BASE + ";rank(2):os=25us,or=25us", dir); // its pairs ~29 us
    }

    @Test
    void aUniformNetworkNamesNothing(@TempDir Path dir) {
        emulatorNames(Set.of(), BASE, dir);
    }

    /**
     * --method plogp: every pair's LogGP set (pLogP's first size range) recovers the emulator's
     * parameters, the slow link's L among them; the table, JSON (valid) and CSV carry it.
     */
    @Test
    void plogpGivesEveryPairItsLogGPSet(@TempDir Path dir) {
        Path csv = dir.resolve("m.csv");
        // four emulated ranks spin on 2 CPUs: a disturbed pair leaves the tolerance
        MethodsOnSimTest.withRetries(3, () -> {
            MatrixDocument doc = runUnderMpirun(3, dir.resolve("m.json"), List.of("-t", BASE + ";link(0,2):L=30us",
                    "--method", "plogp", "--plogp-sizes", "0..4K", "--bandwidth-size", "8K", "-n", "100", "--timeout", "20s",
                    "--csv", csv.toString()));
            assertEquals(3, doc.pairs().size());
            for (MatrixDocument.Pair p : doc.pairs()) {
                MatrixDocument.LogGP loggp = p.loggp();
                assertNotNull(loggp, p::toString);
                boolean slow = p.a() == 0 && p.b() == 2;
                double latency = loggp.latencyNs(), os = loggp.sendOverheadNs(), or = loggp.recvOverheadNs(), g = loggp.gapNs();
                // the emulator's L 3 us (30 us on link 0-2), o_s = o_r = 1 us, g = 2 us
                assertEquals(slow ? 30_000 : 3_000, latency, slow ? 3_000 : 750, p::toString);
                assertEquals(1_000, os, 250, p::toString);
                assertEquals(1_000, or, 250, p::toString);
                assertEquals(2_000, g, 500, p::toString);
            }
            List<String> rows;
            try {
                rows = Files.readAllLines(csv);
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
            assertTrue(rows.getFirst().endsWith(",loggp_gap_per_byte_ns,loggp_flags"), rows::getFirst);
            assertFalse(rows.get(1).endsWith(",,,,,,,,"), () -> rows.get(1));
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"ofi:shm", "mpi:openmpi/ob1:vader"})
    void fourRanksPrintTheMatrix(String transport, @TempDir Path dir) throws Exception {
        Path json = dir.resolve("m.json"), csv = dir.resolve("m.csv"), png = dir.resolve("m.png");
        List<String> all = List.of("matrix", "-t", transport, "--bandwidth-size", "256K", "--timeout", "30s",
                "--json", json.toString(), "--csv", csv.toString(), "--plot", png.toString());
        CliRun run = LauncherModeTest.underLauncher("openmpi", 4, all.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run::toString);
        String out = run.out();
        assertTrue(out.contains("4 ranks on 1 host  mode serial  3 rounds, 6 pairs"), out);
        assertTrue(out.contains("latency: median half round trip at 8 B") && out.contains("bandwidth at 256 KiB"), out);
        assertTrue(out.contains("estimate serial     1,000 ranks") && out.contains("estimate parallel 100,000 ranks"), out);
        assertFalse(out.contains("NaN"), out);
        MatrixDocument doc = Schemas.validated(json, MatrixDocument.class);
        assertEquals(4, doc.ranks());
        assertEquals(3, doc.rounds());
        assertEquals(6, doc.pairs().size());
        Set<String> seen = new TreeSet<>();
        for (MatrixDocument.Pair p : doc.pairs()) {
            seen.add(p.a() + "-" + p.b());
            for (double v : List.of(p.latencyNs(), p.latencyMinNs(), p.bandwidthMbS())) {
                assertTrue(v > 0 && Double.isFinite(v), p::toString);
            }
            assertTrue(p.latencyMinNs() <= p.latencyNs(), p::toString);
        }
        assertEquals(Set.of("0-1", "0-2", "0-3", "1-2", "1-3", "2-3"), seen);
        List<String> rows = Files.readAllLines(csv);
        assertEquals(7, rows.size(), () -> String.join("\n", rows));
        assertTrue(rows.getFirst().startsWith("a,b,host_a,host_b,same_host,round,latency_ns,"), rows::getFirst);
        assertTrue(Files.size(png) > 1000);
        // the pairs listed in the document (up to 64 ranks): the ranks' reductions equal the per-pair file's
        assertTrue(doc.pairsListed());
        assertReducedFromTheFile(doc, csv, 4);
    }

    @Test
    void inProcessCallersGetTheTypedDocumentAndParallelRoundsWork() throws Exception {
        // as compare and accept measure: the launched ranks hand their document back, nothing is printed
        Delivery.Measured run = Delivery.measure(List.of("matrix", "-t", "ofi:shm", "--mode", "parallel", "--ranks", "3",
                "--latency-size", "8", "--bandwidth-size", "64K", "--reps", "100", "--bandwidth-reps", "10", "--warmup", "20",
                "--bandwidth-warmup", "2", "--jit-warmup", "1000", "--timeout", "30s", "--retries", "1"));
        assertEquals(0, run.exitCode(), run::toString);
        MatrixDocument doc = (MatrixDocument) run.document();
        assertEquals(MatrixDocument.SCHEMA, doc.schema());
        assertEquals("parallel", doc.mode());
        assertEquals(3, doc.ranks());
        assertEquals(3, doc.rounds(), "an odd number of ranks: n rounds, one rank resting in each");
        assertEquals(3, doc.pairs().size());
        for (MatrixDocument.Pair p : doc.pairs()) assertTrue(p.latencyNs() > 0 && p.bandwidthMbS() > 0, p::toString);
        assertEquals(6, doc.estimates().size(), "both modes at 1 000, 10 000 and 100 000 ranks");
    }

    /**
     * 8 ranks, rank 0 streaming the rows to the file as beyond 64 ranks: the summary, per-host
     * and per-rank figures that the ranks reduced equal those computed here from the --csv file
     * of every pair (fourRanksPrintTheMatrix checks the same with the pairs listed).
     */
    @Test
    void eightRanksReduceToTheFiguresOfTheirPerPairFile(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("m.json"), csv = dir.resolve("m.csv");
        List<String> cmd = new ArrayList<>(LauncherModeTest.launcher("openmpi", 8));
        cmd.addAll(1, List.of("-x", "FABPROBE_MATRIX_LISTED_RANKS"));
        Map<String, String> env = new java.util.HashMap<>(LauncherModeTest.ROOT_OK);
        env.put("FABPROBE_MATRIX_LISTED_RANKS", "4");
        CliRun run;
        try (Spawned s = Spawned.start(cmd, env, "matrix", "-t", "ofi:shm", "-n", "20", "--warmup", "5", "--bandwidth-size", "16K",
                "--bandwidth-reps", "3", "--bandwidth-warmup", "1", "--jit-warmup", "200", "--retries", "1", "--timeout", "60s",
                "--json", json.toString(), "--csv", csv.toString())) {
            run = s.await(java.time.Duration.ofMinutes(4));
        }
        assertEquals(0, run.exitCode(), run::toString);
        MatrixDocument doc = Schemas.validated(json, MatrixDocument.class);
        assertFalse(doc.pairsListed());
        assertEquals(0, doc.pairs().size());
        assertReducedFromTheFile(doc, csv, 8);
        assertTrue(doc.timing().rank0PeakRssBytes() > 10L << 20, doc.timing()::toString);
        assertEquals(6, doc.estimates().size());
    }

    /** The summary, per-host and per-rank figures of {@code doc} (one host) against those of its --csv file's rows. */
    private static void assertReducedFromTheFile(MatrixDocument doc, Path csv, int ranks) throws java.io.IOException {
        int pairs = ranks * (ranks - 1) / 2;
        List<String[]> rows = Files.readAllLines(csv).stream().skip(1).map(l -> l.split(",", -1)).toList();
        assertEquals(pairs, rows.size(), "every pair once");
        assertEquals(pairs, rows.stream().map(r -> r[0] + "-" + r[1]).distinct().count());
        double[] lat = rows.stream().mapToDouble(r -> Double.parseDouble(r[6])).toArray();
        double[] bw = rows.stream().mapToDouble(r -> Double.parseDouble(r[8])).toArray();
        MatrixDocument.Summary s = doc.summary();
        assertEquals(org.fabprobe.model.Robust.median(lat), s.latencyMedianNs());
        assertEquals(org.fabprobe.model.Robust.mad(lat), s.latencyMadNs());
        assertEquals(java.util.Arrays.stream(lat).max().orElseThrow(), s.latencyWorstNs());
        assertEquals(org.fabprobe.model.Robust.median(bw), s.bandwidthMedianMbS());
        assertEquals(org.fabprobe.model.Robust.mad(bw), s.bandwidthMadMbS());
        assertEquals(java.util.Arrays.stream(bw).min().orElseThrow(), s.bandwidthWorstMbS());
        assertEquals(rows.stream().filter(r -> r[11].equals("true")).count(), s.disturbedPairs());
        MatrixDocument.Group host = doc.perHost().getFirst();
        assertEquals(pairs, host.pairs());
        assertEquals(s.latencyMedianNs(), host.latencyNs(), "one host: its pairs are all pairs");
        for (int rank = 0; rank < ranks; rank++) {
            String me = Integer.toString(rank);
            double[] mine = rows.stream().filter(r -> r[0].equals(me) || r[1].equals(me)).mapToDouble(r -> Double.parseDouble(r[6])).toArray();
            assertEquals(org.fabprobe.model.Robust.median(mine), doc.perRank().get(rank).latencyNs(), me);
        }
    }

    @Test
    void badInputIsRefusedInOneLine() {
        CliRun mode = CliRun.of("matrix", "--mode", "diagonal");
        assertEquals(ExitCode.USAGE, mode.exitCode(), mode::toString);
        assertTrue(mode.err().contains("--mode must be serial or parallel"), mode::toString);
        assertEquals(1, mode.err().strip().lines().count(), mode::toString);
        CliRun ranks = CliRun.of("matrix", "--ranks", "1");
        assertEquals(ExitCode.USAGE, ranks.exitCode(), ranks::toString);
        CliRun plot = CliRun.of("matrix", "--plot", "m.gif");
        assertEquals(ExitCode.USAGE, plot.exitCode(), plot::toString);
        CliRun sim = CliRun.of("matrix", "-t", "sim:L=1us;link(1):L=2us");
        assertEquals(ExitCode.USAGE, sim.exitCode(), sim::toString);
    }
}
