package org.fabprobe.launch;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.transport.mpi.MpiWorld;

/**
 * Raw transports under mpirun, mpiexec or srun: rank 0 is measure and rank 1 mirror, wherever
 * the launcher put them; other ranks wait. MPI serves only the bootstrap: rank 0 sends a
 * one-time secret, rank 1 answers with the TCP endpoint of an in-process mirror, and from
 * then on the two talk exactly as a measure and a mirror started by hand do
 * ({@link TcpRendezvous}). No MPI call runs until the run ends ({@link MpiWorld#leave()}).
 * Nothing needs a shared file system or ssh of its own.
 */
final class LauncherRendezvous {
    private LauncherRendezvous() {}

    static final class Meeting extends org.fabprobe.launch.Meeting {
        private final SessionSpec spec;
        private final Launcher launcher;
        private int rank = -1, size = -1;

        Meeting(SessionSpec spec, Launcher launcher) {
            this.spec = spec;
            this.launcher = launcher;
        }

        @Override
        Optional<Rendezvous> meet() {
            MpiWorld world = MpiWorld.bootstrap(launcher.mpi());
            rank = world.rank();
            size = world.size();
            if (size < 2) {
                throw new FabprobeException(ExitCode.USAGE, "under " + launcher.name() + " with 1 rank: raw transports need 2"
                        + " (rank 0 measures, rank 1 mirrors): mpirun -np 2 ...");
            }
            long timeoutMs = Math.max(spec.timeout().toMillis(), 10_000);
            return switch (rank) {
                case 0 -> Optional.of(measureSide(world, timeoutMs));
                case 1 -> Optional.of(mirrorSide(world, timeoutMs));
                default -> Optional.empty(); // a rank beyond the pair takes no part
            };
        }

        private Rendezvous measureSide(MpiWorld world, long timeoutMs) {
            Secret secret = Secret.generate();
            world.sendBootstrapText(secret.hex(), 1);
            Endpoint mirror = Endpoint.parse(world.receiveBootstrapText(1));
            FabprobeException last = null;
            for (InetAddress address : mirror.candidates()) {
                try {
                    return TcpRendezvous.connect(new InetSocketAddress(address, mirror.port()),
                            "rank 1 (mirror) on " + mirror.hostname(), secret, false, timeoutMs);
                } catch (FabprobeException e) {
                    if (e.exitCode() == ExitCode.PEER_REFUSED) throw e;
                    last = e;
                }
            }
            throw last != null ? last : new FabprobeException(ExitCode.PEER_TIMEOUT, "rank 1 (mirror) offered no address");
        }

        private Rendezvous mirrorSide(MpiWorld world, long timeoutMs) {
            Secret secret = Secret.parse(world.receiveBootstrapText(0), "the launcher bootstrap");
            try (ServerSocketChannel server = ServerSocketChannel.open(); Selector selector = Selector.open()) {
                server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                server.bind(new InetSocketAddress(0));
                server.configureBlocking(false);
                server.register(selector, SelectionKey.OP_ACCEPT);
                int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
                world.sendBootstrapText(Endpoint.ofThisHost(port).encode(), 0);
                long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
                while (System.nanoTime() < deadline) {
                    selector.select(200);
                    selector.selectedKeys().clear();
                    SocketChannel client = server.accept();
                    if (client == null) continue;
                    client.socket().setTcpNoDelay(true);
                    TcpControl channel = new TcpControl(client, "rank 0 (measure)", MirrorServer.HANDSHAKE_MS);
                    try {
                        return TcpRendezvous.accept(channel, secret);
                    } catch (FabprobeException e) {
                        channel.close(); // not rank 0: a stranger; keep waiting for rank 0
                        System.err.println("fabprobe: rank 1 (mirror): refused a client: " + e.getMessage());
                    }
                }
                throw new FabprobeException(ExitCode.PEER_TIMEOUT, "rank 0 (measure) did not connect within " + timeoutMs + " ms");
            } catch (IOException e) {
                throw new FabprobeException(ExitCode.TRANSPORT_ERROR, "rank 1 (mirror): cannot listen: " + e.getMessage());
            }
        }

        @Override
        String describe() {
            return "launcher " + launcher.name() + " (" + launcher.mpi().id + " bootstrap), ranks 0-1 of " + size;
        }
    }

    /** Where rank 1's mirror listens: its boot id (same host: loopback), host name, port and addresses. */
    record Endpoint(String bootId, String hostname, int port, List<InetAddress> addresses) {
        static Endpoint ofThisHost(int port) {
            List<InetAddress> addresses = new ArrayList<>();
            try {
                for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                    if (!nic.isUp() || nic.isLoopback()) continue;
                    for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                        if (!a.isLinkLocalAddress()) addresses.add(a);
                    }
                }
            } catch (SocketException e) {
                // no interfaces listed: loopback below still serves one host
            }
            addresses.sort((a, b) -> Boolean.compare(!(a instanceof Inet4Address), !(b instanceof Inet4Address)));
            return new Endpoint(HostFacts.bootId(), HostFacts.collect().get("hostname"), port, addresses);
        }

        String encode() {
            StringBuilder b = new StringBuilder(bootId + "\n" + hostname + "\n" + port);
            for (InetAddress a : addresses) b.append('\n').append(a.getHostAddress());
            return b.toString();
        }

        static Endpoint parse(String text) {
            String[] lines = text.split("\n");
            List<InetAddress> addresses = new ArrayList<>();
            for (int i = 3; i < lines.length; i++) {
                try {
                    addresses.add(InetAddress.getByName(lines[i]));
                } catch (IOException e) {
                    // an address we cannot use; the others may do
                }
            }
            return new Endpoint(lines[0], lines[1], Integer.parseInt(lines[2]), addresses);
        }

        /** Loopback first on one host (the fast and certain way), else every address rank 1 has. */
        List<InetAddress> candidates() {
            List<InetAddress> c = new ArrayList<>();
            if (bootId.equals(HostFacts.bootId())) c.add(InetAddress.getLoopbackAddress());
            c.addAll(addresses);
            return c;
        }
    }
}
