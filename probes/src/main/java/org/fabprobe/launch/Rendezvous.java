package org.fabprobe.launch;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The control channel between measure and mirror: a UNIX-domain socket in a directory only
 * this user can enter (that is the authentication), carrying length-prefixed frames:
 * the mirror's instructions, the two endpoint addresses, errors, and the final good-bye.
 * Nothing on it is timed.
 */
public final class Rendezvous implements AutoCloseable {
    private final SocketChannel channel;
    private final DataInputStream in;
    private final DataOutputStream out;

    Rendezvous(SocketChannel channel) {
        this.channel = channel;
        this.in = new DataInputStream(Channels.newInputStream(channel));
        this.out = new DataOutputStream(Channels.newOutputStream(channel));
    }

    /** The mirror's side: connect to the measure process listening at {@code socket}. */
    public static Rendezvous connect(Path socket) {
        try {
            SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            ch.connect(UnixDomainSocketAddress.of(socket));
            return new Rendezvous(ch);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach the measure process at " + socket, e);
        }
    }

    public void sendMap(String kind, Map<String, String> map) {
        try {
            out.writeUTF(kind);
            out.writeInt(map.size());
            for (var e : map.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeUTF(e.getValue());
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("rendezvous: peer gone", e);
        }
    }

    /** Reads a frame; an "error" frame from the peer is rethrown here as its message. */
    public Map<String, String> receiveMap(String expectedKind) {
        try {
            String kind = in.readUTF();
            int n = in.readInt();
            Map<String, String> map = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) map.put(in.readUTF(), in.readUTF());
            if (kind.equals("error")) throw new PeerFailure(map.get("message"), Integer.parseInt(map.get("exit")));
            if (!kind.equals(expectedKind)) {
                throw new IllegalStateException("rendezvous: expected " + expectedKind + ", got " + kind);
            }
            return map;
        } catch (IOException e) {
            throw new UncheckedIOException("rendezvous: peer gone", e);
        }
    }

    public void sendError(String message, int exitCode) {
        sendMap("error", Map.of("message", message, "exit", Integer.toString(exitCode)));
    }

    public void sendBytes(String kind, byte[] bytes) {
        sendMap(kind, Map.of("hex", java.util.HexFormat.of().formatHex(bytes)));
    }

    public byte[] receiveBytes(String kind) {
        return java.util.HexFormat.of().parseHex(receiveMap(kind).get("hex"));
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing a control socket that is already gone: nothing to release
        }
    }

    /** The other process failed and said why. */
    public static final class PeerFailure extends RuntimeException {
        private final int exitCode;

        PeerFailure(String message, int exitCode) {
            super(message);
            this.exitCode = exitCode;
        }

        public int exitCode() {
            return exitCode;
        }
    }
}
