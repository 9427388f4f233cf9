package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.fabprobe.result.ResultJson;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * pingpong --op OP --target passive over the real libraries: the target makes no library call,
 * and the run says whether the op completes so, and what it costs the target where not.
 */
class TargetProgressEndToEndTest {

    @ParameterizedTest
    @CsvSource({
            // libfabric shm applies atomics only inside the target's progress
            "ofi:shm,fetch-add,false",
            // UCX over tcp emulates get with active messages that the target's worker serves
            "ucx:tcp,read,false",
            // shared memory puts land without the target
            "'ucx:posix,cma',write,true",
            // Open MPI's osc over UCX shared memory: the target naps (MPI is the control channel), the get completes
            "mpi:openmpi/ucx:posix,read,true",
            // MPICH's ch4 serves a get only inside the target's MPI calls: MPI_Win_flush returns after the target's bounded nap
            "mpi:mpich,read,false",
            // the emulator applies a write only in the target's progress: the bounded wait ends it
            "'sim:L=20us,os=2us,or=3us,g=4us,G=0.5ns/B',write,false"})
    void saysWhoMustProgress(String transport, String op, boolean nativeOp, @TempDir Path dir) throws Exception {
        Path json = dir.resolve("out.json");
        long start = System.nanoTime();
        CliRun run = CliRun.of("pingpong", "--op", op, "--target", "passive", "-t", transport, "-s", "8", "-n", "200",
                "--warmup", "20", "--timeout", "30s", "--json", json.toString());
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("Who must progress"), run::toString);
        String doc = Files.readString(json);
        Schemas.validated(doc);
        JsonNode row = ResultJson.tree(doc).path("target_progress").path(0);
        assertEquals(8, row.path("size_bytes").asLong(), doc);
        if (nativeOp) {
            assertEquals("completes", row.path("passive").asText(), doc);
            assertEquals("native: no target CPU", row.path("verdict").asText(), doc);
            assertEquals(220, row.path("passive_operations").asInt(), doc);
        } else {
            assertEquals("does not complete without target progress", row.path("passive").asText(), doc);
            assertTrue(row.path("verdict").asText().startsWith("emulated: needs the target to progress, "), doc);
            assertTrue(run.out().contains("does not complete without target progress"), run::toString);
            // with the target progressing it completes (all 220, or as many as the 1 s budget took on a loaded host)
            assertTrue(row.path("active_operations").asInt() > 0, doc);
            assertFalse(row.path("target_memory_seen").asBoolean() && !op.equals("read"), doc);
            if (transport.equals("ucx:tcp")) {
                // serving an emulated get (a socket read and a reply) costs the target CPU: more than nothing, less than its latency
                double cpu = row.path("target_cpu_ns_per_op").asDouble();
                assertTrue(cpu > 0 && cpu < 5 * row.path("active_median_ns").asDouble() + 50_000, doc);
            }
        }
        // bounded: the passive phase ends within its budget and stall bound, never at --timeout
        assertTrue(seconds < 40, "took " + seconds + " s");
    }
}
