package org.fabprobe.api;

import java.util.Arrays;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.transport.Op;

/**
 * A fast parameterized-LogP run to make (Kielmann et al.): where ({@link SessionSettings}), the
 * initial sizes m, the largest size the range may grow to, whether to saturate every size too,
 * the seed of the sizes' random orders (null: a new one per run), the sampling, the calls and
 * what a probe's message is (send or write).
 */
public record PLogPRequest(SessionSettings session, long[] sizes, long adaptiveLimit, boolean validate, Long orderSeed,
                           Sampling sampling, PingPong.Calls calls, Op op) {
    public PLogPRequest {
        if (op == null) op = Op.SEND;
        if (sampling == null) sampling = Sampling.defaults();
        calls = MethodAnalysis.checkCalls(session.transport(), calls, op);
        sizes = MethodAnalysis.checkSizes(sizes);
        if (adaptiveLimit < 0) throw new IllegalArgumentException("--adaptive-limit must be >= 0");
    }

    /** The command's defaults over {@code transport} against a local mirror: sizes 0 B .. 256 KiB, growing up to 1 MiB. */
    public static PLogPRequest of(String transport) {
        return new PLogPRequest(SessionSettings.local(transport), SizeList.parse("0..256K"), 1L << 20, false, null,
                Sampling.defaults(), null, Op.SEND);
    }

    public PLogPRequest sizes(long... sizes) {
        return new PLogPRequest(session, sizes, adaptiveLimit, validate, orderSeed, sampling, calls, op);
    }

    /** The largest size the range may grow to while g(m)/m has not settled (0: no growth). */
    public PLogPRequest adaptiveLimit(long adaptiveLimit) {
        return new PLogPRequest(session, sizes, adaptiveLimit, validate, orderSeed, sampling, calls, op);
    }

    /** Also measure g(m) by saturation at every size. */
    public PLogPRequest validate(boolean validate) {
        return new PLogPRequest(session, sizes, adaptiveLimit, validate, orderSeed, sampling, calls, op);
    }

    public PLogPRequest sampling(Sampling sampling) {
        return new PLogPRequest(session, sizes, adaptiveLimit, validate, orderSeed, sampling, calls, op);
    }

    /** The op; a one-sided write is posted and polled, so its calls become nonblocking. */
    public PLogPRequest op(Op op) {
        return new PLogPRequest(session, sizes, adaptiveLimit, validate, orderSeed, sampling,
                op != null && op.oneSided() ? PingPong.Calls.NONBLOCKING : calls, op);
    }

    @Override
    public long[] sizes() {
        return sizes.clone();
    }

    /** The largest size the run may measure: the adaptive limit, or the largest initial size if above it. */
    public long largestSize() {
        return Math.max(adaptiveLimit, sizes[sizes.length - 1]);
    }

    /** This request as its command line, for ranks that {@link LocalRanks} starts. */
    java.util.List<String> commandLine() {
        java.util.List<String> args = session.commandLine("plogp", "-s", SizeList.format(sizes), "--adaptive-limit",
                Long.toString(adaptiveLimit), "--calls", calls.label(), "--op", op.label());
        if (validate) args.add("--validate");
        if (orderSeed != null) args.addAll(java.util.List.of("--order-seed", orderSeed.toString()));
        args.addAll(sampling.options());
        return args;
    }

    /** The steps the run reports to its progress line: g(0), then each size > 0 (twice with validate). */
    public int steps() {
        long positive = Arrays.stream(sizes).filter(m -> m > 0).count();
        return (int) (1 + (validate ? 2 : 1) * positive);
    }
}
