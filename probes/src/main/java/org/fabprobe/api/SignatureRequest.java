package org.fabprobe.api;

import java.util.Arrays;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.transport.Op;

/**
 * A LogP signature to take (Culler et al.): where ({@link SessionSettings}), the burst lengths M,
 * the request sizes of bulk o_s(n) and g(n) (none: skip them), the sampling and the calls.
 */
public record SignatureRequest(SessionSettings session, int[] bursts, long[] bulkSizes, Sampling sampling,
                               PingPong.Calls calls) {
    /** The longest burst. */
    public static final int MAX_BURST = 1 << 16;

    public SignatureRequest {
        if (sampling == null) sampling = Sampling.defaults();
        calls = MethodAnalysis.checkCalls(session.transport(), calls, Op.SEND);
        bursts = bursts == null ? new int[0] : Arrays.stream(bursts).sorted().distinct().toArray();
        if (bursts.length < 2 || bursts[0] != 1 || bursts[bursts.length - 1] > MAX_BURST) {
            throw new IllegalArgumentException("--bursts must start at 1, have two or more values, and stay <= " + MAX_BURST);
        }
        bulkSizes = bulkSizes == null || bulkSizes.length == 0 ? new long[0] : MethodAnalysis.checkSizes(bulkSizes);
    }

    /** The command's defaults over {@code transport} against a local mirror: M = 1 .. 256, bulk at 8 B, 64 B, 512 B, 4 KiB. */
    public static SignatureRequest of(String transport) {
        return new SignatureRequest(SessionSettings.local(transport), new int[] {1, 2, 4, 8, 16, 32, 64, 128, 256},
                new long[] {8, 64, 512, 4096}, Sampling.defaults(), null);
    }

    /** Burst lengths M: 1 and at least one more. */
    public SignatureRequest bursts(int... bursts) {
        return new SignatureRequest(session, bursts, bulkSizes, sampling, calls);
    }

    /** Request sizes of bulk o_s(n) and g(n); none: no bulk. */
    public SignatureRequest bulkSizes(long... bulkSizes) {
        return new SignatureRequest(session, bursts, bulkSizes, sampling, calls);
    }

    public SignatureRequest sampling(Sampling sampling) {
        return new SignatureRequest(session, bursts, bulkSizes, sampling, calls);
    }

    @Override
    public int[] bursts() {
        return bursts.clone();
    }

    @Override
    public long[] bulkSizes() {
        return bulkSizes.clone();
    }

    /** The steps the run reports to its progress line: 4 curves (Delta = 0, g/2, g, 2g), then each bulk size. */
    public int steps() {
        return 4 + bulkSizes.length;
    }

    /** This request as its command line, for ranks that {@link LocalRanks} starts. */
    java.util.List<String> commandLine() {
        java.util.List<String> args = session.commandLine("signature", "--bursts", java.util.Arrays.stream(bursts)
                .mapToObj(Integer::toString).collect(java.util.stream.Collectors.joining(",")), "--bulk-sizes",
                bulkSizes.length == 0 ? "none" : SizeList.format(bulkSizes), "--calls", calls.label());
        args.addAll(sampling.options());
        return args;
    }
}
