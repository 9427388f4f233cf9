package org.fabprobe.api;

import org.fabprobe.pattern.PingPong;
import org.fabprobe.transport.Op;

/**
 * A ping-pong sweep to run: where ({@link SessionSettings}), which sizes, how many timed round
 * trips per size after how many untimed ones, and how each side sends and receives;
 * passiveTarget: measure who must progress the one-sided op instead (pattern.TargetProgress).
 */
public record PingPongRequest(SessionSettings session, long[] sizes, int repetitions, int warmup, PingPong.Calls calls,
                              Op op, boolean passiveTarget) {
    public PingPongRequest {
        if (sizes == null || sizes.length == 0) throw new IllegalArgumentException("no message sizes");
        SessionSettings.checkCounts(repetitions, warmup);
        sizes = sizes.clone();
        if (op == null) op = Op.SEND;
        if (passiveTarget && !op.oneSided()) {
            throw new IllegalArgumentException("--target passive needs a one-sided --op (write, read, fetch-add, cswap)");
        }
    }

    public PingPongRequest(SessionSettings session, long[] sizes, int repetitions, int warmup, PingPong.Calls calls, Op op) {
        this(session, sizes, repetitions, warmup, calls, op, false);
    }

    /** The same run with the target passive (who must progress), or the ordinary one. */
    public PingPongRequest passiveTarget(boolean passive) {
        return new PingPongRequest(session, sizes, repetitions, warmup, calls, op, passive);
    }

    /** Two-sided messages (send), as before one-sided operations existed. */
    public PingPongRequest(SessionSettings session, long[] sizes, int repetitions, int warmup, PingPong.Calls calls) {
        this(session, sizes, repetitions, warmup, calls, Op.SEND);
    }

    public PingPongRequest op(Op op) {
        return new PingPongRequest(session, sizes, repetitions, warmup, calls, op, passiveTarget);
    }

    /** The command's defaults over {@code transport} against a local mirror: sizes 0 B .. 4 MiB, 1000 round trips after 100. */
    public static PingPongRequest of(String transport) {
        return new PingPongRequest(SessionSettings.local(transport), SizeList.parse("0..4M"), 1000, 100, defaultCalls(transport));
    }

    public PingPongRequest sizes(long... sizes) {
        return new PingPongRequest(session, sizes, repetitions, warmup, calls, op, passiveTarget);
    }

    public PingPongRequest repetitions(int repetitions) {
        return new PingPongRequest(session, sizes, repetitions, warmup, calls, op, passiveTarget);
    }

    @Override
    public long[] sizes() {
        return sizes.clone();
    }

    /** This request as its command line, for ranks that {@link LocalRanks} starts. */
    java.util.List<String> commandLine() {
        return session.commandLine("pingpong", "-s", SizeList.format(sizes), "-n", Integer.toString(repetitions), "--warmup",
                Integer.toString(warmup), "--calls", calls.label(), "--op", op.label(), "--target",
                passiveTarget ? "passive" : "active");
    }

    /** Blocking calls wherever the transport has them (MPI), else post-and-poll. */
    public static PingPong.Calls defaultCalls(String transport) {
        return org.fabprobe.transport.Transports.hasBlockingCalls(transport) ? PingPong.Calls.BLOCKING : PingPong.Calls.NONBLOCKING;
    }
}
