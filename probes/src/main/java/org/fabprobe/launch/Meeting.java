package org.fabprobe.launch;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.transport.TransportName;

/**
 * Which {@link Rendezvous} a run uses, chosen once from the transport and the options: the
 * transport and the way the peers meet are independent choices, except that MPI is its own
 * way to meet.
 */
abstract class Meeting implements AutoCloseable {

    static Meeting of(PeerOptions peer, SessionSpec spec) {
        boolean mpi = TransportName.isMpi(spec.transport());
        if (mpi) {
            if (peer.peer() != null) {
                throw new FabprobeException(ExitCode.USAGE, "--peer needs a raw transport (ofi:, ucx:, sim:); "
                        + spec.transport() + " meets its peer through the MPI launcher (mpirun -np 2 --host a,b ...)");
            }
            return new MpiRendezvous.Meeting(spec);
        }
        if (peer.peer() != null) return new ByHand(peer, spec);
        if (Launcher.detect() != null) return new LauncherRendezvous.Meeting(spec, Launcher.detect());
        return new LocalMirror(spec, peer.insecure());
    }

    /** Meets the peer: connects, authenticates, or joins the launcher's ranks; empty on a rank beyond the pair (it idles). */
    abstract Optional<Rendezvous> meet();

    /** How the peers met, for the report: "local", "peer 10.0.0.2:7470", "launcher Open MPI, ranks 0-1 of 2". */
    abstract String describe();

    /** Whether this side will measure (known before meeting: local and by-hand meetings; a launcher assigns roles). */
    boolean measuresHere() {
        return false;
    }

    /** Kills what this side started (Ctrl-C, watchdog). */
    void abandon() {}

    /** The peer process's state, for an error message ("" when unknown). */
    String peerStatus() {
        return "";
    }

    @Override
    public void close() {}

    /** A mirror started by hand: {@code fabprobe mirror --listen} on another host. */
    private static final class ByHand extends Meeting {
        private final InetSocketAddress address;
        private final PeerOptions peer;
        private final SessionSpec spec;

        ByHand(PeerOptions peer, SessionSpec spec) {
            this.peer = peer;
            this.spec = spec;
            this.address = parse(peer.peer());
        }

        @Override
        Optional<Rendezvous> meet() {
            org.fabprobe.transport.Transports.initializeInBackground(spec.transport()); // while the mirror answers
            Secret secret = Secret.fromFileOrEnvironment(peer.secretFile());
            return Optional.of(TcpRendezvous.connect(address, "the mirror at " + TcpRendezvous.describe(address), secret,
                    peer.insecure(), spec.timeout().toMillis()));
        }

        @Override
        String describe() {
            return "peer " + TcpRendezvous.describe(address);
        }
    }

    /** HOST, HOST:PORT, [IPV6]:PORT or a bare IPv6 address. */
    static InetSocketAddress parse(String hostPort) {
        String host = hostPort;
        int port = TcpRendezvous.DEFAULT_PORT;
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            if (close < 0) throw new FabprobeException(ExitCode.USAGE, "--peer " + hostPort + ": missing ']'");
            host = hostPort.substring(1, close);
            if (hostPort.length() > close + 1) {
                if (hostPort.charAt(close + 1) != ':') throw new FabprobeException(ExitCode.USAGE, "--peer " + hostPort + ": expected [ADDRESS]:PORT");
                port = port(hostPort.substring(close + 2), hostPort);
            }
        } else if (hostPort.indexOf(':') > 0 && hostPort.indexOf(':') == hostPort.lastIndexOf(':')) {
            host = hostPort.substring(0, hostPort.indexOf(':'));
            port = port(hostPort.substring(hostPort.indexOf(':') + 1), hostPort);
        }
        if (host.isEmpty()) throw new FabprobeException(ExitCode.USAGE, "--peer " + hostPort + ": no host");
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new FabprobeException(ExitCode.USAGE, "--peer " + hostPort + ": unknown host '" + host + "'");
        }
    }

    static int port(String text, String whole) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65535) return port;
        } catch (NumberFormatException e) {
            // falls through to the message
        }
        throw new FabprobeException(ExitCode.USAGE, whole + ": the port must be 0..65535, not '" + text + "'");
    }
}
