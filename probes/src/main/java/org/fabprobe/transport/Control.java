package org.fabprobe.transport;

/**
 * The untimed side channel between measure and mirror (a control socket, or MPI messages on
 * a tag of their own): how a pattern tells its mirror a decision made from measurements,
 * e.g. how long to warm up or which probe to run next. Each message is a name and a few
 * numbers; the receiver names what it expects, so the two halves cannot drift apart silently.
 */
public interface Control {
    /** Several values as one message (one write, not several). */
    void sendAll(String name, long... values);

    long[] receiveAll(String name, int count);

    default void send(String name, long value) {
        sendAll(name, value);
    }

    default long receive(String name) {
        return receiveAll(name, 1)[0];
    }
}
