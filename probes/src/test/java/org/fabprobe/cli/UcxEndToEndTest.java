package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.fabprobe.ExitCode;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** ucx:TLS through the same local mode, pattern and reports as ofi. */
class UcxEndToEndTest {

    @ParameterizedTest
    @ValueSource(strings = {"ucx:tcp", "ucx:posix,cma"})
    void sweepThroughLocalMode(String transport, @TempDir Path dir) throws Exception {
        Path json = dir.resolve("out.json");
        CliRun run = CliRun.of("pingpong", "-t", transport, "-s", "0,8,1K,256K", "-n", "300", "--warmup", "20",
                "--timeout", "20s", "--json", json.toString());
        assertEquals(0, run.exitCode(), run::toString);
        String doc = Files.readString(json);
        Schemas.validated(doc);
        assertTrue(doc.contains("\"library\": \"UCX 1."), doc);
        assertTrue(doc.contains("\"tls\": \"" + transport.substring(4) + "\""), doc);
        assertTrue(doc.contains("\"size_bytes\": 262144"), doc);
    }

    @Test
    void unknownTlsIsRefusedWithTheAvailableOnes() {
        CliRun run = CliRun.of("pingpong", "-t", "ucx:nosuchtls", "-s", "8");
        assertEquals(ExitCode.UNKNOWN_TRANSPORT, run.exitCode(), run::toString);
        assertTrue(run.err().contains("nosuchtls") && run.err().contains("available: ") && run.err().contains("tcp"),
                run::toString);
        assertEquals(1, run.err().strip().lines().count(), run::toString);
    }

    @Test
    void providersListsUcxTransports() {
        CliRun run = CliRun.of("providers");
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("UCX 1.") && run.out().lines().anyMatch(l -> l.startsWith("ucx:tcp ")), run::toString);
    }
}
