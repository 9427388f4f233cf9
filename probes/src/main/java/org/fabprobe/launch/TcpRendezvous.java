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
import org.fabprobe.launch.ControlChannel.Kind;
import org.fabprobe.launch.ControlChannel.Payload;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.Transports;

/**
 * Measure and mirror joined by an authenticated TCP control channel ({@link Handshake}); the
 * timed traffic takes the transport named by -t, bound to the interface the control
 * connection uses (so a mirror reached over a fabric's IP interface is measured over that
 * fabric). Every raw session runs over this: by hand, local child, and launcher rank 1.
 */
public final class TcpRendezvous implements Rendezvous {
    /** The port a mirror listens on when none is given. */
    public static final int DEFAULT_PORT = 7470;

    private final Role role;
    private final ControlChannel channel;
    private Map<String, String> peerHost;

    private TcpRendezvous(Role role, ControlChannel channel, Map<String, String> peerHost) {
        this.role = role;
        this.channel = channel;
        this.peerHost = peerHost;
    }

    /** Measure side: connects to the mirror at {@code address} and authenticates both ways. */
    public static TcpRendezvous connect(InetSocketAddress address, String peerName, Secret secret, boolean insecure,
                                        long timeoutMs) {
        SocketChannel socket = null;
        try {
            socket = SocketChannel.open();
            socket.socket().connect(address, (int) Math.min(timeoutMs, Integer.MAX_VALUE));
            socket.socket().setTcpNoDelay(true);
            ControlChannel channel = new ControlChannel(socket, peerName, timeoutMs);
            try {
                return new TcpRendezvous(Role.MEASURE, channel, Handshake.asMeasure(channel, secret, insecure));
            } catch (ControlChannel.PeerFailure e) {
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
    static TcpRendezvous accept(ControlChannel channel, Secret secret) {
        Handshake.asMirror(channel, secret);
        return new TcpRendezvous(Role.MIRROR, channel, Map.of());
    }

    static String describe(InetSocketAddress a) {
        String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    @Override
    public Role role() {
        return role;
    }

    @Override
    public String peer() {
        return channel.peer();
    }

    @Override
    public void sendSession(SessionSpec spec) {
        Payload.Writer w = new Payload.Writer().blob(spec.encode());
        Handshake.writeMap(w, ownFacts());
        channel.send(Kind.SESSION, w.bytes());
    }

    @Override
    public SessionSpec receiveSession() {
        Payload.Reader r = channel.receive(Kind.SESSION);
        byte[] spec = r.blob();
        peerHost = Handshake.readMap(r);
        r.end();
        SessionSpec decoded = SessionSpec.decode(new Payload.Reader(spec));
        channel.timeout(decoded.timeout().toMillis());
        return decoded;
    }

    /** Host facts plus what a surviving peer on the same host needs to clean up after this process. */
    static Map<String, String> ownFacts() {
        Map<String, String> facts = new LinkedHashMap<>(HostFacts.collect());
        facts.put("pid", Long.toString(ProcessHandle.current().pid()));
        facts.put("boot_id", HostFacts.bootId());
        return facts;
    }

    @Override
    public String localInterfaceAddress() {
        try {
            InetAddress local = ((InetSocketAddress) channel.socket().getLocalAddress()).getAddress();
            return local.getHostAddress();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    @Override
    public Transport openTransport(SessionSpec spec, String sourceNode) {
        return Transports.open(spec.transport(), spec.options(sourceNode), spec.op());
    }

    @Override
    public byte[] exchangeAddresses(byte[] mine) {
        channel.send(Kind.ADDRESS, new Payload.Writer().blob(mine).bytes());
        Payload.Reader r = channel.receive(Kind.ADDRESS);
        byte[] theirs = r.blob();
        r.end();
        return theirs;
    }

    @Override
    public Control control() {
        return new Control() {
            @Override
            public void sendAll(String name, long... values) {
                Payload.Writer w = new Payload.Writer().text(name).int32(values.length);
                for (long v : values) w.int64(v);
                channel.send(Kind.CONTROL, w.bytes());
            }

            @Override
            public long[] receiveAll(String name, int count) {
                Payload.Reader r = channel.receive(Kind.CONTROL);
                String got = r.text();
                int n = r.int32();
                if (!got.equals(name) || n != count) {
                    throw new ControlChannel.ProtocolError("expected control " + name + "[" + count + "], got " + got + "[" + n + "]");
                }
                long[] values = new long[n];
                for (int i = 0; i < n; i++) values[i] = r.int64();
                r.end();
                return values;
            }
        };
    }

    @Override
    public void finish() {
        if (role == Role.MIRROR) {
            channel.send(Kind.DONE, new byte[0]);
        } else {
            channel.receive(Kind.DONE).end();
        }
    }

    @Override
    public void fail(String message, int exitCode) {
        channel.sendError(message, exitCode);
    }

    @Override
    public void phase(String phase) {
        channel.phase(phase);
    }

    @Override
    public boolean peerGone() {
        return channel.peerClosed();
    }

    @Override
    public String peerError() {
        return channel.pendingError();
    }

    @Override
    public Map<String, String> peerHost() {
        return peerHost;
    }

    @Override
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
