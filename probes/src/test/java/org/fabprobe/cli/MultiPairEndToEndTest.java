package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.report.MultiPairReport;
import org.fabprobe.result.MultiPairDocument;
import org.fabprobe.result.ResultJson;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `fabprobe multipair` with the real Open MPI of this machine, 2 pairs = 4 ranks on 2 cores
 * (oversubscribed): under mpirun as a user starts it, and in local mode. The machine is small
 * and shared: no timing assertions beyond physical sanity; the fit must exist and be finite.
 */
class MultiPairEndToEndTest {
    /** n(x) = min(40, 4 MiB / x): 40, 40, 40, 32, 16, 8, 4 ping-pongs for 16 KiB .. 1 MiB. */
    private static final List<String> ARGS = List.of("multipair", "-t", "mpi:openmpi/ob1:vader", "-s", "16K..1M",
            "--reps", "40", "--volume", "4M", "--samples", "3", "--warmup", "2", "--jit-warmup", "100ms");
    private static final long[] SIZES = {16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20};
    private static final long[] REPS = {40, 40, 40, 32, 16, 8, 4};

    @Test
    void twoPairsUnderMpirun(@TempDir Path dir) {
        // four ranks spin on 2 CPUs: a scheduler time slice inside a timed size moves the fit
        MethodsOnSimTest.withRetries(2, () -> {
            Path json = dir.resolve("m.json"), csv = dir.resolve("m.csv");
            CliRun run;
            try {
                run = LauncherModeTest.underLauncher("openmpi", 4, args("--json", json.toString(), "--csv", csv.toString()));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            assertEquals(0, run.exitCode(), run::toString);
            assertEquals(1, LauncherModeTest.occurrences(run.out(), "fabprobe multipair "), "one table, rank 0's: " + run);
            assertTrue(run.out().contains("Hager-Wellein fit") && run.out().contains("B_r = "), run::toString);
            MultiPairDocument doc = validDocument(read(json));
            MultiPairDocument.Model model = doc.model();
            assertNotNull(model, doc::toString);
            // a null (no value) reads back as NaN
            Map.of("chunk_bytes", model.chunkBytes(), "raw_bandwidth_mb_s", model.rawBandwidthMbS(),
                    "raw_bandwidth_err_mb_s", model.rawBandwidthErrMbS(), "t1_ns", model.t1Ns(), "t1_err_ns", model.t1ErrNs(),
                    "rms_rel_residual", model.rmsRelResidual())
                    .forEach((k, v) -> assertTrue(Double.isFinite(v), k + " not finite: " + model));
            assertTrue(model.rawBandwidthMbS() > 0, model::toString);
            if (model.chunkResolved()) assertFalse(Double.isNaN(model.chunkErrBytes()), model::toString);
            assertEquals(7, model.points(), model::toString);
            List<String> lines;
            try {
                lines = Files.readAllLines(csv);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            assertEquals(SIZES.length + 1, lines.size(), () -> String.join("\n", lines));
            assertTrue(lines.getFirst().startsWith("size_bytes,repetitions,samples,"), lines::getFirst);
            assertTrue(lines.get(4).startsWith("131072,32,3,"), () -> String.join("\n", lines));
        });
    }

    @Test
    void localModeStartsFourRanksItself() {
        CliRun run = CliRun.of(args("--json", "-"));
        assertEquals(0, run.exitCode(), run::toString);
        MultiPairDocument doc = validDocument(run.out().strip());
        assertEquals("ranks 4", doc.header().settings().launch(), doc::toString);
    }

    @Test
    void badInputIsRefusedInOneLine() throws Exception {
        CliRun raw = CliRun.of("multipair", "-t", "ofi:shm");
        assertEquals(ExitCode.USAGE, raw.exitCode(), raw::toString);
        assertTrue(raw.err().contains("mpi:IMPL") && raw.err().contains("ofi:shm"), raw::toString);
        assertEquals(1, raw.err().strip().lines().count(), raw::toString);
        CliRun pairs = CliRun.of("multipair", "--pairs", "0");
        assertEquals(ExitCode.USAGE, pairs.exitCode(), pairs::toString);
        CliRun unknown = CliRun.of("multipair", "-t", "mpi:lam/ucx:tcp");
        assertEquals(ExitCode.UNKNOWN_TRANSPORT, unknown.exitCode(), unknown::toString);
        // an odd world has no pairing: rank 0 says so once, every rank leaves
        CliRun odd = LauncherModeTest.underLauncher("openmpi", 3, "multipair", "-s", "1K", "--jit-warmup", "1ms");
        assertEquals(ExitCode.USAGE, odd.exitCode(), odd::toString);
        assertEquals(1, LauncherModeTest.occurrences(odd.err(), "even number of ranks"), odd::toString);
    }

    private static String[] args(String... extra) {
        List<String> a = new java.util.ArrayList<>(ARGS);
        a.addAll(List.of(extra));
        return a.toArray(String[]::new);
    }

    /** The fabprobe.multipair/2 document: its fields, their types, and eq. (6) against the loop times. */
    private static MultiPairDocument validDocument(String text) {
        MultiPairDocument doc = Schemas.validated(text, MultiPairDocument.class);
        assertEquals(MultiPairReport.SCHEMA, doc.schema());
        assertEquals("multipair", doc.command());
        assertEquals("mpi:openmpi/ob1:vader", doc.transport());
        assertEquals(2, doc.pairs(), doc::toString);
        assertNotNull(doc.transportFacts(), "transport_facts");
        assertNotNull(doc.header().settings(), "settings");
        assertNotNull(doc.host(), "host");
        assertNotNull(doc.clock(), "clock");
        assertEquals("self,vader", doc.transportFacts().get("env.OMPI_MCA_btl"));
        List<MultiPairDocument.Size> sizes = doc.sizes();
        assertEquals(SIZES.length, sizes.size(), doc::toString);
        for (int i = 0; i < SIZES.length; i++) {
            MultiPairDocument.Size s = sizes.get(i);
            String where = ResultJson.write(s); // the record's own toString hides its arrays
            assertEquals(SIZES[i], s.sizeBytes(), where);
            assertEquals(REPS[i], s.repetitions(), where);
            assertEquals(3, s.samples(), where);
            double min = s.loopNs().min(), median = s.loopNs().median(), max = s.loopNs().max();
            // 4 n x bytes cross in the loop; faster than 100 GB/s would be no measurement, slower than a minute broken
            assertTrue(min > 4.0 * REPS[i] * SIZES[i] / 100 && min <= median && median <= max && max < 60e9, where);
            assertEquals(3, s.sampleLoopNs().length, where);
            assertEquals(2, s.pairLoopNs().length, where);
            assertEquals(4e3 * SIZES[i] * REPS[i] / median, s.aggregatedBandwidthMbS(), 1e-9 * s.aggregatedBandwidthMbS(), where);
            assertTrue(s.fitted(), where);
        }
        assertNotNull(doc.notes(), doc::toString);
        return doc;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
