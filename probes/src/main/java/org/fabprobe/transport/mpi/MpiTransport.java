package org.fabprobe.transport.mpi;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Locale;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.bindings.mpi.Mpi;
import org.fabprobe.clock.BracketedCall;
import org.fabprobe.transport.Buffers;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.TransportException;
import org.fabprobe.transport.TransportOptions;

/**
 * {@code mpi:IMPL/SELECTION}: ranks 0 and 1 of MPI_COMM_WORLD are measure and mirror; timed
 * messages are MPI_Isend / MPI_Irecv of MPI_BYTEs on off-heap buffers, completed by MPI_Test
 * in posting order (same source, same tag: MPI's non-overtaking rule keeps them in order),
 * or, for patterns that ask for blocking calls, MPI_Send / MPI_Recv on the same buffers.
 * The untimed control channel is blocking MPI_Send / MPI_Recv on a tag of its own.
 */
public final class MpiTransport implements Transport {
    private static final int DATA_TAG = 1, CONTROL_TAG = 2;
    /** MPI_Send's arguments that change between calls, by position (see {@link Mpi#sendArguments}). */
    private static final int SEND_COUNT = 1, SEND_DEST = 3;

    private final String name;
    private final MpiWorld world;
    private final Mpi mpi;
    private final Arena arena = Arena.ofShared();
    private final Buffers buffers;
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

    private MpiTransport(String name, MpiWorld world, TransportOptions options, boolean anyPeer) {
        this.name = name;
        this.world = world;
        this.anyPeer = anyPeer;
        if (!anyPeer && (world.size() < 2 || world.rank() > 1)) {
            throw new TransportException(ExitCode.USAGE, name + ": measure and mirror are ranks 0 and 1 of at least 2, not rank "
                    + world.rank() + " of " + world.size());
        }
        mpi = world.mpi();
        rank = world.rank();
        peer = 1 - rank;
        slotMask = options.ringSlots() - 1;
        buffers = Buffers.allocate(arena, options);
        sendRequests = arena.allocate(Mpi.REQUEST_BYTES * options.ringSlots(), 8);
        recvRequests = arena.allocate(Mpi.REQUEST_BYTES * options.ringSlots(), 8);
        controlBuf = arena.allocate(8 * 64, 8);
        sendAddress = buffers.send().address();
        recvAddress = buffers.recv().address();
        sendSlots = sendRequests.address();
        recvSlots = recvRequests.address();
        timedSend = BracketedCall.of(mpi.sendFunction(), mpi.sendArguments(sendAddress, 0, peer, DATA_TAG), arena)
                .orElse(null);
    }

    /** Ranks 0 and 1 of {@code world}; the other ranks take no part. */
    public static MpiTransport open(String name, MpiWorld world, TransportOptions options) {
        return new MpiTransport(name, world, options, false);
    }

    /** Any rank of {@code world}, connected to one rank after another by their addresses (matrix). */
    public static MpiTransport openForAnyPeer(String name, MpiWorld world, TransportOptions options) {
        return new MpiTransport(name, world, options, true);
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
        return world.facts();
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
        return buffers.recv();
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

    /** MPI_Test on the oldest outstanding send and receive, as long as they complete. */
    @Override
    public void progress() {
        while (recvsDone < recvsPosted && mpi.test(recvSlots + (recvsDone & slotMask) * Mpi.REQUEST_BYTES)) recvsDone++;
        while (sendsDone < sendsPosted && mpi.test(sendSlots + (sendsDone & slotMask) * Mpi.REQUEST_BYTES)) sendsDone++;
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
        arena.close();
    }
}
