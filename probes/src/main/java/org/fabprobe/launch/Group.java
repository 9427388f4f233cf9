package org.fabprobe.launch;

import org.fabprobe.transport.Control;

/**
 * How ranks meet, one type for every way they do: this rank, the number of ranks, its role, a
 * barrier, the exchange of endpoint addresses, the untimed control channel to one partner,
 * and gathering to rank 0. Everything here is untimed: patterns time between its calls.
 * What only a group of many ranks offers (doubles on channels, sums and broadcasts over all
 * ranks, which {@code matrix} needs) lives in {@link Channels}, so no group has a method it
 * does not serve.
 *
 * <ul>
 *   <li>{@link PairGroup}: two ranks over one control channel (the local child mirror, a
 *       mirror by hand, a launcher's ranks 0 and 1 over TCP, or two threads of a test);
 *   <li>{@link MpiGroup}: every rank of MPI_COMM_WORLD.
 * </ul>
 */
public interface Group {

    /** What a rank does in a pair command: rank 0 times, rank 1 echoes, the others wait. */
    enum Role {
        MEASURE, MIRROR, IDLE
    }

    /** This rank, 0 .. size() - 1. */
    int rank();

    /** The number of ranks. */
    int size();

    /** This rank's role in a pair command (schedules over many ranks give their own roles per round). */
    default Role role() {
        return switch (rank()) {
            case 0 -> Role.MEASURE;
            case 1 -> Role.MIRROR;
            default -> Role.IDLE;
        };
    }

    /** Returns once every rank has called it. */
    void barrier();

    /** Every rank's bytes (its endpoint address), in rank order, on every rank. */
    byte[][] exchange(byte[] mine);

    /** The untimed channel to {@code partner} that patterns use between timed sections, on channel {@code channel}. */
    Control control(int partner, int channel);

    /** Every rank's {@code mine} (all of one length), in rank order, on rank 0; null elsewhere. */
    double[] gather(double[] mine);

    /** A group of any number of ranks that also passes doubles on channels and reduces over all ranks. */
    interface Channels extends Group {
        /** Doubles in one {@link #send} at most. */
        int MAX_VALUES = 64;

        /** Sends a few doubles to {@code dest} on channel {@code channel} and returns when the buffer is free. */
        void send(int dest, int channel, double... values);

        /** Receives {@code count} doubles from {@code source} on channel {@code channel}. */
        double[] receive(int source, int channel, int count);

        /** One message of {@code count} doubles from each of {@code sources}, in any order of arrival. */
        double[][] receiveFrom(int[] sources, int channel, int count);

        /** Sends any number of doubles (one message) and returns when it is delivered. */
        void sendArray(int dest, int channel, double[] values);

        /** Receives {@code count} doubles sent by {@link #sendArray}. */
        double[] receiveArray(int source, int channel, int count);

        /** The element-wise sum over all ranks, on every rank. */
        double[] allreduceSum(double[] mine);

        /** Rank 0's values on every rank; the other ranks pass an array of the same length. */
        double[] broadcast(double[] values);
    }
}
