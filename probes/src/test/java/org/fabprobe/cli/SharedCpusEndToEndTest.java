package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.fabprobe.result.MatrixDocument;
import org.fabprobe.result.MultiPairDocument;
import org.fabprobe.result.Schemas;
import org.fabprobe.result.SharedCpus;
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
        String doc = Files.readString(json);
        assertShared(run, "fabprobe matrix", doc, () -> Schemas.validated(doc, MatrixDocument.class).sharedCpus());
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
        String doc = Files.readString(json);
        assertShared(run, "fabprobe multipair", doc, () -> Schemas.validated(doc, MultiPairDocument.class).sharedCpus());
    }

    /** {@code sharedCpus} validates {@code doc} and reads its shared_cpus (each command has its own document type). */
    private static void assertShared(CliRun run, String command, String doc, Supplier<List<SharedCpus>> sharedCpus) {
        String firstLine = run.out().lines().findFirst().orElse("");
        assertTrue(firstLine.startsWith(command) && firstLine.contains("ranks share CPUs: 2 ranks on 1 CPU of "), run::toString);
        assertTrue(run.out().contains("flag: SHARED CPUS: "), run::toString);
        List<SharedCpus> shared = sharedCpus.get();
        assertEquals(1, shared.size(), doc);
        SharedCpus host = shared.getFirst();
        assertEquals(2, host.ranks(), doc);
        assertEquals(1, host.cpus(), doc);
        assertEquals(1, host.atOnce(), doc);
    }
}
