package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.fabprobe.ExitCode;
import org.fabprobe.result.RegisterDocument;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** `fabprobe register` on the real libraries: one process registers and deregisters per size. */
class RegisterEndToEndTest {

    @ParameterizedTest
    @ValueSource(strings = {"ofi:shm", "ofi:tcp", "ucx:posix"})
    void everySizeGetsFirstAndRepeatedRegistrationTimes(String transport, @TempDir Path dir) throws Exception {
        Path json = dir.resolve("register.json");
        Path csv = dir.resolve("register.csv");
        CliRun run = CliRun.of("register", "-t", transport, "-s", "4K..1M", "-n", "5", "--json", json.toString(),
                "--csv", csv.toString());
        assertEquals(0, run.exitCode(), run::toString);
        RegisterDocument doc = Schemas.validated(json, RegisterDocument.class);
        assertEquals(RegisterDocument.SCHEMA, doc.header().schema());
        assertEquals(transport, doc.header().transport());
        List<RegisterDocument.Size> sizes = doc.sizes();
        assertEquals(9, sizes.size()); // 4K, 8K, ..., 1M
        assertEquals(1048576, sizes.getLast().sizeBytes());
        for (RegisterDocument.Size s : sizes) {
            for (RegisterDocument.Stats stats : List.of(s.firstRegisterNs(), s.firstDeregisterNs(), s.registerNs(), s.deregisterNs())) {
                assertTrue(stats.min() > 0 && stats.min() <= stats.median() && stats.median() <= stats.max(), s::toString);
            }
        }
        assertFalse(doc.registrationCache().reason().isEmpty(), doc::toString);
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
