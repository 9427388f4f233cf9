package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** `fabprobe register` on the real libraries: one process registers and deregisters per size. */
class RegisterEndToEndTest {

    @ParameterizedTest
    @ValueSource(strings = {"ofi:shm", "ofi:tcp", "ucx:posix"})
    @SuppressWarnings("unchecked")
    void everySizeGetsFirstAndRepeatedRegistrationTimes(String transport, @TempDir Path dir) throws Exception {
        Path json = dir.resolve("register.json");
        Path csv = dir.resolve("register.csv");
        CliRun run = CliRun.of("register", "-t", transport, "-s", "4K..1M", "-n", "5", "--json", json.toString(),
                "--csv", csv.toString());
        assertEquals(0, run.exitCode(), run::toString);
        Map<String, Object> doc = Schemas.validated(Files.readString(json));
        assertEquals("fabprobe.register/1", doc.get("schema"));
        assertEquals(transport, doc.get("transport"));
        List<Map<String, Object>> sizes = (List<Map<String, Object>>) doc.get("sizes");
        assertEquals(9, sizes.size()); // 4K, 8K, ..., 1M
        assertEquals(1048576.0, sizes.getLast().get("size_bytes"));
        for (Map<String, Object> s : sizes) {
            for (String series : List.of("first_register_ns", "first_deregister_ns", "register_ns", "deregister_ns")) {
                Map<String, Object> stats = (Map<String, Object>) s.get(series);
                double min = (Double) stats.get("min"), median = (Double) stats.get("median"), max = (Double) stats.get("max");
                assertTrue(min > 0 && min <= median && median <= max, series + " " + stats);
            }
        }
        Map<String, Object> cache = (Map<String, Object>) doc.get("registration_cache");
        assertFalse(((String) cache.get("reason")).isEmpty(), doc::toString);
        assertTrue(run.out().contains("registration cache:") && run.out().contains("1 MiB"), run::toString);
        assertEquals(10, Files.readAllLines(csv).size(), () -> csv.toString()); // header and 9 sizes
    }

    @Test
    void badInputGetsOneLineAndItsExitCode() {
        CliRun unknownProvider = CliRun.of("register", "-t", "ofi:nosuch", "-s", "4K");
        assertEquals(ExitCode.UNKNOWN_TRANSPORT, unknownProvider.exitCode(), unknownProvider::toString);
        assertEquals(1, unknownProvider.err().strip().lines().count(), unknownProvider::toString);
        CliRun unknownTls = CliRun.of("register", "-t", "ucx:nosuch", "-s", "4K");
        assertEquals(ExitCode.UNKNOWN_TRANSPORT, unknownTls.exitCode(), unknownTls::toString);
        CliRun sim = CliRun.of("register", "-t", "sim:L=1us", "-s", "4K");
        assertEquals(ExitCode.UNKNOWN_TRANSPORT, sim.exitCode(), sim::toString);
        CliRun badSize = CliRun.of("register", "-t", "ofi:shm", "-s", "4Q");
        assertEquals(ExitCode.USAGE, badSize.exitCode(), badSize::toString);
        assertEquals(1, badSize.err().strip().lines().count(), badSize::toString);
        CliRun zero = CliRun.of("register", "-t", "ofi:shm", "-s", "0");
        assertEquals(ExitCode.USAGE, zero.exitCode(), zero::toString);
        CliRun huge = CliRun.of("register", "-t", "ofi:shm", "-s", "4096G", "-n", "1");
        assertEquals(ExitCode.UNSUPPORTED, huge.exitCode(), huge::toString);
    }
}
