package org.fabprobe.transport;

import java.time.Duration;
import org.fabprobe.ExitCode;

/**
 * How to open a transport.
 *
 * @param bufferBytes  size of each registered buffer: the largest message the run will send
 * @param depth        how many sends (and receives) a pattern may have outstanding
 * @param timeout      how long any wait for the peer may take before the run fails
 * @param sourceNode   address the endpoint binds to for socket-based providers ("" = provider default)
 * @param rank         this process's rank under a launcher, -1 otherwise (the emulator's per-rank and per-link parameters)
 * @param peers        how many peers the endpoint will be connected to in turn ({@link Transport#connect}, matrix: n - 1)
 */
public record TransportOptions(long bufferBytes, int depth, Duration timeout, String sourceNode, int rank, int peers) {
    public TransportOptions {
        if (bufferBytes < 0) throw new IllegalArgumentException("buffer size must be >= 0");
        if (depth < 1) throw new IllegalArgumentException("depth must be >= 1");
        if (peers < 1) throw new IllegalArgumentException("peers must be >= 1");
    }

    /**
     * Slots in a transport's ring of posted operations: the smallest power of two not below
     * {@link #depth}, so that operation i's slot is {@code i & (ringSlots - 1)}. {@code i % depth}
     * is a 64-bit division, tens of cycles, and the ring is indexed on the round trip's critical
     * path (the reply's completion found, the next message posted).
     */
    public int ringSlots() {
        return depth == 1 ? 1 : Integer.highestOneBit(depth - 1) << 1;
    }

    /** One peer, no rank: measure and mirror. */
    public TransportOptions(long bufferBytes, int depth, Duration timeout, String sourceNode) {
        this(bufferBytes, depth, timeout, sourceNode, -1, 1);
    }

    /** Refuses a buffer (the largest message) larger than the transport's own limit, {@code maxMessageSize}. */
    public void checkMessageSize(String name, long maxMessageSize) {
        if (Long.compareUnsigned(bufferBytes, maxMessageSize) > 0) {
            throw new TransportException(ExitCode.UNSUPPORTED, "message size " + bufferBytes + " B is above " + name
                    + "'s max_msg_size " + Long.toUnsignedString(maxMessageSize) + " B");
        }
    }
}
