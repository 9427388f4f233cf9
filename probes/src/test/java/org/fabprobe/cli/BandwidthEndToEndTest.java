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

/** Streaming bandwidth through local mode on libfabric and UCX. */
class BandwidthEndToEndTest {

    @ParameterizedTest
    @ValueSource(strings = {"ofi:shm", "ofi:tcp", "ucx:posix,cma", "ucx:tcp"})
    void windowsOfMessagesGiveABandwidthPerSize(String transport, @TempDir Path dir) throws Exception {
        Path json = dir.resolve("bw.json");
        CliRun run = CliRun.of("bandwidth", "-t", transport, "-s", "8,64K", "-w", "16", "-n", "20", "--warmup", "2",
                "--timeout", "20s", "--json", json.toString());
        assertEquals(0, run.exitCode(), run::toString);
        String doc = Files.readString(json);
        Schemas.validated(doc);
        assertTrue(doc.contains("\"schema\": \"fabprobe.bandwidth/3\""), doc);
        assertTrue(doc.contains("\"size_bytes\": 65536") && doc.contains("\"window\": 16"), doc);
        assertTrue(run.out().contains("64 KiB"), run::toString);
    }

    @Test
    void windowIsBounded() {
        assertEquals(ExitCode.USAGE, CliRun.of("bandwidth", "-w", "0").exitCode());
        assertEquals(ExitCode.USAGE, CliRun.of("bandwidth", "-w", "100000").exitCode());
    }
}
