package org.fabprobe.transport.loopback;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.fabprobe.transport.Buffers;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.TransportException;
import org.fabprobe.transport.TransportOptions;

/**
 * Two endpoints in one JVM, connected to each other ({@link #pair}): the patterns' network for
 * tests and for embedding, with no emulated delay and no native library.
 *
 * <p>A send puts the message's size on the peer's {@link MessageQueue}; the peer's
 * {@link #progress} copies the payload from the sender's send buffer into its own receive
 * buffer, in order, as its posted receives allow, and that copy completes the send (the
 * sender's buffer is read until then, as in a rendezvous protocol). Each endpoint belongs to
 * one thread at a time, like every transport; the two endpoints may run in two threads.
 */
public final class LoopbackTransport implements Transport {
    public static final String NAME = "loopback";
    /**
     * Polls in a row that found nothing before the thread yields its CPU: on a busy host the
     * peer's thread may be waiting for that CPU, and both sides spinning would stall each other.
     */
    private static final int YIELD_AFTER = 256;
    private static final AtomicLong PAIRS = new AtomicLong();

    /** Two endpoints, each the other's peer; closing the pair closes both. */
    public record Pair(LoopbackTransport first, LoopbackTransport second) implements AutoCloseable {
        @Override
        public void close() {
            first.close();
            second.close();
        }
    }

    private final byte[] address, peerAddress;
    private final Arena arena;
    private final Buffers buffers;
    private final MemorySegment peerSendBuffer;
    private final MessageQueue inbound, outbound;
    /** The size of each posted receive not yet completed, by ring slot. */
    private final long[] postedSizes;
    private final int slotMask;
    private long sendsPosted, sendsCompleted, recvsPosted, recvsCompleted;
    private int idlePolls;

    private LoopbackTransport(String address, String peerAddress, Arena arena, Buffers buffers, MemorySegment peerSendBuffer,
                              MessageQueue inbound, MessageQueue outbound, TransportOptions options) {
        this.address = address.getBytes(StandardCharsets.UTF_8);
        this.peerAddress = peerAddress.getBytes(StandardCharsets.UTF_8);
        this.arena = arena;
        this.buffers = buffers;
        this.peerSendBuffer = peerSendBuffer;
        this.inbound = inbound;
        this.outbound = outbound;
        this.postedSizes = new long[options.ringSlots()];
        this.slotMask = options.ringSlots() - 1;
    }

    /** Two connected endpoints, each with buffers of {@link TransportOptions#bufferBytes()}. */
    public static Pair pair(TransportOptions options) {
        String id = NAME + ":" + PAIRS.incrementAndGet();
        Arena firstArena = Arena.ofShared(), secondArena = Arena.ofShared(); // the peer's thread reads the send buffer
        Buffers firstBuffers = Buffers.allocate(firstArena, options), secondBuffers = Buffers.allocate(secondArena, options);
        MessageQueue toFirst = new MessageQueue(options.ringSlots()), toSecond = new MessageQueue(options.ringSlots());
        return new Pair(
                new LoopbackTransport(id + "/1", id + "/2", firstArena, firstBuffers, secondBuffers.send(), toFirst, toSecond, options),
                new LoopbackTransport(id + "/2", id + "/1", secondArena, secondBuffers, firstBuffers.send(), toSecond, toFirst, options));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, String> facts() {
        return Map.of("library", "fabprobe loopback (in-process)");
    }

    @Override
    public long maxMessageSize() {
        return buffers.send().byteSize();
    }

    @Override
    public byte[] localAddress() {
        return address.clone();
    }

    /** The pair is connected from the start: only the other endpoint's address is accepted. */
    @Override
    public void connect(byte[] peerAddress) {
        if (!Arrays.equals(peerAddress, this.peerAddress)) {
            throw new IllegalArgumentException(NAME + ": " + new String(address, StandardCharsets.UTF_8)
                    + " can only connect to its pair, not " + new String(peerAddress, StandardCharsets.UTF_8));
        }
    }

    @Override
    public MemorySegment sendBuffer() {
        return buffers.send();
    }

    @Override
    public MemorySegment recvBuffer() {
        return buffers.recv();
    }

    @Override
    public void postRecv(long bytes) {
        if (recvsPosted - recvsCompleted >= postedSizes.length) throw tooMany("receives");
        if (bytes > buffers.recv().byteSize()) throw tooLarge("receive", bytes);
        postedSizes[(int) recvsPosted & slotMask] = bytes;
        recvsPosted++;
    }

    @Override
    public void postSend(long bytes) {
        if (sendsPosted - outbound.consumed() >= outbound.capacity()) throw tooMany("sends");
        if (bytes > buffers.send().byteSize()) throw tooLarge("send", bytes);
        outbound.offer(sendsPosted, bytes);
        sendsPosted++;
    }

    /** Receives what has arrived for the posted receives, and counts the sends the peer has received. */
    @Override
    public void progress() {
        long received = recvsCompleted;
        long arrived = received < recvsPosted ? inbound.sent() : received;
        while (received < recvsPosted && received < arrived) {
            long bytes = inbound.size(received);
            long room = postedSizes[(int) received & slotMask];
            if (bytes > room) {
                throw TransportException.error(NAME + ": a " + bytes + " B message arrived for a receive of " + room + " B");
            }
            MemorySegment.copy(peerSendBuffer, 0, buffers.recv(), 0, bytes);
            inbound.take(received);
            received++;
        }
        long sent = outbound.consumed();
        if (received == recvsCompleted && sent == sendsCompleted) {
            if (++idlePolls >= YIELD_AFTER) {
                idlePolls = 0;
                Thread.yield();
            }
            return;
        }
        idlePolls = 0;
        recvsCompleted = received;
        sendsCompleted = sent;
    }

    private TransportException tooMany(String what) {
        return TransportException.error(NAME + ": more " + what + " outstanding than the depth allows ("
                + postedSizes.length + " slots)");
    }

    private TransportException tooLarge(String what, long bytes) {
        return TransportException.error(NAME + ": a " + what + " of " + bytes + " B is larger than the buffer ("
                + buffers.send().byteSize() + " B)");
    }

    @Override
    public long sendsCompleted() {
        return sendsCompleted;
    }

    @Override
    public long recvsCompleted() {
        return recvsCompleted;
    }

    /** Nothing outside the JVM: the buffers are freed with the arena. */
    @Override
    public boolean releasedByExit() {
        return true;
    }

    /** Frees this endpoint's buffers: close it after the peer's last receive, which reads its send buffer. */
    @Override
    public void close() {
        if (arena.scope().isAlive()) arena.close();
    }
}
