package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.fabprobe.result.BandwidthDocument;
import org.fabprobe.result.ResultJson;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** bandwidth --op write|read over the real UCX, libfabric and MPI: CLI -> mirror process -> windows of one-sided operations -> JSON. */
class OneSidedBandwidthEndToEndTest {

    @ParameterizedTest
    // each library and op once, not every pair: each run pays a JVM pair's start and JIT warm-up
    @CsvSource({"ucx:posix,write,ucp_ep_flush_nbx", "ofi:shm,write,completion", "ofi:shm,read,completion",
            "ofi:tcp,write,completion", "mpi:openmpi/ucx:posix,write,MPI_Win_flush after"})
    void windowsOfOneSidedOperationsRunAndTheirJsonValidates(String transport, String op, String completion,
                                                            @TempDir Path dir) throws Exception {
        Path json = dir.resolve("out.json");
        CliRun run = CliRun.of("bandwidth", "--op", op, "-t", transport, "-s", "8,64K", "-w", "16", "-n", "20",
                "--warmup", "2", "--timeout", "30s", "--json", json.toString());
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("op " + op + "  transport " + transport), run::toString);
        String text = Files.readString(json);
        Schemas.validated(text);
        BandwidthDocument doc = ResultJson.read(text, BandwidthDocument.class);
        assertEquals(op, doc.header().settings().op());
        assertTrue(doc.header().settings().windowCompletion().contains(completion), doc.header().settings()::toString);
        assertEquals(2, doc.sizes().size(), text);
        for (BandwidthDocument.Size s : doc.sizes()) {
            assertEquals(16, s.window());
            assertEquals(20, s.windows());
            // both figures come from the same median window: bytes per second = size x messages per second
            assertTrue(s.bandwidthMbS() > 0 && s.messageRate() > 0, text);
            assertEquals(s.sizeBytes() * s.messageRate() / 1e6, s.bandwidthMbS(), s.bandwidthMbS() * 1e-6, text);
            assertEquals(16 / s.windowNs().median() * 1e9, s.messageRate(), s.messageRate() * 1e-6, text);
        }
    }

    @Test
    void twoSidedBandwidthSaysSendAndItsAcknowledgement(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("out.json");
        CliRun run = CliRun.of("bandwidth", "-t", "ofi:shm", "-s", "1K", "-w", "4", "-n", "5", "--warmup", "1",
                "--timeout", "30s", "--json", json.toString());
        assertEquals(0, run.exitCode(), run::toString);
        assertFalse(run.out().contains(" op "), run::toString); // the title as before
        String text = Files.readString(json);
        Schemas.validated(text);
        BandwidthDocument doc = ResultJson.read(text, BandwidthDocument.class);
        assertEquals("send", doc.header().settings().op());
        assertTrue(doc.header().settings().windowCompletion().contains("acknowledgement"), doc.header().settings()::toString);
    }

    @Test
    void theEmulatorStreamsReadsToo() {
        // every family offers one-sided operations now (sim: since SimTransport implements OneSided)
        CliRun run = CliRun.of("bandwidth", "--op", "read", "-t", "sim:L=3us,os=1us,or=1us,g=2us", "-s", "8", "-n", "10",
                "--json", "-");
        assertEquals(0, run.exitCode(), run::toString);
        Schemas.validated(run.out());
        assertEquals("read", ResultJson.read(run.out(), BandwidthDocument.class).header().settings().op(), run::toString);
    }

    @Test
    void atomicsAndEmptyMessagesAreNotBandwidthOps() {
        CliRun atomic = CliRun.of("bandwidth", "--op", "fetch-add", "-t", "ucx:posix", "-s", "8");
        assertEquals(2, atomic.exitCode(), atomic::toString);
        assertEquals(1, atomic.err().strip().lines().count(), atomic::toString);
        CliRun empty = CliRun.of("bandwidth", "--op", "write", "-t", "ucx:posix", "-s", "0,8");
        assertEquals(2, empty.exitCode(), empty::toString);
        assertTrue(empty.err().contains("1 B"), empty::toString);
    }
}
