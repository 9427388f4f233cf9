package org.fabprobe.launch;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;

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

    /** How long the first message may take when nothing else is known yet. */
    static final long DEFAULT_TIMEOUT_MS = 60_000;

    private final String peer;
    private volatile long timeoutMs = DEFAULT_TIMEOUT_MS;

    Rendezvous(SocketChannel channel, String peer) {
        this.channel = channel;
        this.peer = peer;
        try {
            // non-blocking underneath, so that every read can give up at a deadline
            channel.configureBlocking(false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.in = new DataInputStream(new TimedInput());
        this.out = new DataOutputStream(new java.io.BufferedOutputStream(new FullWrite()));
    }

    /** Every later read gives up after this long (a peer that never answers is an error, not a hang). */
    public void timeout(java.time.Duration timeout) {
        this.timeoutMs = timeout.toMillis();
    }

    /** The mirror's side: connect to the measure process listening at {@code socket}. */
    public static Rendezvous connect(Path socket) {
        try {
            SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            ch.connect(UnixDomainSocketAddress.of(socket));
            return new Rendezvous(ch, "measure process");
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
            in.close();
            channel.close();
        } catch (IOException ignored) {
            // closing a control socket that is already gone: nothing to release
        }
    }

    /** Reads that wait at most {@link #timeoutMs} for data. */
    private final class TimedInput extends java.io.InputStream {
        private final java.nio.channels.Selector selector;

        TimedInput() {
            try {
                selector = java.nio.channels.Selector.open();
                channel.register(selector, java.nio.channels.SelectionKey.OP_READ);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
            while (true) {
                int n = channel.read(java.nio.ByteBuffer.wrap(b, off, len));
                if (n != 0) return n;
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    throw new FabprobeException(ExitCode.PEER_TIMEOUT, "no answer from the " + peer
                            + " on the rendezvous for " + timeoutMs + " ms (see --timeout)");
                }
                selector.select(left);
                selector.selectedKeys().clear();
            }
        }

        @Override
        public void close() throws IOException {
            selector.close();
        }
    }

    /** Writes a whole buffer on the non-blocking channel (frames are small: the socket buffer takes them). */
    private final class FullWrite extends java.io.OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(b, off, len);
            long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
            while (buffer.hasRemaining()) {
                if (channel.write(buffer) == 0) {
                    if (System.nanoTime() > deadline) {
                        throw new FabprobeException(ExitCode.PEER_TIMEOUT, "the " + peer + " stopped reading the rendezvous");
                    }
                    Thread.onSpinWait();
                }
            }
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
