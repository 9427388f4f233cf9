package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.fabprobe.result.Schemas;
import org.fabprobe.runtime.CpuAffinity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ranks that outnumber their host's CPUs, found before timing: the launcher (and so every rank)
 * is started by a thread allowed a single CPU, as under taskset -c 0, so that two ranks share
 * it on any host. The first line and the JSON say so; the times are not judged.
 */
class SharedCpusEndToEndTest {

    @Test
    void matrixInLocalModeStatesItOnTheFirstLine(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("matrix.json");
        int cpu = CpuAffinity.allowedCpus()[0];
        CliRun run;
        try (CpuAffinity.Pinned pinned = CpuAffinity.pinCurrentThread(cpu)) {
            run = CliRun.of("matrix", "--ranks", "2", "-n", "20", "--warmup", "5", "--jit-warmup", "200", "--bandwidth-size", "64K",
                    "--bandwidth-reps", "5", "--timeout", "60s", "--json", json.toString());
        }
        assertEquals(0, run.exitCode(), run::toString);
        assertShared(run, "fabprobe matrix", Files.readString(json));
    }

    @Test
    void multipairUnderMpirunStatesItOnTheFirstLine(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("multipair.json");
        int cpu = CpuAffinity.allowedCpus()[0];
        CliRun run;
        try (CpuAffinity.Pinned pinned = CpuAffinity.pinCurrentThread(cpu)) {
            run = LauncherModeTest.underLauncher("openmpi", 2, "multipair", "-t", "mpi:openmpi/ob1:vader", "-s", "8,1K",
                    "--reps", "20", "--samples", "2", "--warmup", "2", "--jit-warmup", "50ms", "--json", json.toString());
        }
        assertEquals(0, run.exitCode(), run::toString);
        assertShared(run, "fabprobe multipair", Files.readString(json));
    }

    private static void assertShared(CliRun run, String command, String doc) {
        String firstLine = run.out().lines().findFirst().orElse("");
        assertTrue(firstLine.startsWith(command) && firstLine.contains("ranks share CPUs: 2 ranks on 1 CPU of "), run::toString);
        assertTrue(run.out().contains("flag: SHARED CPUS: "), run::toString);
        Map<String, Object> parsed = Schemas.validated(doc);
        List<?> shared = (List<?>) parsed.get("shared_cpus");
        assertEquals(1, shared.size(), doc);
        Map<?, ?> host = (Map<?, ?>) shared.getFirst();
        assertEquals(2, ((Number) host.get("ranks")).intValue(), doc);
        assertEquals(1, ((Number) host.get("cpus")).intValue(), doc);
        assertEquals(1, ((Number) host.get("at_once")).intValue(), doc);
    }
}
