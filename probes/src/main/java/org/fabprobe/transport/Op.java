package org.fabprobe.transport;

import java.util.Locale;

/** The operation a pattern times: two-sided send/receive, or a one-sided one ({@link OneSided}). */
public enum Op {
    SEND, WRITE, READ, FETCH_ADD, CSWAP;

    /** The name on the command line and in documents: send, write, read, fetch-add, cswap. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static Op parse(String label) {
        for (Op op : values()) if (op.label().equals(label)) return op;
        throw new IllegalArgumentException("unknown op '" + label + "' (send, write, read, fetch-add, cswap)");
    }

    public boolean oneSided() {
        return this != SEND;
    }

    /** Atomics work on one 64-bit word whatever the message size. */
    public boolean atomic() {
        return this == FETCH_ADD || this == CSWAP;
    }
}
