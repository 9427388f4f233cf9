package org.fabprobe.api;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.fabprobe.result.BandwidthDocument;
import org.fabprobe.result.PingPongDocument;
import org.fabprobe.result.RegisterDocument;
import org.fabprobe.transport.Op;
import org.junit.jupiter.api.Test;

/** Measurements through the Java API: each request refuses what its command refuses, and a run returns the typed document. */
class FabprobeApiTest {
    @Test
    void badRequestsAreRefusedBeforeAnythingRuns() {
        BandwidthRequest shm = BandwidthRequest.of("ofi:shm");
        assertThrows(IllegalArgumentException.class, () -> shm.window(0));
        assertThrows(IllegalArgumentException.class, () -> shm.window(BandwidthRequest.MAX_WINDOW + 1));
        assertThrows(IllegalArgumentException.class, () -> shm.op(Op.FETCH_ADD));
        assertThrows(IllegalArgumentException.class, () -> shm.sizes(0, 64).op(Op.WRITE));
        assertThrows(IllegalArgumentException.class, () -> shm.repetitions(0));
        assertThrows(IllegalArgumentException.class, () -> shm.sizes(new long[0]));
    }

    @Test
    void aSweepOverSharedMemoryReturnsItsDocument() {
        BandwidthDocument doc = Fabprobe.bandwidth(BandwidthRequest.of("ofi:shm").sizes(4096, 65536).window(16).repetitions(20));
        assertEquals(BandwidthDocument.SCHEMA, doc.schema());
        assertEquals("bandwidth", doc.command());
        assertEquals("send", doc.header().settings().op());
        assertEquals(2, doc.sizes().size());
        for (BandwidthDocument.Size s : doc.sizes()) {
            assertEquals(16, s.window());
            assertEquals(20, s.windows());
            assertTrue(s.bandwidthMbS() > 0 && s.messageRate() > 0, s.toString());
            // bandwidth is size * window / median window time: the document's figures agree with each other
            assertEquals(s.sizeBytes() * 16 / s.windowNs().median() * 1e3, s.bandwidthMbS(), s.bandwidthMbS() * 1e-9);
        }
    }

    @Test
    void overMpiTheSweepsRunAsTwoLocalRanks() {
        // MPI starts once per process: outside a launcher the API starts two ranks and reads rank 0's document
        PingPongDocument pp = Fabprobe.pingPong(PingPongRequest.of("mpi:openmpi/ob1:vader").sizes(8, 4096).repetitions(200));
        assertEquals("mpi:openmpi/ob1:vader", pp.header().transport());
        assertEquals(2, pp.sizes().size());
        for (PingPongDocument.Size s : pp.sizes()) assertTrue(s.halfRttNs().median() > 0, s.toString());
        BandwidthDocument bw = Fabprobe.bandwidth(BandwidthRequest.of("mpi:openmpi/ob1:vader").sizes(65536).window(16)
                .repetitions(20));
        assertEquals("bandwidth", bw.command());
        assertEquals(20, bw.sizes().getFirst().windows());
        assertTrue(bw.sizes().getFirst().bandwidthMbS() > 0, bw.sizes()::toString);
    }

    @Test
    void sweepsCrossToRanksAsTheirCommandLines() {
        assertEquals(List.of("pingpong", "-t", "mpi:mpich", "--timeout", "5000ms", "-s", "8,4096", "-n", "200", "--warmup",
                "100", "--calls", "blocking", "--op", "send", "--target", "active"),
                PingPongRequest.of("mpi:mpich").sizes(8, 4096).repetitions(200).commandLine());
        assertEquals(List.of("pingpong", "-t", "mpi:openmpi/ucx:posix", "--timeout", "5000ms", "-s", "8", "-n", "1000",
                "--warmup", "100", "--calls", "blocking", "--op", "write", "--target", "passive"),
                PingPongRequest.of("mpi:openmpi/ucx:posix").sizes(8).op(Op.WRITE).passiveTarget(true).commandLine());
        assertEquals(List.of("bandwidth", "-t", "mpi:openmpi", "--timeout", "5000ms", "-s", "1024", "-w", "8", "-n", "100",
                "--warmup", "10", "--op", "read"), BandwidthRequest.of("mpi:openmpi").sizes(1024).window(8).op(Op.READ)
                .commandLine());
        assertEquals(List.of("signature", "-t", "mpi:openmpi", "--timeout", "5000ms", "--bursts", "1,2,4", "--bulk-sizes", "none",
                "--calls", "blocking", "--ci", "5.0", "--batch", "20", "--max-reps", "1000", "--time-cap", "100ms"),
                SignatureRequest.of("mpi:openmpi").bursts(1, 2, 4).bulkSizes(new long[0]).commandLine());
    }

    @Test
    void registrationCostIsMeasuredInThisProcess() {
        assertThrows(IllegalArgumentException.class, () -> Fabprobe.register(RegisterRequest.of("ofi:shm").sizes(0)));
        RegisterDocument doc = Fabprobe.register(RegisterRequest.of("ofi:shm").sizes(4096, 1 << 20).repetitions(3));
        assertEquals(RegisterDocument.SCHEMA, doc.schema());
        assertEquals(3, doc.header().settings().repetitions());
        assertEquals(2, doc.sizes().size());
        assertEquals(1 << 20, doc.sizes().get(1).sizeBytes());
        for (RegisterDocument.Size s : doc.sizes()) assertTrue(s.firstRegisterNs().median() > 0, s.toString());
        assertNotNull(doc.registrationCache().reason());
    }
}
