package org.fabprobe.api;

import java.util.Arrays;
import org.fabprobe.Steps;
import org.fabprobe.pattern.OneSidedPingPong;
import org.fabprobe.pattern.PingPong;

/**
 * {@code pingpong --op write|read|fetch-add|cswap}: {@link OneSidedPingPong} through the same
 * session and the same analysis as the two-sided sweep ({@link PingPongAnalysis#analyze}).
 * Atomics run on 8 B whatever the sizes asked for; writes and reads leave out 0 B (nothing to
 * write, no flag byte to poll).
 */
final class OneSidedAnalysis {
    private OneSidedAnalysis() {}

    /** Registered buffers hold at least an atomic's operand, result and compare words. */
    static final long MIN_BUFFER_BYTES = 64;

    /** The sizes a one-sided op runs at: 8 B for atomics, else the request's sizes above 0 B. */
    static long[] sizes(PingPongRequest request) {
        long[] sizes = request.op().atomic() ? new long[] {8}
                : Arrays.stream(request.sizes()).filter(s -> s > 0).toArray();
        if (sizes.length == 0) {
            throw new IllegalArgumentException("--op " + request.op().label() + " needs a size of at least 1 B");
        }
        return sizes;
    }

    static PingPongResult run(PingPongRequest request, Steps steps) {
        long[] sizes = sizes(request);
        OneSidedPingPong pattern = new OneSidedPingPong(sizes, request.warmup(), request.repetitions(), request.op());
        var spec = request.session().spec(Math.max(sizes[sizes.length - 1], MIN_BUFFER_BYTES), 4, pattern.schedule());
        return PingPongAnalysis.sweep(request, sizes, spec, PingPong.Calls.NONBLOCKING.label(), OneSidedPingPong.JIT_ROUNDS,
                (t, await, control, facts) -> {
                    // as the two-sided sweep: on a shared CPU every attempt is disturbed alike
                    boolean sharedCpu = facts != null && facts.sharedCpu() >= 0;
                    return pattern.measure(t, await, control, steps, sharedCpu ? 0 : PingPong.MAX_REMEASURES);
                });
    }
}
