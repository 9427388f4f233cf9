package org.fabprobe.launch;

import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.fabprobe.transport.Control;

/**
 * Two ranks as a {@link Group}: measure (rank 0) and mirror (rank 1), met through a
 * {@link Rendezvous} (a local child mirror, a mirror by hand, a launcher's ranks over TCP, or
 * MPI ranks) or over nothing but one {@link Control} (two threads of a test). The barrier and
 * the gather are messages on that control channel; the addresses go the rendezvous's way.
 */
public final class PairGroup implements Group {
    private static final int MAX_ADDRESS_BYTES = 8192;

    private final int rank;
    private final Supplier<Control> control; // asked when used: an MPI rendezvous has it once its transport is open
    private final UnaryOperator<byte[]> swap;

    private PairGroup(int rank, Supplier<Control> control, UnaryOperator<byte[]> swap) {
        this.rank = rank;
        this.control = control;
        this.swap = swap;
    }

    /** The pair a rendezvous joins: its measure side is rank 0, its mirror side rank 1. */
    public static PairGroup of(Rendezvous rv) {
        return new PairGroup(rv instanceof Rendezvous.Measure ? 0 : 1, rv::control, rv::exchangeAddresses);
    }

    /** Rank {@code rank} (0 or 1) of a pair joined by {@code control} alone: addresses go over it too. */
    public static PairGroup over(int rank, Control control) {
        if (rank != 0 && rank != 1) throw new IllegalArgumentException("a pair has ranks 0 and 1, not " + rank);
        return new PairGroup(rank, () -> control, mine -> {
            control.sendBytes("address", mine);
            return control.receiveBytes("address", MAX_ADDRESS_BYTES);
        });
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return 2;
    }

    @Override
    public void barrier() {
        control.get().send("barrier", rank);
        long peer = control.get().receive("barrier");
        if (peer != 1 - rank) throw new IllegalStateException("barrier with rank " + peer + ", expected " + (1 - rank));
    }

    @Override
    public byte[][] exchange(byte[] mine) {
        byte[] theirs = swap.apply(mine);
        return rank == 0 ? new byte[][] {mine, theirs} : new byte[][] {theirs, mine};
    }

    @Override
    public Control control(int partner, int channel) {
        if (partner != 1 - rank) throw new IllegalArgumentException("rank " + rank + " of a pair has no partner " + partner);
        return control.get(); // one channel between the two: the receiver checks each message's name
    }

    @Override
    public double[] gather(double[] mine) {
        if (rank == 1) {
            long[] bits = new long[mine.length];
            for (int i = 0; i < bits.length; i++) bits[i] = Double.doubleToRawLongBits(mine[i]);
            control.get().sendAll("gather", bits);
            return null;
        }
        long[] bits = control.get().receiveAll("gather", mine.length);
        double[] all = new double[2 * mine.length];
        System.arraycopy(mine, 0, all, 0, mine.length);
        for (int i = 0; i < bits.length; i++) all[mine.length + i] = Double.longBitsToDouble(bits[i]);
        return all;
    }
}
