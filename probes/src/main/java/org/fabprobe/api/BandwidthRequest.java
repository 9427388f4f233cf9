package org.fabprobe.api;

import org.fabprobe.transport.Op;

/**
 * A streaming-bandwidth sweep to run: where ({@link SessionSettings}), which sizes, how many
 * messages (or one-sided operations) per window, how many timed windows after how many untimed ones.
 */
public record BandwidthRequest(SessionSettings session, long[] sizes, int window, int repetitions, int warmup, Op op) {
    /** The largest window: every message of a window has its own buffer slot. */
    public static final int MAX_WINDOW = 1024;

    public BandwidthRequest {
        if (sizes == null || sizes.length == 0) throw new IllegalArgumentException("no message sizes");
        if (op == null) op = Op.SEND;
        if (op.atomic()) throw new IllegalArgumentException("bandwidth --op: send, write or read (atomics: pingpong --op)");
        if (op.oneSided() && sizes[0] < 1) throw new IllegalArgumentException("bandwidth --op " + op.label() + ": sizes start at 1 B");
        if (window < 1 || window > MAX_WINDOW) throw new IllegalArgumentException("--window must be 1.." + MAX_WINDOW);
        SessionSettings.checkCounts(repetitions, warmup);
        sizes = sizes.clone();
    }

    /** The command's defaults over {@code transport} against a local mirror: 1 KiB .. 4 MiB, 100 windows of 64 after 10. */
    public static BandwidthRequest of(String transport) {
        return new BandwidthRequest(SessionSettings.local(transport), SizeList.parse("1K..4M"), 64, 100, 10, Op.SEND);
    }

    public BandwidthRequest sizes(long... sizes) {
        return new BandwidthRequest(session, sizes, window, repetitions, warmup, op);
    }

    public BandwidthRequest window(int window) {
        return new BandwidthRequest(session, sizes, window, repetitions, warmup, op);
    }

    public BandwidthRequest repetitions(int repetitions) {
        return new BandwidthRequest(session, sizes, window, repetitions, warmup, op);
    }

    public BandwidthRequest op(Op op) {
        return new BandwidthRequest(session, sizes, window, repetitions, warmup, op);
    }

    @Override
    public long[] sizes() {
        return sizes.clone();
    }

    /** This request as its command line, for ranks that {@link LocalRanks} starts. */
    java.util.List<String> commandLine() {
        return session.commandLine("bandwidth", "-s", SizeList.format(sizes), "-w", Integer.toString(window), "-n",
                Integer.toString(repetitions), "--warmup", Integer.toString(warmup), "--op", op.label());
    }
}
