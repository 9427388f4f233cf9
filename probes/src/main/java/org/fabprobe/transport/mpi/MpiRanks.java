package org.fabprobe.transport.mpi;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.fabprobe.bindings.mpi.Mpi;
import org.fabprobe.transport.Control;

/**
 * The ranks of MPI_COMM_WORLD as the untimed side of a run over many ranks (matrix): one
 * allgather of addresses at the start, then only point-to-point messages on tags of their own
 * ({@link #control}), waited for without spinning ({@link MpiControl#napping}). A rank that
 * waits here takes next to no CPU from the pairs that are timing (on an oversubscribed node it
 * shares a CPU with them: every wake-up preempts a timing thread) and makes no MPI call for up
 * to 1 ms at a time, as the launcher's idle ranks do ({@link MpiWorld#leave()}). The barrier is
 * a dissemination barrier: ceil(log2 n) rounds of one send and one receive per rank, so it
 * holds for thousands of ranks.
 */
public final class MpiRanks implements AutoCloseable {
    /** Tags: above the transport's data (1), control (2) and the bootstrap's (3, 4). */
    private static final int BARRIER_TAG = 100, MESSAGE_TAG_BASE = 200;

    private final Mpi mpi;
    private final int rank, size;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment token, requests, message;
    private MemorySegment inbox;

    public MpiRanks(MpiWorld world) {
        this.mpi = world.mpi();
        this.rank = world.rank();
        this.size = world.size();
        token = arena.allocate(16, 8);
        requests = arena.allocate(2 * Mpi.REQUEST_BYTES, 8);
        message = arena.allocate(8L * MpiControl.MAX_VALUES, 8);
        inbox = arena.allocate(8L * MpiControl.MAX_VALUES, 8);
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    /**
     * Every rank's bytes, in rank order (MPI_Allgather of their lengths, then of slots of the
     * longest): once at the start, before anything is timed.
     */
    public byte[][] allgather(byte[] mine) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment length = a.allocate(JAVA_INT), lengths = a.allocate(JAVA_INT, size);
            length.set(JAVA_INT, 0, mine.length);
            mpi.allgather(length, lengths, 4);
            int longest = 0;
            for (int r = 0; r < size; r++) longest = Math.max(longest, lengths.getAtIndex(JAVA_INT, r));
            int slot = Math.max(longest, 1);
            MemorySegment send = a.allocate(slot), all = a.allocate((long) slot * size);
            MemorySegment.copy(mine, 0, send, ValueLayout.JAVA_BYTE, 0, mine.length);
            mpi.allgather(send, all, slot);
            byte[][] out = new byte[size][];
            for (int r = 0; r < size; r++) {
                out[r] = all.asSlice((long) slot * r, lengths.getAtIndex(JAVA_INT, r)).toArray(ValueLayout.JAVA_BYTE);
            }
            return out;
        }
    }

    /** Returns once every rank has called it (dissemination barrier, point-to-point, waiting without spinning). */
    public void barrier() {
        for (int step = 0, distance = 1; distance < size; step++, distance <<= 1) {
            long sendSlot = requests.address(), recvSlot = sendSlot + Mpi.REQUEST_BYTES;
            mpi.irecv(token.address() + 8, 8, Math.floorMod(rank - distance, size), BARRIER_TAG + step, recvSlot);
            mpi.isend(token.address(), 8, (rank + distance) % size, BARRIER_TAG + step, sendSlot);
            MpiControl.await(mpi, recvSlot);
            MpiControl.await(mpi, sendSlot);
        }
    }

    /** The control messages between this rank and {@code partner} on channel {@code channel}, one call at a time. */
    public Control control(int partner, int channel) {
        return MpiControl.napping(mpi, partner, MESSAGE_TAG_BASE + channel, message, requests.asSlice(0, Mpi.REQUEST_BYTES));
    }

    /** One message of {@code count} values from each of {@code sources} on channel {@code channel}, in any order of arrival. */
    public long[][] receiveFrom(int[] sources, int channel, int count) {
        if (count > MpiControl.MAX_VALUES) throw new IllegalArgumentException("control message too long");
        long[][] out = new long[sources.length][];
        if (sources.length == 0) return out;
        long bytes = 8L * MpiControl.MAX_VALUES;
        if (inbox.byteSize() < bytes * sources.length) inbox = arena.allocate(bytes * sources.length, 8);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment slots = a.allocate(Mpi.REQUEST_BYTES * sources.length, 8);
            for (int i = 0; i < sources.length; i++) {
                mpi.irecv(inbox.address() + bytes * i, 8 * count, sources[i], MESSAGE_TAG_BASE + channel,
                        slots.address() + Mpi.REQUEST_BYTES * i);
            }
            int done = 0;
            long nap = MpiControl.firstNap();
            boolean[] complete = new boolean[sources.length];
            while (done < sources.length) {
                boolean progressed = false;
                for (int i = 0; i < sources.length; i++) {
                    if (!complete[i] && mpi.test(slots.address() + Mpi.REQUEST_BYTES * i)) {
                        complete[i] = true;
                        done++;
                        progressed = true;
                    }
                }
                if (!progressed) nap = MpiControl.nap(nap);
            }
            for (int i = 0; i < sources.length; i++) {
                out[i] = inbox.asSlice(bytes * i, 8L * count).toArray(JAVA_LONG);
            }
        }
        return out;
    }

    @Override
    public void close() {
        if (arena.scope().isAlive()) arena.close();
    }
}
