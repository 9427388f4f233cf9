package org.fabprobe.api;

import static org.junit.jupiter.api.Assertions.*;

import org.fabprobe.result.BandwidthDocument;
import org.fabprobe.transport.Op;
import org.junit.jupiter.api.Test;

/** The bandwidth sweep through the Java API: its request refuses what the command refuses, and a run returns the typed document. */
class BandwidthApiTest {
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
}
