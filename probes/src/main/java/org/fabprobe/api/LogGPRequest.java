package org.fabprobe.api;

import org.fabprobe.pattern.PingPong;
import org.fabprobe.transport.Op;

/**
 * A LogGP run to make from PRTT(n,d,s) round trips (Hoefler et al.): where ({@link SessionSettings}),
 * the sizes s, n, the sampling, the calls and what a probe's message is (send or write).
 */
public record LogGPRequest(SessionSettings session, long[] sizes, int messages, Sampling sampling, PingPong.Calls calls,
                           Op op) {
    /** The largest n of PRTT(n,d,s). */
    public static final int MAX_MESSAGES = 4096;

    public LogGPRequest {
        if (op == null) op = Op.SEND;
        if (sampling == null) sampling = Sampling.defaults();
        calls = MethodAnalysis.checkCalls(session.transport(), calls, op);
        sizes = MethodAnalysis.checkSizes(sizes);
        if (messages < 2 || messages > MAX_MESSAGES) throw new IllegalArgumentException("--messages must be 2.." + MAX_MESSAGES);
    }

    /** The command's defaults over {@code transport} against a local mirror: sizes 0 B .. 256 KiB, n = 16. */
    public static LogGPRequest of(String transport) {
        return new LogGPRequest(SessionSettings.local(transport), SizeList.parse("0..256K"), 16, Sampling.defaults(), null,
                Op.SEND);
    }

    public LogGPRequest sizes(long... sizes) {
        return new LogGPRequest(session, sizes, messages, sampling, calls, op);
    }

    /** n of PRTT(n,d,s). */
    public LogGPRequest messages(int messages) {
        return new LogGPRequest(session, sizes, messages, sampling, calls, op);
    }

    public LogGPRequest sampling(Sampling sampling) {
        return new LogGPRequest(session, sizes, messages, sampling, calls, op);
    }

    /** The op; a one-sided write is posted and polled, so its calls become nonblocking. */
    public LogGPRequest op(Op op) {
        return new LogGPRequest(session, sizes, messages, sampling, op != null && op.oneSided() ? PingPong.Calls.NONBLOCKING : calls,
                op);
    }

    @Override
    public long[] sizes() {
        return sizes.clone();
    }

    /** This request as its command line, for ranks that {@link LocalRanks} starts. */
    java.util.List<String> commandLine() {
        java.util.List<String> args = session.commandLine("loggp", "-s", SizeList.format(sizes), "--messages",
                Integer.toString(messages), "--calls", calls.label(), "--op", op.label());
        args.addAll(sampling.options());
        return args;
    }

    /** The steps the run reports to its progress line: one per size. */
    public int steps() {
        return sizes.length;
    }
}
