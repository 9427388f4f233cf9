package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.fabprobe.result.PingPongDocument;
import org.fabprobe.result.Schemas;
import org.fabprobe.runtime.CpuAffinity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measure and mirror on one CPU (as under taskset -c 0): the table's first line and the flags
 * say so before anyone reads a time. The run is slow, never judged by its speed.
 */
class SharedCpuTest {

    @Test
    void oneAllowedCpuIsStatedOnTheFirstLineAndFlagged(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("out.json");
        int cpu = CpuAffinity.allowedCpus()[0];
        CliRun run;
        // the local mirror inherits this thread's single CPU, as a child of taskset -c 0 would
        try (CpuAffinity.Pinned pinned = CpuAffinity.pinCurrentThread(cpu)) {
            run = CliRun.of("pingpong", "-t", "ofi:shm", "-s", "8", "-n", "200", "--warmup", "10", "--timeout", "60s",
                    "--json", json.toString());
        }
        assertEquals(0, run.exitCode(), run::toString);
        String firstLine = run.out().lines().findFirst().orElse("");
        assertTrue(firstLine.startsWith("fabprobe pingpong") && firstLine.contains("measure and mirror share CPU " + cpu),
                run::toString);
        String doc = Files.readString(json);
        PingPongDocument parsed = Schemas.validated(doc, PingPongDocument.class);
        assertTrue(doc.contains("\"SHARED CPU: measure and mirror share CPU " + cpu), doc);

        // every attempt would be disturbed alike: none is repeated
        assertEquals(0, parsed.sizes().getFirst().remeasured(), doc);
    }
}
