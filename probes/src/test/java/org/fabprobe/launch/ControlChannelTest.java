package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.launch.ControlChannel.Kind;
import org.fabprobe.launch.ControlChannel.Payload;
import org.junit.jupiter.api.Test;

/** The control channel: frames arrive intact, errors and oversized frames are refused, silence times out. */
class ControlChannelTest {

    /** A connected pair of channels on loopback. */
    private record Pair(ControlChannel a, ControlChannel b) implements AutoCloseable {
        static Pair open(long timeoutMs) throws Exception {
            try (ServerSocketChannel server = ServerSocketChannel.open()) {
                server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                return new Pair(new ControlChannel(client, "the mirror", timeoutMs),
                        new ControlChannel(server.accept(), "the measure process", timeoutMs));
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
            p.b().send(Kind.CONTROL, new Payload.Writer().text("x").bytes());
            p.b().sendError("the mirror was stopped", ExitCode.PEER_TIMEOUT);
            assertNull(p.a().pendingError(), "a CONTROL frame comes first");
            assertEquals("x", p.a().receive(Kind.CONTROL).text());
            String seen = null;
            for (int i = 0; i < 1000 && seen == null; i++) {
                seen = p.a().pendingError();
                if (seen == null) Thread.sleep(10);
            }
            assertEquals("the mirror was stopped", seen);
            ControlChannel.PeerFailure e = assertThrows(ControlChannel.PeerFailure.class, () -> p.a().receive(Kind.CONTROL));
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
            p.a().send(Kind.HELLO, new Payload.Writer().text("fabprobe").int32(1).int64(-7).blob(address).bytes());
            Payload.Reader r = p.b().receive(Kind.HELLO);
            assertEquals("fabprobe", r.text());
            assertEquals(1, r.int32());
            assertEquals(-7, r.int64());
            assertArrayEquals(address, r.blob());
            r.end();

            long start = System.nanoTime();
            FabprobeException e = assertThrows(FabprobeException.class, () -> p.b().receive(Kind.DONE));
            assertEquals(ExitCode.PEER_TIMEOUT, e.exitCode());
            assertTrue(e.getMessage().contains("no answer from the measure process"), e.getMessage());
            assertTrue(System.nanoTime() - start < 10_000_000_000L, "gave up long after the timeout");
        }
    }

    @Test
    void peerErrorFramesBecomeItsMessage() throws Exception {
        try (Pair p = Pair.open(2000)) {
            p.a().sendError("fi_getinfo failed", ExitCode.TRANSPORT_ERROR);
            ControlChannel.PeerFailure f = assertThrows(ControlChannel.PeerFailure.class, () -> p.b().receive(Kind.ADDRESS));
            assertEquals("fi_getinfo failed", f.getMessage());
            assertEquals(ExitCode.TRANSPORT_ERROR, f.exitCode());
        }
    }

    @Test
    void oversizedAndUnknownFramesAreProtocolErrorsNotAllocations() throws Exception {
        try (Pair p = Pair.open(2000)) {
            p.a().socket().write(ByteBuffer.allocate(4).putInt(0, Integer.MAX_VALUE));
            var e = assertThrows(ControlChannel.ProtocolError.class, () -> p.b().receive(Kind.AUTH));
            assertEquals(ExitCode.PEER_REFUSED, e.exitCode());
            assertTrue(e.getMessage().contains("2147483647 bytes"), e.getMessage());
        }
        try (Pair p = Pair.open(2000)) {
            p.a().socket().write(ByteBuffer.wrap(new byte[] {0, 0, 0, 1, 99}));
            var e = assertThrows(ControlChannel.ProtocolError.class, () -> p.b().receive(Kind.AUTH));
            assertTrue(e.getMessage().contains("unknown frame kind 99"), e.getMessage());
        }
    }

    @Test
    void aClosedPeerIsNamedWithThePhase() throws Exception {
        try (Pair p = Pair.open(2000)) {
            p.b().phase("the measurement");
            p.a().close();
            FabprobeException e = assertThrows(FabprobeException.class, () -> p.b().receive(Kind.CONTROL));
            assertEquals(ExitCode.PEER_TIMEOUT, e.exitCode());
            assertEquals("the measure process went away during the measurement", e.getMessage());
            assertTrue(p.b().peerClosed());
        }
    }
}
