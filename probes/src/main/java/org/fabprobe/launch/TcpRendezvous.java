package org.fabprobe.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;
import java.util.LinkedHashMap;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.launch.TcpControl.Kind;
import org.fabprobe.launch.TcpControl.Payload;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.Transports;

/**
 * Measure and mirror joined by an authenticated TCP control channel ({@link Handshake}); the
 * timed traffic takes the transport named by -t, bound to the interface the control
 * connection uses (so a mirror reached over a fabric's IP interface is measured over that
 * fabric). Every raw session runs over this: by hand, local child, and launcher rank 1.
 * {@link #connect} gives measure's side, {@link #accept} the mirror's; the methods of this
 * class are what both sides' {@link Rendezvous} have in common.
 */
public abstract sealed class TcpRendezvous permits TcpRendezvous.MeasureSide, TcpRendezvous.MirrorSide {
    /** The port a mirror listens on when none is given. */
    public static final int DEFAULT_PORT = 7470;

    final TcpControl channel;
    Map<String, String> peerHost;

    private TcpRendezvous(TcpControl channel, Map<String, String> peerHost) {
        this.channel = channel;
        this.peerHost = peerHost;
    }

    /** Connected to a mirror: sends it the session, then waits for its DONE. */
    static final class MeasureSide extends TcpRendezvous implements Rendezvous.Measure {
        private MeasureSide(TcpControl channel, Map<String, String> peerHost) {
            super(channel, peerHost);
        }

        @Override
        public void sendSession(SessionSpec spec) {
            Payload.Writer w = new Payload.Writer().blob(spec.encode());
            Handshake.writeMap(w, ownFacts());
            channel.sendFrame(Kind.SESSION, w.bytes());
        }

        @Override
        public void awaitDone() {
            channel.receiveFrame(Kind.DONE).end();
        }
    }

    /** Accepted by a mirror: receives the session (and measure's host facts), then says DONE. */
    static final class MirrorSide extends TcpRendezvous implements Rendezvous.Mirror {
        private MirrorSide(TcpControl channel) {
            super(channel, Map.of());
        }

        @Override
        public SessionSpec receiveSession() {
            Payload.Reader r = channel.receiveFrame(Kind.SESSION);
            byte[] spec = r.blob();
            peerHost = Handshake.readMap(r);
            r.end();
            SessionSpec decoded = SessionSpec.decode(new Payload.Reader(spec));
            channel.timeout(decoded.timeout().toMillis());
            return decoded;
        }

        @Override
        public void done() {
            channel.sendFrame(Kind.DONE, new byte[0]);
        }
    }

    /** Measure side: connects to the mirror at {@code address} and authenticates both ways. */
    public static Rendezvous.Measure connect(InetSocketAddress address, String peerName, Secret secret, boolean insecure,
                                             long timeoutMs) {
        SocketChannel socket = null;
        try {
            socket = SocketChannel.open();
            socket.socket().connect(address, (int) Math.min(timeoutMs, Integer.MAX_VALUE));
            socket.socket().setTcpNoDelay(true);
            TcpControl channel = new TcpControl(socket, peerName, timeoutMs);
            try {
                return new MeasureSide(channel, Handshake.asMeasure(channel, secret, insecure));
            } catch (TcpControl.PeerFailure e) {
                channel.close();
                throw new FabprobeException(e.exitCode(), peerName + " refused the session: " + e.getMessage());
            } catch (FabprobeException e) {
                channel.close();
                if (e.exitCode() != ExitCode.PEER_TIMEOUT || channel.heardFromPeer()) throw e;
                throw new FabprobeException(ExitCode.PEER_TIMEOUT, describe(address) + " accepted the TCP connection but sent"
                        + " nothing within " + timeoutMs + " ms (is 'fabprobe mirror --listen' running there? see --timeout)");
            } catch (RuntimeException e) {
                channel.close();
                throw e;
            }
        } catch (SocketTimeoutException e) {
            close(socket);
            throw new FabprobeException(ExitCode.PEER_TIMEOUT, "the TCP connection to " + describe(address) + " was not"
                    + " established within " + timeoutMs + " ms (is the host up, and the port open? see --timeout)");
        } catch (IOException e) {
            close(socket);
            throw new FabprobeException(ExitCode.PEER_TIMEOUT, "cannot reach a mirror at " + describe(address) + ": "
                    + e.getMessage() + " (is 'fabprobe mirror --listen' running there?)");
        }
    }

    /** Mirror side, on an accepted connection: authenticates both ways or throws. */
    static Rendezvous.Mirror accept(TcpControl channel, Secret secret) {
        Handshake.asMirror(channel, secret);
        return new MirrorSide(channel);
    }

    static String describe(InetSocketAddress a) {
        String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    public String peer() {
        return channel.peer();
    }

    /** Host facts plus what a surviving peer on the same host needs to clean up after this process. */
    static Map<String, String> ownFacts() {
        Map<String, String> facts = new LinkedHashMap<>(HostFacts.collect());
        facts.put("pid", Long.toString(ProcessHandle.current().pid()));
        facts.put("boot_id", HostFacts.bootId());
        return facts;
    }

    public String localInterfaceAddress() {
        try {
            InetAddress local = ((InetSocketAddress) channel.socket().getLocalAddress()).getAddress();
            return local.getHostAddress();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    public Transport openTransport(SessionSpec spec, String sourceNode) {
        return Transports.open(spec.transport(), spec.options(sourceNode), spec.op());
    }

    public byte[] exchangeAddresses(byte[] mine) {
        channel.sendFrame(Kind.ADDRESS, new Payload.Writer().blob(mine).bytes());
        Payload.Reader r = channel.receiveFrame(Kind.ADDRESS);
        byte[] theirs = r.blob();
        r.end();
        return theirs;
    }

    public Control control() {
        return channel;
    }

    public void fail(String message, int exitCode) {
        channel.sendError(message, exitCode);
    }

    public void phase(String phase) {
        channel.phase(phase);
    }

    public boolean peerGone() {
        return channel.peerClosed();
    }

    public String peerError() {
        return channel.pendingError();
    }

    public Map<String, String> peerHost() {
        return peerHost;
    }

    public void close() {
        channel.close();
    }

    private static void close(SocketChannel socket) {
        try {
            if (socket != null) socket.close();
        } catch (IOException ignored) {
            // never connected: nothing to release
        }
    }
}
