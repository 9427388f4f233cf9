package org.fabprobe.launch;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.runtime.Shutdown;
import org.fabprobe.transport.Control;

/**
 * The {@link Control} of two processes joined by a socket (by hand, a local child, launcher
 * ranks), and the carrier of everything else they say untimed (handshake, session, addresses):
 * length-prefixed, typed frames, every read and write bounded by a deadline (a peer that never
 * answers is an error, not a hang) and every frame bounded in size (a peer cannot make us
 * allocate what it claims).
 *
 * <pre>frame = int32 length | byte kind | payload (length - 1 bytes)</pre>
 */
public final class TcpControl implements Control, AutoCloseable {
    /** Frames before authentication are small: a greeting and a MAC. */
    static final int MAX_HANDSHAKE_FRAME = 1024;
    /** Frames after it carry a session, an endpoint address or a control message. */
    static final int MAX_FRAME = 64 * 1024;

    /** What a frame holds; the byte on the wire is the ordinal, so only append. */
    public enum Kind { HELLO, AUTH, WELCOME, SESSION, ADDRESS, CONTROL, DONE, ERROR }

    private final SocketChannel channel;
    private final Selector selector;
    private final String peer;
    private volatile long timeoutMs;
    private volatile int maxFrame = MAX_HANDSHAKE_FRAME;
    private volatile String phase = "the set-up";
    /** System.nanoTime() by which the handshake must end, while {@link #handshakeBounded}. */
    private volatile long phaseDeadline;
    private volatile boolean handshakeBounded;
    /** Whether any byte came from the peer: a silent peer may not be a fabprobe at all. */
    private volatile boolean heard;

    TcpControl(SocketChannel channel, String peer, long timeoutMs) throws IOException {
        this.channel = channel;
        this.peer = peer;
        this.timeoutMs = timeoutMs;
        channel.configureBlocking(false);
        selector = Selector.open();
        channel.register(selector, SelectionKey.OP_READ);
    }

    /** How to name the peer in messages, e.g. "the mirror at 10.0.0.2:7470". */
    public String peer() {
        return peer;
    }

    void timeout(long ms) {
        this.timeoutMs = ms;
    }

    /** After authentication: frames may be larger, and the handshake's deadline is over. */
    void authenticated() {
        this.maxFrame = MAX_FRAME;
        this.handshakeBounded = false;
    }

    /**
     * One deadline on everything until {@link #authenticated}: a client that trickles a byte now
     * and then must not stretch the handshake by the per-read timeout at each byte.
     */
    void handshakeWithin(long ms) {
        this.phaseDeadline = System.nanoTime() + ms * 1_000_000L;
        this.handshakeBounded = true;
    }

    /** What the session is doing, for the message when the peer goes away. */
    void phase(String phase) {
        this.phase = phase;
    }

    /** True once the peer has sent anything. */
    boolean heardFromPeer() {
        return heard;
    }

    SocketChannel socket() {
        return channel;
    }

    /** A control message: its name, its count and the values, checked by the receiver. */
    @Override
    public void sendAll(String name, long... values) {
        Payload.Writer w = new Payload.Writer().text(name).int32(values.length);
        for (long v : values) w.int64(v);
        sendFrame(Kind.CONTROL, w.bytes());
    }

    @Override
    public long[] receiveAll(String name, int count) {
        Payload.Reader r = receiveFrame(Kind.CONTROL);
        String got = r.text();
        int n = r.int32();
        if (!got.equals(name) || n != count) {
            throw new ProtocolError("expected control " + name + "[" + count + "], got " + got + "[" + n + "]");
        }
        long[] values = new long[n];
        for (int i = 0; i < n; i++) values[i] = r.int64();
        r.end();
        return values;
    }

    void sendFrame(Kind kind, byte[] payload) {
        if (payload.length + 1 > MAX_FRAME) throw new IllegalStateException("frame too large: " + payload.length);
        ByteBuffer frame = ByteBuffer.allocate(5 + payload.length);
        frame.putInt(payload.length + 1).put((byte) kind.ordinal()).put(payload).flip();
        long deadline = deadline();
        try {
            while (frame.hasRemaining()) {
                if (channel.write(frame) == 0) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new FabprobeException(ExitCode.PEER_TIMEOUT, peer + " stopped reading the control channel");
                    }
                    Thread.onSpinWait();
                }
            }
        } catch (IOException e) {
            throw gone();
        }
    }

    /** The next frame, which must be {@code expected}; an ERROR frame from the peer is thrown as {@link PeerFailure}. */
    Payload.Reader receiveFrame(Kind expected) {
        ByteBuffer header = ByteBuffer.allocate(4);
        read(header);
        int length = header.flip().getInt();
        if (length < 1 || length > maxFrame) {
            throw new ProtocolError("frame of " + Integer.toUnsignedString(length) + " bytes (limit " + maxFrame + ")");
        }
        ByteBuffer body = ByteBuffer.allocate(length);
        read(body);
        body.flip();
        int kindByte = body.get() & 0xFF;
        if (kindByte >= Kind.values().length) throw new ProtocolError("unknown frame kind " + kindByte);
        Kind kind = Kind.values()[kindByte];
        byte[] payload = new byte[length - 1];
        body.get(payload);
        Payload.Reader reader = new Payload.Reader(payload);
        if (kind == Kind.ERROR && expected != Kind.ERROR) {
            int code = reader.int32();
            throw new PeerFailure(reader.text(), code);
        }
        if (kind != expected) throw new ProtocolError("expected " + expected + ", got " + kind);
        return reader;
    }

    /** Tells the peer why this side stops, if it still listens (best effort: never throws). */
    public void sendError(String message, int exitCode) {
        try {
            sendFrame(Kind.ERROR, new Payload.Writer().int32(exitCode).text(message).bytes());
        } catch (RuntimeException ignored) {
            // the peer is gone already; it learns nothing more from us
        }
    }

    /**
     * True when the peer has closed its end. Only for a session that is failing anyway: it
     * reads and discards whatever the peer sent last (NIO cannot peek), waiting at most 200 ms.
     */
    public boolean peerClosed() {
        return peerClosedWithin(200);
    }

    /** As {@link #peerClosed}, waiting at most {@code ms}. */
    boolean peerClosedWithin(long ms) {
        try {
            ByteBuffer sink = ByteBuffer.allocate(4096);
            long deadline = System.nanoTime() + ms * 1_000_000L;
            while (System.nanoTime() < deadline) {
                int n = channel.read(sink.clear());
                if (n < 0) return true;
                if (n == 0) {
                    selector.select(50);
                    selector.selectedKeys().clear();
                }
            }
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** The peer went away: a message that says so, in words. */
    public FabprobeException gone() {
        return new FabprobeException(ExitCode.PEER_TIMEOUT, peer + " went away during " + phase);
    }

    /** The per-operation timeout from now, or the phase's deadline if that comes first. */
    private long deadline() {
        long perOperation = System.nanoTime() + timeoutMs * 1_000_000L;
        return handshakeBounded && phaseDeadline - perOperation < 0 ? phaseDeadline : perOperation;
    }

    /**
     * The message of an ERROR frame the peer has sent and this side has not read yet, or null.
     * For another thread than the one that reads frames: what it reads ahead stays for that one.
     */
    String pendingError() {
        synchronized (ahead) {
            try {
                ahead.compact();
                try {
                    // end of stream too: a frame sent before it still counts
                    if (channel.read(ahead) > 0) selector.wakeup(); // a reader waiting in select() has data now
                } finally {
                    ahead.flip();
                }
            } catch (IOException e) {
                return null;
            }
            if (ahead.remaining() < 5) return null;
            int length = ahead.getInt(ahead.position());
            if (length < 1 || length > ahead.remaining() - 4 || ahead.get(ahead.position() + 4) != Kind.ERROR.ordinal()) return null;
            byte[] payload = new byte[length - 1];
            ahead.slice(ahead.position() + 5, length - 1).get(payload);
            Payload.Reader reader = new Payload.Reader(payload);
            reader.int32();
            return reader.text();
        }
    }

    /** Bytes {@link #pendingError} read ahead of the reading thread, in read mode. */
    private final ByteBuffer ahead = ByteBuffer.allocate(MAX_FRAME + 5).flip();

    /** From the bytes read ahead first, then from the socket. */
    private int readSome(ByteBuffer into) throws IOException {
        synchronized (ahead) {
            if (!ahead.hasRemaining()) return channel.read(into);
            int n = Math.min(ahead.remaining(), into.remaining());
            into.put(ahead.slice(ahead.position(), n));
            ahead.position(ahead.position() + n);
            return n;
        }
    }

    private void read(ByteBuffer into) {
        long deadline = deadline();
        try {
            while (into.hasRemaining()) {
                int n = readSome(into);
                if (n < 0) throw gone();
                if (n > 0) {
                    heard = true;
                    continue;
                }
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0 && handshakeBounded && deadline == phaseDeadline) {
                    throw new FabprobeException(ExitCode.PEER_TIMEOUT, peer + " did not finish the handshake in time");
                }
                if (left <= 0) {
                    throw new FabprobeException(ExitCode.PEER_TIMEOUT, "no answer from " + peer + " on the control channel for "
                            + timeoutMs + " ms during " + phase + " (see --timeout)");
                }
                if (Shutdown.requested()) throw Shutdown.interrupted();
                selector.select(Math.min(left, 100)); // and look at the Ctrl-C flag now and then
                selector.selectedKeys().clear();
            }
        } catch (IOException e) {
            throw gone();
        }
    }

    @Override
    public void close() {
        try {
            selector.close();
            channel.close();
        } catch (IOException ignored) {
            // closing a socket that is already gone: nothing left to release
        }
    }

    /** The other process failed and said why. */
    public static final class PeerFailure extends FabprobeException {
        public PeerFailure(String message, int exitCode) {
            super(exitCode, message);
        }
    }

    /** The peer sent something this protocol does not allow. */
    public static final class ProtocolError extends FabprobeException {
        public ProtocolError(String message) {
            super(ExitCode.PEER_REFUSED, "protocol error: " + message);
        }
    }

    /** Frame payloads: fixed-order fields, checked on the way in. */
    public static final class Payload {
        private Payload() {}

        public static final class Writer {
            private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            private final DataOutputStream out = new DataOutputStream(bytes);

            public Writer int32(int v) {
                return io(() -> out.writeInt(v));
            }

            public Writer int64(long v) {
                return io(() -> out.writeLong(v));
            }

            public Writer text(String s) {
                return io(() -> out.writeUTF(s));
            }

            public Writer blob(byte[] b) {
                return io(() -> {
                    out.writeInt(b.length);
                    out.write(b);
                });
            }

            public byte[] bytes() {
                return bytes.toByteArray();
            }

            private Writer io(IoAction a) {
                try {
                    a.run();
                } catch (IOException e) {
                    throw new IllegalStateException(e); // a byte array does not fail
                }
                return this;
            }

            private interface IoAction {
                void run() throws IOException;
            }
        }

        public static final class Reader {
            private final byte[] data;
            private final DataInputStream in;

            Reader(byte[] data) {
                this.data = data;
                this.in = new DataInputStream(new java.io.ByteArrayInputStream(data));
            }

            public int int32() {
                return io(in::readInt);
            }

            public long int64() {
                return io(in::readLong);
            }

            public String text() {
                return io(in::readUTF);
            }

            public byte[] blob() {
                int n = int32();
                if (n < 0 || n > data.length) throw new ProtocolError("field of " + n + " bytes in a frame of " + data.length);
                byte[] b = new byte[n];
                io(() -> {
                    in.readFully(b);
                    return null;
                });
                return b;
            }

            /** Every field read: trailing bytes mean the peer speaks something else. */
            public void end() {
                if (io(in::available) != 0) throw new ProtocolError("unexpected bytes at the end of a frame");
            }

            private <T> T io(IoRead<T> r) {
                try {
                    return r.read();
                } catch (EOFException e) {
                    throw new ProtocolError("truncated frame");
                } catch (IOException e) {
                    throw new ProtocolError("malformed frame: " + e.getMessage());
                }
            }

            private interface IoRead<T> {
                T read() throws IOException;
            }
        }
    }
}
