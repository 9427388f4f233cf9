package org.fabprobe.transport.mpi;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;
import org.fabprobe.bindings.mpi.Mpi;
import org.fabprobe.runtime.Shutdown;
import org.fabprobe.transport.Control;

/**
 * The {@link Control} between this rank and one other over MPI, on a tag of its own. The name
 * is not sent: the tag and the fixed order of the two halves keep messages apart. Two ways to
 * wait, chosen by who else runs:
 *
 * <ul>
 *   <li>{@link #inMpi}: MPI_Send and MPI_Recv, for a pair of ranks that have the run to
 *       themselves (a session over an mpi: transport);
 *   <li>{@link #napping}: MPI_Isend or MPI_Irecv, then MPI_Test and a sleep that doubles from
 *       20 µs to 1 ms, for ranks that share CPUs with pairs that are timing ({@link MpiRanks}):
 *       a waiting rank takes next to no CPU and makes no MPI call for up to 1 ms at a time.
 * </ul>
 */
public final class MpiControl implements Control {
    /** Values in one message at most. */
    public static final int MAX_VALUES = 64;
    private static final long FIRST_NAP_NS = 20_000, LONGEST_NAP_NS = 1_000_000;

    private final Mpi mpi;
    private final int peer, tag;
    /** Room for {@link #MAX_VALUES} longs, free again when a call returns. */
    private final MemorySegment buffer;
    /** One request slot for the napping wait, null for the wait in MPI. */
    private final MemorySegment request;

    private MpiControl(Mpi mpi, int peer, int tag, MemorySegment buffer, MemorySegment request) {
        this.mpi = mpi;
        this.peer = peer;
        this.tag = tag;
        this.buffer = buffer;
        this.request = request;
    }

    /** Waits inside MPI_Send and MPI_Recv. */
    static MpiControl inMpi(Mpi mpi, int peer, int tag, MemorySegment buffer) {
        return new MpiControl(mpi, peer, tag, buffer, null);
    }

    /** Waits without spinning, in {@code request}'s slot. */
    static MpiControl napping(Mpi mpi, int peer, int tag, MemorySegment buffer, MemorySegment request) {
        return new MpiControl(mpi, peer, tag, buffer, request);
    }

    @Override
    public void sendAll(String name, long... values) {
        if (values.length > MAX_VALUES) throw new IllegalArgumentException("control message too long");
        for (int i = 0; i < values.length; i++) buffer.setAtIndex(JAVA_LONG, i, values[i]);
        if (request == null) {
            mpi.send(buffer, 8 * values.length, peer, tag);
        } else {
            mpi.isend(buffer.address(), 8 * values.length, peer, tag, request.address());
            await(mpi, request.address());
        }
    }

    @Override
    public long[] receiveAll(String name, int count) {
        if (count > MAX_VALUES) throw new IllegalArgumentException("control message too long");
        if (request == null) {
            mpi.recv(buffer, 8 * count, peer, tag);
        } else {
            mpi.irecv(buffer.address(), 8 * count, peer, tag, request.address());
            await(mpi, request.address());
        }
        return buffer.asSlice(0, 8L * count).toArray(JAVA_LONG);
    }

    /** Until the request in {@code slot} completes, napping between tests. */
    static void await(Mpi mpi, long slot) {
        for (long nap = FIRST_NAP_NS; !mpi.test(slot); ) nap = nap(nap);
    }

    /** Sleeps {@code ns} and returns the next, longer, sleep. */
    static long nap(long ns) {
        if (Shutdown.requested()) throw Shutdown.interrupted();
        LockSupport.parkNanos(ns);
        return Math.min(2 * ns, LONGEST_NAP_NS);
    }

    static long firstNap() {
        return FIRST_NAP_NS;
    }
}
