package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** pingpong --op over the real UCX and libfabric: CLI -> mirror process -> one-sided operations -> JSON. */
class OneSidedEndToEndTest {

    @ParameterizedTest
    // every op on each library once, not every pair: each run pays a JVM pair's start and JIT warm-up
    @CsvSource({"ucx:posix,write", "ucx:posix,read", "ofi:shm,fetch-add", "ofi:shm,write", "ofi:tcp,read"})
    void opRunsAndItsJsonValidates(String transport, String op, @TempDir Path dir) throws Exception {
        Path json = dir.resolve("out.json");
        CliRun run = CliRun.of("pingpong", "--op", op, "-t", transport, "-s", "8,4K", "-n", "200", "--warmup", "20",
                "--timeout", "30s", "--json", json.toString());
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("op " + op), run::toString);
        String doc = Files.readString(json);
        Schemas.validated(doc);
        assertTrue(doc.contains("\"op\": \"" + op + "\""), doc);
        assertTrue(doc.contains("\"size_bytes\": 8"), doc);
        // atomics run on 8 B only; writes and reads on every size asked for
        assertEquals(!op.equals("fetch-add"), doc.contains("\"size_bytes\": 4096"), doc);
    }

    @Test
    void transportWithoutOneSidedOperationsIsRefusedInOneLine() {
        CliRun run = CliRun.of("pingpong", "--op", "write", "-t", "sim:L=3us,os=1us,or=1us,g=2us", "-s", "8", "-n", "10");
        assertEquals(3, run.exitCode(), run::toString);
        String err = run.err().strip();
        assertEquals(1, err.lines().count(), run::toString);
        assertTrue(err.contains("sim:") && err.contains("ucx:posix") && err.contains("ofi:shm"), err);
    }
}
