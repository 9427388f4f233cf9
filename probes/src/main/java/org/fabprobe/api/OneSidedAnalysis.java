package org.fabprobe.api;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.fabprobe.Steps;
import org.fabprobe.launch.Session;
import org.fabprobe.pattern.OneSidedPingPong;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.result.PingPongDocument;

/**
 * {@code pingpong --op write|read|fetch-add|cswap}: {@link OneSidedPingPong} through the same
 * session and the same analysis as the two-sided sweep ({@link PingPongAnalysis#analyze}).
 * Atomics run on 8 B whatever the sizes asked for; writes and reads leave out 0 B (nothing to
 * write, no flag byte to poll).
 */
final class OneSidedAnalysis {
    private OneSidedAnalysis() {}

    /** Registered buffers hold at least an atomic's operand, result and compare words. */
    private static final long MIN_BUFFER_BYTES = 64;

    static PingPongResult run(PingPongRequest request, Steps steps) {
        long[] sizes = request.op().atomic() ? new long[] {8}
                : Arrays.stream(request.sizes()).filter(s -> s > 0).toArray();
        if (sizes.length == 0) {
            throw new IllegalArgumentException("--op " + request.op().label() + " needs a size of at least 1 B");
        }
        SessionSettings session = request.session();
        OneSidedPingPong pattern = new OneSidedPingPong(sizes, request.warmup(), request.repetitions(), request.op());
        var spec = session.spec(Math.max(sizes[sizes.length - 1], MIN_BUFFER_BYTES), 4, pattern.schedule());
        String startedAt = Instant.now().toString();
        long start = System.nanoTime();
        Map<String, String> transportFacts = new LinkedHashMap<>();
        Session.Facts[] facts = new Session.Facts[1];
        PingPong.Samples samples = session.run(spec, (t, await, control) -> {
            transportFacts.putAll(t.facts());
            return pattern.measure(t, await, control, steps);
        }, f -> facts[0] = f);
        double wallSeconds = (System.nanoTime() - start) / 1e9;
        RunFacts<PingPongDocument.Settings> run = session.runFacts("pingpong", facts[0], transportFacts,
                peer -> new PingPongDocument.Settings(SizeList.asList(sizes), request.warmup(), request.repetitions(),
                        PingPong.Calls.NONBLOCKING.label(), request.op().label(), OneSidedPingPong.JIT_ROUNDS, peer), startedAt);
        return PingPongAnalysis.analyze(run, sizes, samples, wallSeconds);
    }
}
