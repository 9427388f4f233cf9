package org.fabprobe.launch;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.locks.LockSupport;
import org.fabprobe.bindings.mpi.Mpi;
import org.fabprobe.runtime.Shutdown;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.mpi.MpiWorld;

/**
 * MPI_COMM_WORLD as a {@link Group}, the untimed control plane of a run over many ranks: one
 * allgather of addresses at the start, then only point-to-point messages on tags of their own,
 * waited for without spinning: MPI_Test, then a sleep that doubles from 20 µs to 1 ms, again.
 * A rank that waits here takes next to no CPU from the pairs that are timing (on an
 * oversubscribed node it shares a CPU with them: every wake-up preempts a timing thread) and
 * makes no MPI call for up to 1 ms at a time, as the launcher's idle ranks do
 * ({@link MpiWorld#leave()}). The barrier is a dissemination barrier: ceil(log2 n) rounds of
 * one send and one receive per rank, so it holds for thousands of ranks.
 */
public final class MpiGroup implements Group.Channels, AutoCloseable {
    /** Tags of the control plane: above the transport's data (1), control (2) and the bootstrap's (3, 4). */
    private static final int BARRIER_TAG = 100, MESSAGE_TAG_BASE = 200;
    private static final long FIRST_NAP_NS = 20_000, LONGEST_NAP_NS = 1_000_000;
    private final Mpi mpi;
    private final int rank, size;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment token, requests, outbox;
    private MemorySegment inbox;

    public MpiGroup(MpiWorld world) {
        this.mpi = world.mpi();
        this.rank = world.rank();
        this.size = world.size();
        token = arena.allocate(16, 8);
        requests = arena.allocate(2 * Mpi.REQUEST_BYTES, 8);
        outbox = arena.allocate(8L * MAX_VALUES, 8);
        inbox = arena.allocate(8L * MAX_VALUES, 8);
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    /**
     * Every rank's bytes, in rank order (MPI_Allgather of their lengths, then of slots of the
     * longest): once at the start, before anything is timed.
     */
    @Override
    public byte[][] exchange(byte[] mine) {
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
    @Override
    public void barrier() {
        for (int step = 0, distance = 1; distance < size; step++, distance <<= 1) {
            long sendSlot = requests.address(), recvSlot = sendSlot + Mpi.REQUEST_BYTES;
            mpi.irecv(token.address() + 8, 8, Math.floorMod(rank - distance, size), BARRIER_TAG + step, recvSlot);
            mpi.isend(token.address(), 8, (rank + distance) % size, BARRIER_TAG + step, sendSlot);
            await(recvSlot);
            await(sendSlot);
        }
    }

    /** Sends a few doubles to {@code dest} on channel {@code channel} and returns when the buffer is free. */
    @Override
    public void send(int dest, int channel, double... values) {
        if (values.length > MAX_VALUES) throw new IllegalArgumentException("control message too long");
        for (int i = 0; i < values.length; i++) outbox.setAtIndex(JAVA_DOUBLE, i, values[i]);
        long slot = requests.address();
        mpi.isend(outbox.address(), 8 * values.length, dest, MESSAGE_TAG_BASE + channel, slot);
        await(slot);
    }

    /** Receives {@code count} doubles from {@code source} on channel {@code channel}. */
    @Override
    public double[] receive(int source, int channel, int count) {
        return receiveFrom(new int[] {source}, channel, count)[0];
    }

    /** One message of {@code count} doubles from each of {@code sources}, in any order of arrival. */
    @Override
    public double[][] receiveFrom(int[] sources, int channel, int count) {
        if (count > MAX_VALUES) throw new IllegalArgumentException("control message too long");
        double[][] out = new double[sources.length][];
        if (sources.length == 0) return out;
        long bytes = 8L * MAX_VALUES;
        if (inbox.byteSize() < bytes * sources.length) inbox = arena.allocate(bytes * sources.length, 8);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment slots = a.allocate(Mpi.REQUEST_BYTES * sources.length, 8);
            for (int i = 0; i < sources.length; i++) {
                mpi.irecv(inbox.address() + bytes * i, 8 * count, sources[i], MESSAGE_TAG_BASE + channel,
                        slots.address() + Mpi.REQUEST_BYTES * i);
            }
            int done = 0;
            long nap = FIRST_NAP_NS;
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
                if (!progressed) nap = nap(nap);
            }
            for (int i = 0; i < sources.length; i++) {
                out[i] = inbox.asSlice(bytes * i, 8L * count).toArray(JAVA_DOUBLE);
            }
        }
        return out;
    }

    // ---- after the timing: MPI's own collectives over doubles (matrix's reductions) ----------

    /** The element-wise sum over all ranks, on every rank (MPI_Reduce to rank 0, then MPI_Bcast). */
    @Override
    public double[] allreduceSum(double[] mine) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment send = a.allocateFrom(JAVA_DOUBLE, mine), sum = a.allocate(JAVA_DOUBLE, Math.max(1, mine.length));
            mpi.reduce(send, sum, mine.length, 0);
            mpi.bcast(sum, 8 * mine.length, 0);
            return sum.asSlice(0, 8L * mine.length).toArray(JAVA_DOUBLE);
        }
    }

    /** Rank 0's values on every rank (MPI_Bcast); the other ranks pass an array of the same length. */
    @Override
    public double[] broadcast(double[] values) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buffer = a.allocate(JAVA_DOUBLE, Math.max(1, values.length));
            if (rank == 0) MemorySegment.copy(values, 0, buffer, JAVA_DOUBLE, 0, values.length);
            mpi.bcast(buffer, 8 * values.length, 0);
            return buffer.asSlice(0, 8L * values.length).toArray(JAVA_DOUBLE);
        }
    }

    /** Every rank's {@code mine} (all of one length), in rank order, on rank 0 (MPI_Gather); null elsewhere. */
    @Override
    public double[] gather(double[] mine) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment send = a.allocateFrom(JAVA_DOUBLE, mine);
            MemorySegment all = a.allocate(JAVA_DOUBLE, rank == 0 ? (long) size * mine.length : 1);
            mpi.gather(send, all, 8 * mine.length, 0);
            return rank == 0 ? all.toArray(JAVA_DOUBLE) : null;
        }
    }

    /** Sends any number of doubles (one message, its own buffer) and returns when it is delivered. */
    @Override
    public void sendArray(int dest, int channel, double[] values) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buffer = a.allocateFrom(JAVA_DOUBLE, values.length == 0 ? new double[1] : values);
            long slot = requests.address();
            mpi.isend(buffer.address(), 8 * values.length, dest, MESSAGE_TAG_BASE + channel, slot);
            await(slot);
        }
    }

    /** Receives {@code count} doubles sent by {@link #sendArray}. */
    @Override
    public double[] receiveArray(int source, int channel, int count) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buffer = a.allocate(JAVA_DOUBLE, Math.max(1, count));
            long slot = requests.address() + Mpi.REQUEST_BYTES;
            mpi.irecv(buffer.address(), 8 * count, source, MESSAGE_TAG_BASE + channel, slot);
            await(slot);
            return buffer.asSlice(0, 8L * count).toArray(JAVA_DOUBLE);
        }
    }

    private void await(long slot) {
        for (long nap = FIRST_NAP_NS; !mpi.test(slot); ) nap = nap(nap);
    }

    /** Sleeps {@code ns} and returns the next, longer, sleep. */
    private static long nap(long ns) {
        if (Shutdown.requested()) throw Shutdown.interrupted();
        LockSupport.parkNanos(ns);
        return Math.min(2 * ns, LONGEST_NAP_NS);
    }

    /**
     * The untimed control channel to one partner, as patterns use it between timed sections
     * (pLogP's probe decisions): the same {@link Control} the pair commands get from their
     * rendezvous, carried on channel {@code channel} of this plane. Values are longs, sent as
     * doubles (exact below 2^53).
     */
    @Override
    public Control control(int partner, int channel) {
        return new Control() {
            @Override
            public void sendAll(String name, long... values) {
                double[] v = new double[values.length];
                for (int i = 0; i < v.length; i++) v[i] = values[i];
                MpiGroup.this.send(partner, channel, v);
            }

            @Override
            public long[] receiveAll(String name, int count) {
                double[] v = MpiGroup.this.receive(partner, channel, count);
                long[] out = new long[count];
                for (int i = 0; i < count; i++) out[i] = (long) v[i];
                return out;
            }
        };
    }

    @Override
    public void close() {
        if (arena.scope().isAlive()) arena.close();
    }
}
