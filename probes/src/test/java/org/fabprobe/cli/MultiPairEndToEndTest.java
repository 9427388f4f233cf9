package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.report.MultiPairReport;
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
            Map<?, ?> doc = validDocument(read(json));
            Map<?, ?> model = (Map<?, ?>) doc.get("model");
            assertNotNull(model, doc::toString);
            for (String k : List.of("chunk_bytes", "raw_bandwidth_mb_s", "raw_bandwidth_err_mb_s", "t1_ns", "t1_err_ns", "rms_rel_residual")) {
                assertTrue(model.get(k) instanceof Number n && Double.isFinite(n.doubleValue()), k + " not finite: " + model);
            }
            assertTrue(number(model.get("raw_bandwidth_mb_s")) > 0, model::toString);
            if (Boolean.TRUE.equals(model.get("chunk_resolved"))) {
                assertTrue(model.get("chunk_err_bytes") instanceof Number, model::toString);
            }
            assertEquals(7.0, number(model.get("points")), model::toString);
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
        Map<?, ?> doc = validDocument(run.out().strip());
        assertEquals("ranks 4", ((Map<?, ?>) doc.get("settings")).get("launch"), doc::toString);
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
    private static Map<?, ?> validDocument(String text) {
        Map<?, ?> doc = org.fabprobe.result.Schemas.validated(text);
        assertEquals(MultiPairReport.SCHEMA, doc.get("schema"));
        assertEquals("multipair", doc.get("command"));
        assertEquals("mpi:openmpi/ob1:vader", doc.get("transport"));
        assertEquals(2.0, number(doc.get("pairs")), doc::toString);
        for (String k : List.of("transport_facts", "settings", "host", "clock")) assertTrue(doc.get(k) instanceof Map, k);
        assertEquals("self,vader", ((Map<?, ?>) doc.get("transport_facts")).get("env.OMPI_MCA_btl"));
        List<?> sizes = (List<?>) doc.get("sizes");
        assertEquals(SIZES.length, sizes.size(), doc::toString);
        for (int i = 0; i < SIZES.length; i++) {
            Map<?, ?> s = (Map<?, ?>) sizes.get(i);
            String where = s.toString();
            assertEquals(SIZES[i], (long) number(s.get("size_bytes")), where);
            assertEquals(REPS[i], (long) number(s.get("repetitions")), where);
            assertEquals(3.0, number(s.get("samples")), where);
            Map<?, ?> loop = (Map<?, ?>) s.get("loop_ns");
            double min = number(loop.get("min")), median = number(loop.get("median")), max = number(loop.get("max"));
            // 4 n x bytes cross in the loop; faster than 100 GB/s would be no measurement, slower than a minute broken
            assertTrue(min > 4.0 * REPS[i] * SIZES[i] / 100 && min <= median && median <= max && max < 60e9, where);
            assertEquals(3, ((List<?>) s.get("sample_loop_ns")).size(), where);
            assertEquals(2, ((List<?>) s.get("pair_loop_ns")).size(), where);
            assertEquals(4e3 * SIZES[i] * REPS[i] / median, number(s.get("aggregated_bandwidth_mb_s")),
                    1e-9 * number(s.get("aggregated_bandwidth_mb_s")), where);
            assertEquals(Boolean.TRUE, s.get("fitted"), where);
        }
        assertTrue(doc.get("notes") instanceof List<?>, doc::toString);
        return doc;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static double number(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }
}
