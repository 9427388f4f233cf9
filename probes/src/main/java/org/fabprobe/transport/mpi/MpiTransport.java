package org.fabprobe.transport.mpi;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.bindings.mpi.Mpi;
import org.fabprobe.clock.BracketedCall;
import org.fabprobe.transport.Buffers;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.OneSided;
import org.fabprobe.transport.Op;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.TransportException;
import org.fabprobe.transport.TransportOptions;

/**
 * {@code mpi:IMPL/SELECTION}: ranks 0 and 1 of MPI_COMM_WORLD are measure and mirror; timed
 * messages are MPI_Isend / MPI_Irecv of MPI_BYTEs on off-heap buffers, completed by MPI_Test
 * in posting order (same source, same tag: MPI's non-overtaking rule keeps them in order),
 * or, for patterns that ask for blocking calls, MPI_Send / MPI_Recv on the same buffers.
 * The untimed control channel is blocking MPI_Send / MPI_Recv on a tag of its own.
 *
 * <p>One-sided ({@link OneSided}, opened for an op other than send): the receive buffer is
 * the memory of a window from MPI_Win_allocate over both ranks, under one passive-target
 * epoch (MPI_Win_lock_all) for the transport's life, as the OSU one-sided tests do. Every
 * operation ends with MPI_Win_flush, so it has completed at the target when the call
 * returns. A rank polling its own window memory calls MPI_Win_sync between looks (the
 * memory model's rule for seeing remote updates in the separate model, and a barrier in
 * the unified one) and MPI_Iprobe (for the progress that emulated operations need).
 */
public final class MpiTransport implements Transport, OneSided {
    private static final int DATA_TAG = 1, CONTROL_TAG = 2, PROGRESS_TAG = 5;
    /** Where an atomic's operand, compare value and result words are in the send buffer. */
    private static final long OPERAND = 0, COMPARE = 8, RESULT = 16;
    /** MPI_Send's arguments that change between calls, by position (see {@link Mpi#sendArguments}). */
    private static final int SEND_COUNT = 1, SEND_DEST = 3;

    private final String name;
    private final MpiWorld world;
    private final Mpi mpi;
    private final Arena arena = Arena.ofShared();
    private final Buffers buffers;
    /** The one-sided window (its memory is the receive buffer), or null for two-sided use. */
    private final Mpi.Window window;
    private final MemorySegment recvBuffer;
    private final Op op;
    /** Whether the window's memory model is MPI_WIN_SEPARATE (read once, for the facts). */
    private final boolean separateModel;
    private long rmaPosted, rmaCompleted;
    private final MemorySegment sendRequests, recvRequests, controlBuf;
    private final long sendAddress, recvAddress, sendSlots, recvSlots;
    /** MPI_Send between two clock reads in native code, where Clock reads the TSC (else null). */
    private final BracketedCall timedSend;
    /** Ring slot of operation i: {@code i & slotMask} (see {@link TransportOptions#ringSlots}). */
    private final int slotMask, rank;
    private final boolean anyPeer;
    private int peer;
    private long sendsPosted, sendsDone, recvsPosted, recvsDone;
    private boolean closed;

    private MpiTransport(String name, MpiWorld world, TransportOptions options, boolean anyPeer, Op op) {
        this.name = name;
        this.world = world;
        this.anyPeer = anyPeer;
        this.op = op;
        if (!anyPeer && (world.size() < 2 || world.rank() > 1)) {
            throw new TransportException(ExitCode.USAGE, name + ": measure and mirror are ranks 0 and 1 of at least 2, not rank "
                    + world.rank() + " of " + world.size());
        }
        mpi = world.mpi();
        rank = world.rank();
        peer = 1 - rank;
        slotMask = options.ringSlots() - 1;
        buffers = Buffers.allocate(arena, options);
        window = op.oneSided() ? openWindow(name, world, options) : null;
        recvBuffer = window == null ? buffers.recv() : window.base();
        separateModel = window != null && mpi.separateModel(window);
        sendRequests = arena.allocate(Mpi.REQUEST_BYTES * options.ringSlots(), 8);
        recvRequests = arena.allocate(Mpi.REQUEST_BYTES * options.ringSlots(), 8);
        controlBuf = arena.allocate(8 * 64, 8);
        sendAddress = buffers.send().address();
        recvAddress = recvBuffer.address();
        sendSlots = sendRequests.address();
        recvSlots = recvRequests.address();
        timedSend = BracketedCall.of(mpi.sendFunction(), mpi.sendArguments(sendAddress, 0, peer, DATA_TAG), arena)
                .orElse(null);
    }

    /** Ranks 0 and 1 of {@code world}; the other ranks take no part. */
    public static MpiTransport open(String name, MpiWorld world, TransportOptions options) {
        return new MpiTransport(name, world, options, false, Op.SEND);
    }

    /** As {@link #open(String, MpiWorld, TransportOptions)}, with a window for one-sided {@code op} unless it is send. */
    public static MpiTransport open(String name, MpiWorld world, TransportOptions options, Op op) {
        return new MpiTransport(name, world, options, false, op);
    }

    /** Any rank of {@code world}, connected to one rank after another by their addresses (matrix). */
    public static MpiTransport openForAnyPeer(String name, MpiWorld world, TransportOptions options) {
        return new MpiTransport(name, world, options, true, Op.SEND);
    }

    /**
     * The window (collective: exactly ranks 0 and 1, since ranks that take no part never call
     * MPI_Win_allocate), zero-filled and locked for the transport's life.
     */
    private static Mpi.Window openWindow(String name, MpiWorld world, TransportOptions options) {
        if (world.size() != 2) {
            throw new TransportException(ExitCode.USAGE, name + ": one-sided operations run on exactly 2 ranks (a window"
                    + " spans MPI_COMM_WORLD), not " + world.size());
        }
        if (!world.oneSided()) throw new IllegalStateException("MPI was not initialized for one-sided operations");
        Mpi mpi = world.mpi();
        try {
            Mpi.Window w = mpi.winAllocate(Math.max(options.bufferBytes(), 64));
            w.base().fill((byte) 0);
            mpi.lockAll(w, false);
            mpi.winSync(w);
            return w;
        } catch (org.fabprobe.bindings.mpi.MpiException e) {
            throw new TransportException(ExitCode.TRANSPORT_ERROR, name + ": " + e.getMessage());
        }
    }

    public int rank() {
        return rank;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Map<String, String> facts() {
        if (window == null) return world.facts();
        Map<String, String> facts = new LinkedHashMap<>(world.facts());
        MpiSelection.OneSided choice = world.selection().oneSided();
        facts.put("one_sided", op.label() + " (MPI_Win_allocate, MPI_Win_lock_all, MPI_Win_flush per operation)");
        if (op == Op.WRITE) facts.put("write_ordering", writeOrdering());
        facts.put("osc", choice.component());
        facts.put("one_sided_progress", choice.progress());
        facts.put("window_model", separateModel ? "separate" : "unified");
        return facts;
    }

    @Override
    public long maxMessageSize() {
        return Integer.MAX_VALUE; // MPI counts are ints
    }

    @Override
    public byte[] localAddress() {
        if (!anyPeer) return new byte[0]; // the peer is rank 1 - rank
        return java.nio.ByteBuffer.allocate(4).putInt(rank).array();
    }

    @Override
    public void connect(byte[] peerAddress) {
        // MPI_Init connected the ranks; for any peer the address is its rank
        if (anyPeer) peer = java.nio.ByteBuffer.wrap(peerAddress).getInt();
    }

    @Override
    public MemorySegment sendBuffer() {
        return buffers.send();
    }

    @Override
    public MemorySegment recvBuffer() {
        return recvBuffer;
    }

    @Override
    public void postRecv(long bytes) {
        mpi.irecv(recvAddress, (int) bytes, peer, DATA_TAG, recvSlots + (recvsPosted & slotMask) * Mpi.REQUEST_BYTES);
        recvsPosted++;
    }

    @Override
    public void postSend(long bytes) {
        mpi.isend(sendAddress, (int) bytes, peer, DATA_TAG, sendSlots + (sendsPosted & slotMask) * Mpi.REQUEST_BYTES);
        sendsPosted++;
    }

    @Override
    public boolean hasBlockingCalls() {
        return true;
    }

    /** MPI_Send: no other operation may be outstanding, so the counters stay in step. */
    @Override
    public void send(long bytes) {
        mpi.sendNow(sendAddress, (int) bytes, peer, DATA_TAG);
        sendsPosted++;
        sendsDone++;
    }

    /** MPI_Send timed as C times it, with the clock read in native code right around the call. */
    @Override
    public void sendTimed(long bytes, long[] ticks) {
        if (timedSend == null) {
            Transport.super.sendTimed(bytes, ticks);
            return;
        }
        timedSend.argument(SEND_COUNT, bytes);
        timedSend.argument(SEND_DEST, peer);
        mpi.checkSend(timedSend.call());
        ticks[0] = timedSend.startTicks();
        ticks[1] = timedSend.endTicks();
        sendsPosted++;
        sendsDone++;
    }

    @Override
    public double sendTimerNs() {
        return timedSend == null ? Transport.super.sendTimerNs() : BracketedCall.emptyNs();
    }

    @Override
    public String sendTiming() {
        return timedSend == null ? Transport.super.sendTiming() : String.format(Locale.ROOT,
                "clock reads in native code right around MPI_Send, less an empty bracket (%.1f ns)", sendTimerNs());
    }

    /** MPI_Recv: no other operation may be outstanding, so the counters stay in step. */
    @Override
    public void recv(long bytes) {
        mpi.recvNow(recvAddress, (int) bytes, peer, DATA_TAG);
        recvsPosted++;
        recvsDone++;
    }

    /**
     * MPI_Test on the oldest outstanding send and receive, as long as they complete; with a
     * window, also MPI_Win_sync and an MPI_Iprobe (see the class comment).
     */
    @Override
    public void progress() {
        while (recvsDone < recvsPosted && mpi.test(recvSlots + (recvsDone & slotMask) * Mpi.REQUEST_BYTES)) recvsDone++;
        while (sendsDone < sendsPosted && mpi.test(sendSlots + (sendsDone & slotMask) * Mpi.REQUEST_BYTES)) sendsDone++;
        if (window != null) {
            mpi.winSync(window);
            mpi.progressByProbe(peer, PROGRESS_TAG);
        }
    }

    // ---- one-sided (OneSided): displacement 0 in the peer's window, which its rank names

    /** Where the peer's window is needs no description: its rank and displacement 0 name it. */
    @Override
    public byte[] describeRegion() {
        requireWindow();
        return new byte[0];
    }

    @Override
    public void attachPeerRegion(byte[] description) {
        requireWindow();
    }

    /**
     * MPI promises no order among the bytes of one MPI_Put: the payload but its last byte
     * goes first and is flushed (complete at the target), then the last byte by itself.
     */
    @Override
    public void postWrite(long bytes) {
        if (bytes > 1) {
            mpi.put(sendAddress, (int) (bytes - 1), peer, 0, window);
            mpi.flush(peer, window);
            rmaPosted++;
            rmaCompleted++;
        }
        mpi.put(sendAddress + bytes - 1, 1, peer, bytes - 1, window);
        mpi.flush(peer, window);
        rmaPosted++;
        rmaCompleted++;
    }

    @Override
    public String writeOrdering() {
        return "MPI_Put of all but the last byte and MPI_Win_flush (complete at the target), then the last byte"
                + " by its own MPI_Put and MPI_Win_flush: MPI orders no bytes within one put";
    }

    /** One MPI_Put, complete (and counted so) only at the next {@link #postFlush}, as osu_put_bw's window. */
    @Override
    public void postWriteUnordered(long bytes) {
        mpi.put(sendAddress, (int) bytes, peer, 0, window);
        rmaPosted++;
    }

    /** MPI_Win_flush: every put posted so far is complete at the target, every get's data here (one more operation in the counts). */
    @Override
    public void postFlush() {
        mpi.flush(peer, window);
        rmaPosted++;
        rmaCompleted = rmaPosted;
    }

    @Override
    public boolean completesOnlyAtFlush() {
        return true;
    }

    @Override
    public String flushing() {
        return "MPI_Win_flush after the window's MPI_Put or MPI_Get calls";
    }

    @Override
    public void postRead(long bytes) {
        mpi.get(sendAddress, (int) bytes, peer, 0, window);
        mpi.flush(peer, window);
        rmaPosted++;
        rmaCompleted++;
    }

    /** One MPI_Get, complete (and counted so) only at the next {@link #postFlush}, as osu_get_bw's window. */
    @Override
    public void postReadUnordered(long bytes) {
        mpi.get(sendAddress, (int) bytes, peer, 0, window);
        rmaPosted++;
    }

    @Override
    public void postFetchAdd(long value) {
        buffers.send().set(JAVA_LONG, OPERAND, value);
        mpi.fetchAndOp(sendAddress + OPERAND, sendAddress + RESULT, peer, 0, Mpi.AtomicOp.SUM, window);
        mpi.flush(peer, window);
        rmaPosted++;
        rmaCompleted++;
    }

    /** MPI_Compare_and_swap: the origin word is the value swapped in, the compare word what the target must hold. */
    @Override
    public void postCompareSwap(long compare, long swap) {
        MemorySegment send = buffers.send();
        send.set(JAVA_LONG, OPERAND, swap);
        send.set(JAVA_LONG, COMPARE, compare);
        mpi.compareAndSwap(sendAddress + OPERAND, sendAddress + COMPARE, sendAddress + RESULT, peer, 0, window);
        mpi.flush(peer, window);
        rmaPosted++;
        rmaCompleted++;
    }

    @Override
    public long fetched() {
        return buffers.send().get(JAVA_LONG, RESULT);
    }

    @Override
    public long oneSidedPosted() {
        return rmaPosted;
    }

    @Override
    public long oneSidedCompleted() {
        return rmaCompleted;
    }

    @Override
    public boolean emulated(Op op) {
        return op.oneSided() && window != null && world.selection().oneSided().progress().startsWith("emulated");
    }

    private void requireWindow() {
        if (window == null) throw new IllegalStateException(name + " was opened for two-sided messages only");
    }

    @Override
    public long sendsCompleted() {
        return sendsDone;
    }

    @Override
    public long recvsCompleted() {
        return recvsDone;
    }

    /** The untimed channel: one blocking message of longs per call, on its own tag. */
    public Control control() {
        return new Control() {
            @Override
            public boolean callsTransport() {
                return true;
            }

            @Override
            public void sendAll(String name, long... values) {
                if (values.length > 64) throw new IllegalArgumentException("control message too long");
                for (int i = 0; i < values.length; i++) controlBuf.setAtIndex(JAVA_LONG, i, values[i]);
                mpi.send(controlBuf, 8 * values.length, peer, CONTROL_TAG);
            }

            @Override
            public long[] receiveAll(String name, int count) {
                mpi.recv(controlBuf, 8 * count, peer, CONTROL_TAG);
                long[] values = new long[count];
                for (int i = 0; i < count; i++) values[i] = controlBuf.getAtIndex(JAVA_LONG, i);
                return values;
            }
        };
    }

    @Override
    /** Frees the buffers; MPI itself ends once per process, in {@link MpiWorld#leave()}. */
    public void close() {
        if (closed) return;
        closed = true;
        if (window != null) {
            try {
                mpi.unlockAll(window);
                mpi.winFree(window); // collective: the peer closes its side as well
            } finally {
                arena.close();
            }
            return;
        }
        arena.close();
    }
}
