package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The control channel: frames arrive intact, and a silent peer is an error within the timeout. */
class RendezvousTest {

    @Test
    void framesRoundTripAndSilenceTimesOut(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("rv.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            try (Rendezvous client = Rendezvous.connect(socket);
                 Rendezvous serverSide = new Rendezvous(server.accept(), "mirror")) {
                client.sendMap("spec", Map.of("transport", "ofi:shm", "p.sizes", "0,8"));
                assertEquals(Map.of("transport", "ofi:shm", "p.sizes", "0,8"), serverSide.receiveMap("spec"));
                byte[] address = new byte[300];
                for (int i = 0; i < address.length; i++) address[i] = (byte) i;
                serverSide.sendBytes("address", address);
                assertArrayEquals(address, client.receiveBytes("address"));

                serverSide.timeout(Duration.ofMillis(200));
                long start = System.nanoTime();
                FabprobeException e = assertThrows(FabprobeException.class, () -> serverSide.receiveMap("done"));
                assertEquals(ExitCode.PEER_TIMEOUT, e.exitCode());
                assertTrue(e.getMessage().contains("no answer from the mirror"), e.getMessage());
                assertTrue(System.nanoTime() - start < 10_000_000_000L, "gave up long after the timeout");
            }
        }
    }

    @Test
    void peerErrorFramesBecomeItsMessage(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("rv.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            try (Rendezvous client = Rendezvous.connect(socket);
                 Rendezvous serverSide = new Rendezvous(server.accept(), "mirror")) {
                client.sendError("fi_getinfo failed", ExitCode.TRANSPORT_ERROR);
                Rendezvous.PeerFailure f = assertThrows(Rendezvous.PeerFailure.class, () -> serverSide.receiveMap("address"));
                assertEquals("fi_getinfo failed", f.getMessage());
                assertEquals(ExitCode.TRANSPORT_ERROR, f.exitCode());
            }
        }
    }
}
