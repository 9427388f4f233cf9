package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.launch.TcpControl.Kind;
import org.fabprobe.launch.TcpControl.Payload;
import org.junit.jupiter.api.Test;

/** The control channel: frames arrive intact, errors and oversized frames are refused, silence times out. */
class TcpControlTest {

    /** A connected pair of channels on loopback. */
    private record Pair(TcpControl a, TcpControl b) implements AutoCloseable {
        static Pair open(long timeoutMs) throws Exception {
            try (ServerSocketChannel server = ServerSocketChannel.open()) {
                server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                return new Pair(new TcpControl(client, "the mirror", timeoutMs),
                        new TcpControl(server.accept(), "the measure process", timeoutMs));
            }
        }

        @Override
        public void close() {
            a.close();
            b.close();
        }
    }

    @Test
    void anErrorIsSeenAheadWithoutStealingTheFramesBeforeIt() throws Exception {
        try (Pair p = Pair.open(5000)) {
            p.b().sendFrame(Kind.CONTROL, new Payload.Writer().text("x").bytes());
            p.b().sendError("the mirror was stopped", ExitCode.PEER_TIMEOUT);
            assertNull(p.a().pendingError(), "a CONTROL frame comes first");
            assertEquals("x", p.a().receiveFrame(Kind.CONTROL).text());
            String seen = null;
            for (int i = 0; i < 1000 && seen == null; i++) {
                seen = p.a().pendingError();
                if (seen == null) Thread.sleep(10);
            }
            assertEquals("the mirror was stopped", seen);
            TcpControl.PeerFailure e = assertThrows(TcpControl.PeerFailure.class, () -> p.a().receiveFrame(Kind.CONTROL));
            assertEquals(ExitCode.PEER_TIMEOUT, e.exitCode());
        }
    }

    @Test
    void aListenerThatNeverSpeaksIsNotCalledAMirror() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            InetSocketAddress address = (InetSocketAddress) server.getLocalAddress();
            FabprobeException e = assertThrows(FabprobeException.class,
                    () -> TcpRendezvous.connect(address, "the mirror", null, false, 200));
            assertEquals(ExitCode.PEER_TIMEOUT, e.exitCode());
            assertTrue(e.getMessage().contains("accepted the TCP connection but sent nothing within 200 ms"), e.getMessage());
        }
    }

    @Test
    void framesRoundTripAndSilenceTimesOut() throws Exception {
        try (Pair p = Pair.open(200)) {
            byte[] address = new byte[300];
            for (int i = 0; i < address.length; i++) address[i] = (byte) i;
            p.a().sendFrame(Kind.HELLO, new Payload.Writer().text("fabprobe").int32(1).int64(-7).blob(address).bytes());
            Payload.Reader r = p.b().receiveFrame(Kind.HELLO);
            assertEquals("fabprobe", r.text());
            assertEquals(1, r.int32());
            assertEquals(-7, r.int64());
            assertArrayEquals(address, r.blob());
            r.end();

            long start = System.nanoTime();
            FabprobeException e = assertThrows(FabprobeException.class, () -> p.b().receiveFrame(Kind.DONE));
            assertEquals(ExitCode.PEER_TIMEOUT, e.exitCode());
            assertTrue(e.getMessage().contains("no answer from the measure process"), e.getMessage());
            assertTrue(System.nanoTime() - start < 10_000_000_000L, "gave up long after the timeout");
        }
    }

    @Test
    void controlMessagesArriveWithTheirNameCheckedAndAMismatchIsAProtocolError() throws Exception {
        try (Pair p = Pair.open(2000)) {
            p.a().sendAll("batch", 3, -4, Long.MAX_VALUE);
            assertArrayEquals(new long[] {3, -4, Long.MAX_VALUE}, p.b().receiveAll("batch", 3));
            p.b().send("rounds", 7);
            assertEquals(7, p.a().receive("rounds"));
            p.a().send("rounds", 1);
            var e = assertThrows(TcpControl.ProtocolError.class, () -> p.b().receiveAll("batch", 1));
            assertTrue(e.getMessage().contains("expected control batch[1], got rounds[1]"), e.getMessage());
        }
    }

    @Test
    void peerErrorFramesBecomeItsMessage() throws Exception {
        try (Pair p = Pair.open(2000)) {
            p.a().sendError("fi_getinfo failed", ExitCode.TRANSPORT_ERROR);
            TcpControl.PeerFailure f = assertThrows(TcpControl.PeerFailure.class, () -> p.b().receiveFrame(Kind.ADDRESS));
            assertEquals("fi_getinfo failed", f.getMessage());
            assertEquals(ExitCode.TRANSPORT_ERROR, f.exitCode());
        }
    }

    @Test
    void oversizedAndUnknownFramesAreProtocolErrorsNotAllocations() throws Exception {
        try (Pair p = Pair.open(2000)) {
            p.a().socket().write(ByteBuffer.allocate(4).putInt(0, Integer.MAX_VALUE));
            var e = assertThrows(TcpControl.ProtocolError.class, () -> p.b().receiveFrame(Kind.AUTH));
            assertEquals(ExitCode.PEER_REFUSED, e.exitCode());
            assertTrue(e.getMessage().contains("2147483647 bytes"), e.getMessage());
        }
        try (Pair p = Pair.open(2000)) {
            p.a().socket().write(ByteBuffer.wrap(new byte[] {0, 0, 0, 1, 99}));
            var e = assertThrows(TcpControl.ProtocolError.class, () -> p.b().receiveFrame(Kind.AUTH));
            assertTrue(e.getMessage().contains("unknown frame kind 99"), e.getMessage());
        }
    }

    @Test
    void aClosedPeerIsNamedWithThePhase() throws Exception {
        try (Pair p = Pair.open(2000)) {
            p.b().phase("the measurement");
            p.a().close();
            FabprobeException e = assertThrows(FabprobeException.class, () -> p.b().receiveFrame(Kind.CONTROL));
            assertEquals(ExitCode.PEER_TIMEOUT, e.exitCode());
            assertEquals("the measure process went away during the measurement", e.getMessage());
            assertTrue(p.b().peerClosed());
        }
    }
}
