package org.fabprobe.transport;

import java.lang.foreign.MemorySegment;
import java.util.Locale;
import java.util.Map;
import org.fabprobe.clock.BracketedCall;
import org.fabprobe.clock.Clock;

/**
 * What a timing pattern needs from a network: tagged messages between two registered
 * off-heap buffers and one peer, and completion counters driven by explicit progress.
 *
 * <p>Contract for patterns: at most {@link TransportOptions#depth()} sends and as many
 * receives outstanding; receives complete in the order they were posted; messages are
 * received into {@link #recvBuffer()} and sent from {@link #sendBuffer()}. Nothing on the
 * data path ({@link #postSend}, {@link #postRecv}, {@link #progress}) may allocate.
 */
public interface Transport extends AutoCloseable {

    /** The transport as named on the command line, e.g. "ofi:shm". */
    String name();

    /** Facts recorded with every result: provider, fabric, domain, library version, limits. */
    Map<String, String> facts();

    /** The largest message this transport can carry. */
    long maxMessageSize();

    /** This endpoint's address, to be handed to the peer. */
    byte[] localAddress();

    /** Makes the peer with this address the destination of all sends. */
    void connect(byte[] peerAddress);

    MemorySegment sendBuffer();

    MemorySegment recvBuffer();

    /** Posts a receive of {@code bytes} into the receive buffer. */
    void postRecv(long bytes);

    /** Posts a send of {@code bytes} from the send buffer to the peer. */
    void postSend(long bytes);

    /** Drives progress once and counts the completions found. Never blocks. */
    void progress();

    /**
     * Whether {@link #send} and {@link #recv} exist: one blocking library call each that
     * waits inside the library (MPI_Send, MPI_Recv), the calls MPI latency benchmarks such
     * as osu_latency time. Raw fabrics have none: there the caller polls {@link #progress}.
     */
    default boolean hasBlockingCalls() {
        return false;
    }

    /** Sends {@code bytes} and returns when the send buffer may be reused; counts as posted and completed. */
    default void send(long bytes) {
        throw new UnsupportedOperationException(name() + " has no blocking calls");
    }

    /**
     * {@link #send}, timed from right before the library call to right after its return: the
     * two clock reads go to {@code ticks[0]} and {@code ticks[1]}. Here they are {@link Clock#now}
     * around {@link #send}; a transport that can read the clock in native code right around
     * the call ({@link BracketedCall}) does so, as a C benchmark would.
     */
    default void sendTimed(long bytes, long[] ticks) {
        ticks[0] = Clock.now();
        send(bytes);
        ticks[1] = Clock.now();
    }

    /** What {@link #sendTimed}'s interval holds besides the call, ns: one clock read here. */
    default double sendTimerNs() {
        return Clock.facts().readCostNs();
    }

    /** How {@link #sendTimed} reads the clock, for the record. */
    default String sendTiming() {
        return String.format(Locale.ROOT, "clock reads in Java around the call, less one read (%.1f ns)", sendTimerNs());
    }

    /** Receives {@code bytes} and returns when they are in the receive buffer; counts as posted and completed. */
    default void recv(long bytes) {
        throw new UnsupportedOperationException(name() + " has no blocking calls");
    }

    /**
     * Deadlines the transport itself missed so far, for transports that keep time (the
     * emulator's busy-waits overshooting because its thread was preempted); 0 elsewhere.
     */
    default long missedDeadlines() {
        return 0;
    }

    /** Sends completed since open (a send whose buffer may be reused). */
    long sendsCompleted();

    /** Receives completed since open. */
    long recvsCompleted();

    /**
     * Whether the kernel releases all this transport holds when the process ends (sockets,
     * memory), nothing left behind in the file system: then a run stopped by a signal
     * mid-transfer may leave it unclosed (see launch.Session).
     */
    default boolean releasedByExit() {
        return false;
    }

    /** Releases every native resource; safe to call once, after the last operation. */
    @Override
    void close();
}
