package org.fabprobe.transport;

/**
 * The untimed side channel between measure and mirror (a control socket, or MPI messages on
 * a tag of their own): how a pattern tells its mirror a decision made from measurements,
 * e.g. how long to warm up or which probe to run next. Each message is a name and a few
 * numbers; the receiver names what it expects, so the two halves cannot drift apart silently.
 */
public interface Control {
    /**
     * Whether a message on this channel is a call into the transport's library (MPI), which
     * progresses its operations: a side that must make no library call cannot wait on it.
     */
    default boolean callsTransport() {
        return false;
    }

    /** Several values as one message (one write, not several). */
    void sendAll(String name, long... values);

    long[] receiveAll(String name, int count);

    default void send(String name, long value) {
        sendAll(name, value);
    }

    default long receive(String name) {
        return receiveAll(name, 1)[0];
    }

    /** A byte string as one message: its length, then the bytes eight to a long. */
    default void sendBytes(String name, byte[] bytes) {
        long[] words = new long[1 + (bytes.length + 7) / 8];
        words[0] = bytes.length;
        for (int i = 0; i < bytes.length; i++) words[1 + i / 8] |= (bytes[i] & 0xffL) << (8 * (i % 8));
        send(name + " words", words.length);
        sendAll(name, words);
    }

    /** A byte string sent with {@link #sendBytes}, refused beyond {@code maxBytes}. */
    default byte[] receiveBytes(String name, int maxBytes) {
        long count = receive(name + " words");
        if (count < 1 || count > 1 + (maxBytes + 7L) / 8) throw new IllegalStateException(name + ": " + count + " words, at most " + (1 + (maxBytes + 7L) / 8));
        long[] words = receiveAll(name, (int) count);
        if (words[0] < 0 || words[0] > 8 * (count - 1)) throw new IllegalStateException(name + ": " + words[0] + " bytes in " + (count - 1) + " words");
        byte[] bytes = new byte[(int) words[0]];
        for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) (words[1 + i / 8] >>> (8 * (i % 8)));
        return bytes;
    }
}
