package org.fabprobe.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.fabprobe.Steps;
import org.fabprobe.api.Durations;
import org.fabprobe.api.SessionSettings;
import org.fabprobe.launch.SessionSpec;
import org.fabprobe.method.Sampler;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.pattern.Probe;
import org.fabprobe.pattern.Schedule;
import org.fabprobe.result.MethodSettings;
import picocli.CommandLine.Option;

/** Options of the LogP methods: how hard to sample, and the run itself (probe session). */
final class MethodOptions {
    /** Sends and receives a probe may have outstanding (trains and bursts longer than this stall). */
    static final int DEPTH = 64;
    /** Untimed JIT warm-up of every probe before the method. */
    static final double WARMUP_BUDGET_NS = 1.5e9;

    @Option(names = "--ci", defaultValue = "5",
            description = "Repeat each quantity until the 95%% confidence interval of its median is within +-PERCENT. Default: ${DEFAULT-VALUE}")
    double ciPercent;

    @Option(names = "--batch", defaultValue = "20", description = "Samples per batch between convergence checks. Default: ${DEFAULT-VALUE}")
    int batch;

    @Option(names = "--max-reps", defaultValue = "1000", description = "Repetition cap per quantity. Default: ${DEFAULT-VALUE}")
    int maxReps;

    @Option(names = "--time-cap", defaultValue = "100ms", description = "Time cap per quantity. Default: ${DEFAULT-VALUE}")
    String timeCap;

    Sampler sampler() {
        if (!(ciPercent > 0 && ciPercent < 100)) throw new IllegalArgumentException("--ci must be a percentage in (0, 100)");
        if (batch < 6 || batch > 100_000) throw new IllegalArgumentException("--batch must be 6..100000");
        if (maxReps < batch || maxReps > SessionSettings.MAX_REPETITIONS) {
            throw new IllegalArgumentException("--max-reps must be --batch.." + SessionSettings.MAX_REPETITIONS);
        }
        return new Sampler(ciPercent / 100, Sampler.DEFAULT_FLOOR_NS, batch, 4, maxReps, Durations.parse(timeCap).toNanos());
    }

    /** The settings a method's document records from these options and its run. */
    MethodSettings describe(Sampler sampler, PingPong.Calls calls, Run<?> run) {
        return new MethodSettings(calls.label(), describeCalls(calls), run.sendTiming().isEmpty() ? null : run.sendTiming(),
                sampler.toString(), ciPercent, batch, maxReps, timeCap, DEPTH);
    }

    /** What the table's header and the JSON's settings.calls say about the calls. */
    static String describeCalls(PingPong.Calls calls) {
        return calls == PingPong.Calls.BLOCKING ? "blocking (MPI_Send / MPI_Recv)"
                : "nonblocking (post, then poll progress; MPI_Isend / MPI_Irecv / MPI_Test under mpi)";
    }

    /**
     * What one method run returns, with the facts the report needs; {@code sendTiming} is how
     * blocking sends were timed ({@link org.fabprobe.transport.Transport#sendTiming}), "" for nonblocking calls.
     */
    record Run<R>(R result, Map<String, String> transportFacts, String sendTiming, double warmupMs, double wallSeconds) {}

    interface Body<R> {
        R run(Probe probe);
    }

    /** Runs {@code body} against a fresh mirror, after the JIT warm-up. */
    static <R> Run<R> run(SessionOptions session, long largestMessage, PingPong.Calls calls, Steps steps, Body<R> body) {
        return run(session, largestMessage, calls, org.fabprobe.transport.Op.SEND, steps, body);
    }

    /** @param op SEND: the probes' messages are sends; WRITE: one-sided writes ({@link Probe}) */
    static <R> Run<R> run(SessionOptions session, long largestMessage, PingPong.Calls calls, org.fabprobe.transport.Op op,
                          Steps steps, Body<R> body) {
        SessionSpec spec = session.spec(largestMessage, DEPTH, new Schedule.ProbeSchedule(DEPTH, calls, op));
        Map<String, String> facts = new LinkedHashMap<>();
        double[] warmupNs = new double[1];
        String[] sendTiming = {""};
        long start = System.nanoTime();
        R result = session.run(spec, (t, await, control) -> {
            facts.putAll(t.facts());
            Probe probe = new Probe(t, await, control, DEPTH, calls, op);
            if (calls == PingPong.Calls.BLOCKING) sendTiming[0] = t.sendTiming();
            steps.phase("JIT warm-up");
            warmupNs[0] = probe.warmUp(WARMUP_BUDGET_NS, largestMessage);
            R r = body.run(probe);
            probe.end();
            return r;
        });
        return new Run<>(result, facts, sendTiming[0], warmupNs[0] / 1e6, (System.nanoTime() - start) / 1e9);
    }
}
