package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** pingpong --op over the real UCX, libfabric and MPIs: CLI -> mirror process (or MPI rank) -> one-sided operations -> JSON. */
class OneSidedEndToEndTest {

    @ParameterizedTest
    // every op on each library once, not every pair: each run pays a JVM pair's start and JIT warm-up
    @CsvSource({"ucx:posix,write", "ucx:posix,read", "ucx:posix,cswap", "ofi:shm,fetch-add", "ofi:shm,write", "ofi:shm,cswap",
            "ofi:tcp,read", "mpi:openmpi/ob1:vader,write", "mpi:openmpi/ucx:posix,cswap", "'mpi:mpich/ucx:posix,cma',read"})
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
        assertEquals(!op.equals("fetch-add") && !op.equals("cswap"), doc.contains("\"size_bytes\": 4096"), doc);
        if (transport.startsWith("mpi:")) {
            // who must progress: the osc component chosen for the selection, said with every run
            String osc = transport.startsWith("mpi:mpich") ? "ch4" : transport.contains("ob1:vader") ? "osc sm" : "osc ucx";
            assertTrue(doc.contains("\"osc\": \"" + osc), doc);
            assertTrue(doc.contains("\"one_sided_progress\": \"" + (osc.equals("ch4") ? "not known" : "native")), doc);
            assertTrue(doc.contains("\"window_model\": \""), doc);
        }
    }
}
