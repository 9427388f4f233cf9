package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.launch.TcpControl.Payload;
import org.fabprobe.pattern.Schedule;
import org.fabprobe.transport.Op;
import org.junit.jupiter.api.Test;

/** What a mirror accepts from the wire: exactly what fabprobe sends, nothing else. */
class SessionSpecTest {

    private static SessionSpec roundTrip(SessionSpec spec) {
        return SessionSpec.decode(new Payload.Reader(spec.encode()));
    }

    @Test
    void everyScheduleCrossesTheWireIntact() {
        var stream = new SessionSpec("ucx:tcp", 1 << 20, 65, Duration.ofSeconds(5), 1,
                new Schedule.StreamSchedule(new long[] {65536, 1 << 20}, 64, 10, 100));
        SessionSpec back = roundTrip(stream);
        assertEquals("ucx:tcp", back.transport());
        assertEquals(1 << 20, back.bufferBytes());
        assertEquals(65, back.depth());
        assertEquals(Duration.ofSeconds(5), back.timeout());
        assertEquals(1, back.mirrorCpu());
        var s = (Schedule.StreamSchedule) back.schedule();
        assertArrayEquals(new long[] {65536, 1 << 20}, s.sizes());
        assertEquals(64, s.window());
        assertEquals(10, s.warmup());
        assertEquals(100, s.repetitions());
    }

    @Test
    void aOneSidedStreamCrossesTheWireWithItsOp() {
        var spec = new SessionSpec("ofi:shm", 1 << 20, 66, Duration.ofSeconds(5), -1,
                new Schedule.OneSidedStreamSchedule(new long[] {8, 1 << 20}, 64, 3, 30, Op.READ));
        SessionSpec back = roundTrip(spec);
        assertEquals(Op.READ, back.op()); // the mirror opens its transport for it
        var s = (Schedule.OneSidedStreamSchedule) back.schedule();
        assertArrayEquals(new long[] {8, 1 << 20}, s.sizes());
        assertEquals(64, s.window());
        assertEquals(3, s.warmup());
        assertEquals(30, s.repetitions());

        // a stream of atomics is nothing fabprobe sends
        var atomic = new SessionSpec("ofi:shm", 64, 4, Duration.ofSeconds(5), -1,
                new Schedule.OneSidedStreamSchedule(new long[] {8}, 1, 0, 1, Op.FETCH_ADD));
        FabprobeException e = assertThrows(FabprobeException.class, () -> roundTrip(atomic));
        assertTrue(e.getMessage().contains("fetch-add"), e.getMessage());
    }

    @Test
    void theMirrorRefusesWhatFabprobeNeverSends() {
        var mpi = new SessionSpec("mpi:openmpi/ucx:tcp", 64, 4, Duration.ofSeconds(5), -1,
                new Schedule.StreamSchedule(new long[] {8}, 1, 0, 1));
        FabprobeException e = assertThrows(FabprobeException.class, () -> roundTrip(mpi));
        assertEquals(ExitCode.USAGE, e.exitCode());
        assertTrue(e.getMessage().contains("cannot run against a mirror"), e.getMessage());

        var tooLarge = new SessionSpec("ofi:tcp", 64, 4, Duration.ofSeconds(5), -1,
                new Schedule.StreamSchedule(new long[] {1 << 20}, 1, 0, 1));
        e = assertThrows(FabprobeException.class, () -> roundTrip(tooLarge));
        assertTrue(e.getMessage().contains("message size"), e.getMessage());

        byte[] trailing = java.util.Arrays.copyOf(new SessionSpec("ofi:tcp", 64, 4, Duration.ofSeconds(5), -1,
                new Schedule.StreamSchedule(new long[] {8}, 1, 0, 1)).encode(), 200);
        assertThrows(TcpControl.ProtocolError.class, () -> SessionSpec.decode(new Payload.Reader(trailing)));
    }
}
