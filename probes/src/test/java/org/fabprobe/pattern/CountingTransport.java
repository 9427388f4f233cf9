package org.fabprobe.pattern;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.TreeMap;
import org.fabprobe.transport.Transport;

/**
 * A transport that counts what a pattern asks of it, by message size, and can stop part way
 * as a peer that dies or hangs would. For tests only: the counting allocates on the data path.
 */
public final class CountingTransport implements Transport {
    /** Thrown where the transport was told to stop: the half that uses it ends there. */
    public static final class Stopped extends RuntimeException {
        public Stopped() {
            super("stopped on purpose");
        }
    }

    private final Transport t;
    private final Map<Long, Long> sends = new TreeMap<>(), recvs = new TreeMap<>();
    private long recvsPosted, sendsPosted;
    private long stopAfterSends = Long.MAX_VALUE;
    private long stallSize = -1, stallAtSend, stallMs;

    CountingTransport(Transport t) {
        this.t = t;
    }

    /** The next send after {@code sends} in all throws {@link Stopped}. */
    public void stopAfterSends(long sends) {
        stopAfterSends = sends;
    }

    /** Send number {@code atSend} (counted from 1) of {@code bytes} bytes first waits {@code ms}: a link that stalls once. */
    public void stallOnce(long bytes, long atSend, long ms) {
        stallSize = bytes;
        stallAtSend = atSend;
        stallMs = ms;
    }

    /** Sends posted, by size. */
    public Map<Long, Long> sendsBySize() {
        return sends;
    }

    /** Receives posted, by size. */
    public Map<Long, Long> recvsBySize() {
        return recvs;
    }

    public long sendsPosted() {
        return sendsPosted;
    }

    public long recvsPosted() {
        return recvsPosted;
    }

    @Override
    public void postRecv(long bytes) {
        t.postRecv(bytes);
        recvs.merge(bytes, 1L, Long::sum);
        recvsPosted++;
    }

    @Override
    public void postSend(long bytes) {
        if (sendsPosted >= stopAfterSends) throw new Stopped();
        if (bytes == stallSize && sends.getOrDefault(bytes, 0L) + 1 == stallAtSend) {
            try {
                Thread.sleep(stallMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        t.postSend(bytes);
        sends.merge(bytes, 1L, Long::sum);
        sendsPosted++;
    }

    @Override
    public void progress() {
        t.progress();
    }

    @Override
    public long sendsCompleted() {
        return t.sendsCompleted();
    }

    @Override
    public long recvsCompleted() {
        return t.recvsCompleted();
    }

    @Override
    public String name() {
        return t.name();
    }

    @Override
    public Map<String, String> facts() {
        return t.facts();
    }

    @Override
    public long maxMessageSize() {
        return t.maxMessageSize();
    }

    @Override
    public byte[] localAddress() {
        return t.localAddress();
    }

    @Override
    public void connect(byte[] peerAddress) {
        t.connect(peerAddress);
    }

    @Override
    public MemorySegment sendBuffer() {
        return t.sendBuffer();
    }

    @Override
    public MemorySegment recvBuffer() {
        return t.recvBuffer();
    }

    @Override
    public void close() {
        t.close();
    }
}
