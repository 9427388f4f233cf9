package org.fabprobe.transport.loopback;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The messages one endpoint has sent the other and not yet received, as their sizes: a
 * lock-free ring with one producer (the sender's thread) and one consumer (the receiver's).
 * The payload stays in the sender's buffer until the receiver copies it, so {@link #consumed}
 * is also how many sends have completed.
 */
final class MessageQueue {
    private static final VarHandle SENT, CONSUMED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            SENT = lookup.findVarHandle(MessageQueue.class, "sent", long.class);
            CONSUMED = lookup.findVarHandle(MessageQueue.class, "consumed", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long[] sizes;
    private final int slotMask;
    /** Messages offered so far: written by the producer only, published with release. */
    @SuppressWarnings("unused") // through SENT
    private long sent;
    /** Messages taken so far: written by the consumer only, published with release. */
    @SuppressWarnings("unused") // through CONSUMED
    private long consumed;

    /** @param slots a power of two: message i's slot is {@code i & (slots - 1)} */
    MessageQueue(int slots) {
        this.sizes = new long[slots];
        this.slotMask = slots - 1;
    }

    int capacity() {
        return sizes.length;
    }

    /** Producer: adds message {@code index} (the count offered so far) once the caller has seen room for it. */
    void offer(long index, long bytes) {
        sizes[(int) index & slotMask] = bytes;
        SENT.setRelease(this, index + 1); // the size, and the payload written before, become visible
    }

    /** Consumer: how many messages were offered so far. */
    long sent() {
        return (long) SENT.getAcquire(this);
    }

    /** Consumer: the size of message {@code index}, once {@link #sent} is past it. */
    long size(long index) {
        return sizes[(int) index & slotMask];
    }

    /** Consumer: message {@code index} has been copied out, so its slot and the sender's buffer are free again. */
    void take(long index) {
        CONSUMED.setRelease(this, index + 1);
    }

    /** Producer: how many messages the consumer has copied out so far. */
    long consumed() {
        return (long) CONSUMED.getAcquire(this);
    }
}
