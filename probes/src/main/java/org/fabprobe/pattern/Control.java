package org.fabprobe.pattern;

/**
 * The untimed side channel between measure and mirror (the rendezvous socket): how a
 * pattern tells its mirror a decision made from measurements, e.g. how long to warm up or
 * which probe to run next.
 */
public interface Control {
    void send(String name, long value);

    long receive(String name);

    /** Several values as one message where the channel allows it (one write, not several). */
    default void sendAll(String name, long... values) {
        for (int i = 0; i < values.length; i++) send(name + "." + i, values[i]);
    }

    default long[] receiveAll(String name, int count) {
        long[] values = new long[count];
        for (int i = 0; i < count; i++) values[i] = receive(name + "." + i);
        return values;
    }
}
