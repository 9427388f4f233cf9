package org.fabprobe.api;

import static org.junit.jupiter.api.Assertions.*;

import org.fabprobe.result.BandwidthDocument;
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
