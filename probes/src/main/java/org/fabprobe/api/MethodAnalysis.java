package org.fabprobe.api;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.fabprobe.Steps;
import org.fabprobe.launch.Session;
import org.fabprobe.launch.SessionSpec;
import org.fabprobe.method.LogGPMethod;
import org.fabprobe.method.PLogPMethod;
import org.fabprobe.method.Sampler;
import org.fabprobe.method.SignatureMethod;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.pattern.Probe;
import org.fabprobe.pattern.Schedule;
import org.fabprobe.result.LogGPDocument;
import org.fabprobe.result.MethodSettings;
import org.fabprobe.result.PLogPDocument;
import org.fabprobe.result.PeerSettings;
import org.fabprobe.result.SignatureDocument;
import org.fabprobe.transport.Op;
import org.fabprobe.transport.Transports;

/**
 * The LogP methods (plogp, loggp, signature) from request to typed document: one session with a
 * mirror, the probes' JIT warm-up, the method, and its result turned into the document.
 */
public final class MethodAnalysis {
    private MethodAnalysis() {}

    /** Sends and receives a probe may have outstanding (trains and bursts longer than this stall). */
    public static final int DEPTH = 64;
    /** Untimed JIT warm-up of every probe before the method. */
    static final double WARMUP_BUDGET_NS = 1.5e9;

    /** Run facts and timings every method's document and table share. */
    public record Context<S extends MethodSettings.Holder>(RunFacts<S> run, double warmupMs, double wallSeconds) {}

    /** A method's run: its context, the method's own result (what the table and CSV show) and the document. */
    public record Outcome<S extends MethodSettings.Holder, R, D>(Context<S> context, R result, D document) {}

    /** Runs {@code request}, telling {@code steps} before each size, and analyses what it measured. */
    public static Outcome<PLogPDocument.Settings, PLogPMethod.Result, PLogPDocument> plogp(PLogPRequest request, Steps steps) {
        long[] sizes = request.sizes();
        long limit = request.largestSize();
        Sampler sampler = request.sampling().sampler();
        long seed = request.orderSeed() != null ? request.orderSeed() : new java.util.SplittableRandom().nextLong();
        String startedAt = Instant.now().toString();
        var run = run(request.session(), limit, request.calls(), request.op(), steps,
                probe -> new PLogPMethod(probe, sampler, steps).run(new PLogPMethod.Settings(sizes, limit, request.validate(), seed)));
        var context = run.context("plogp", request.session(), startedAt, peer -> new PLogPDocument.Settings(SizeList.asList(sizes),
                limit, request.validate(), PLogPMethod.SATURATION_EPS, seed, request.op().label(),
                describe(request.sampling(), sampler, request.calls(), run.sendTiming()), peer));
        return new Outcome<>(context, run.result(), MethodDocuments.plogp(context, run.result()));
    }

    /** Runs {@code request}, telling {@code steps} before each size, and analyses what it measured. */
    public static Outcome<LogGPDocument.Settings, LogGPMethod.Result, LogGPDocument> logGP(LogGPRequest request, Steps steps) {
        long[] sizes = request.sizes();
        Sampler sampler = request.sampling().sampler();
        String startedAt = Instant.now().toString();
        var run = run(request.session(), sizes[sizes.length - 1], request.calls(), request.op(), steps,
                probe -> new LogGPMethod(probe, sampler, steps).run(new LogGPMethod.Settings(sizes, request.messages())));
        var context = run.context("loggp", request.session(), startedAt, peer -> new LogGPDocument.Settings(SizeList.asList(sizes),
                request.messages(), request.op().label(), describe(request.sampling(), sampler, request.calls(), run.sendTiming()),
                peer));
        return new Outcome<>(context, run.result(), MethodDocuments.logGP(context, run.result()));
    }

    /** Runs {@code request}, telling {@code steps} before each curve and bulk size, and analyses what it measured. */
    public static Outcome<SignatureDocument.Settings, SignatureMethod.Result, SignatureDocument> signature(SignatureRequest request,
                                                                                                          Steps steps) {
        int[] bursts = request.bursts();
        long[] bulk = request.bulkSizes();
        Sampler sampler = request.sampling().sampler();
        String startedAt = Instant.now().toString();
        var run = run(request.session(), bulk.length == 0 ? 0 : bulk[bulk.length - 1], request.calls(), Op.SEND, steps,
                probe -> new SignatureMethod(probe, sampler, steps).run(new SignatureMethod.Settings(bursts, bulk)));
        var context = run.context("signature", request.session(), startedAt, peer -> new SignatureDocument.Settings(
                Arrays.stream(bursts).boxed().toList(), SizeList.asList(bulk),
                describe(request.sampling(), sampler, request.calls(), run.sendTiming()), peer));
        return new Outcome<>(context, run.result(), MethodDocuments.signature(context, run.result()));
    }

    /**
     * What one session returned, with what the document needs; {@code sendTiming} is how blocking
     * sends were timed ({@link org.fabprobe.transport.Transport#sendTiming}), "" for nonblocking calls.
     */
    private record Run<R>(R result, Map<String, String> transportFacts, Session.Facts facts, String sendTiming, double warmupMs,
                          double wallSeconds) {
        <S extends MethodSettings.Holder> Context<S> context(String command, SessionSettings session, String startedAt,
                                                             Function<PeerSettings, S> settings) {
            return new Context<>(session.runFacts(command, facts, transportFacts, settings, startedAt), warmupMs, wallSeconds);
        }
    }

    /** Runs {@code body} against a fresh mirror after the JIT warm-up; op SEND: the probes' messages are sends, WRITE: one-sided writes. */
    private static <R> Run<R> run(SessionSettings session, long largestMessage, PingPong.Calls calls, Op op, Steps steps,
                                  Function<Probe, R> body) {
        SessionSpec spec = session.spec(largestMessage, DEPTH, new Schedule.ProbeSchedule(DEPTH, calls, op));
        Map<String, String> facts = new LinkedHashMap<>();
        Session.Facts[] sessionFacts = new Session.Facts[1];
        double[] warmupNs = new double[1];
        String[] sendTiming = {""};
        long start = System.nanoTime();
        R result = session.run(spec, (t, await, control) -> {
            facts.putAll(t.facts());
            Probe probe = new Probe(t, await, control, DEPTH, calls, op);
            if (calls == PingPong.Calls.BLOCKING) sendTiming[0] = t.sendTiming();
            steps.phase("JIT warm-up");
            warmupNs[0] = probe.warmUp(WARMUP_BUDGET_NS, largestMessage);
            R r = body.apply(probe);
            probe.end();
            return r;
        }, f -> sessionFacts[0] = f);
        return new Run<>(result, facts, sessionFacts[0], sendTiming[0], warmupNs[0] / 1e6, (System.nanoTime() - start) / 1e9);
    }

    /** The settings a method's document records from its sampling, calls and run. */
    private static MethodSettings describe(Sampling sampling, Sampler sampler, PingPong.Calls calls, String sendTiming) {
        return new MethodSettings(calls.label(), describeCalls(calls), sendTiming.isEmpty() ? null : sendTiming,
                sampler.toString(), sampling.ciPercent(), sampling.batch(), sampling.maxReps(), sampling.timeCap(), DEPTH);
    }

    /** What the table's header and the JSON's settings.calls say about the calls. */
    static String describeCalls(PingPong.Calls calls) {
        return calls == PingPong.Calls.BLOCKING ? "blocking (MPI_Send / MPI_Recv)"
                : "nonblocking (post, then poll progress; MPI_Isend / MPI_Irecv / MPI_Test under mpi)";
    }

    /**
     * The calls of a method's request (null: the transport's default for {@code op}), refused in
     * the commands' words where the op or the transport has no such calls.
     */
    static PingPong.Calls checkCalls(String transport, PingPong.Calls calls, Op op) {
        if (!Probe.timesOp(op)) throw new IllegalArgumentException("--op " + op.label() + ": the LogP probes send, write or read");
        if (calls == null) return op.oneSided() ? PingPong.Calls.NONBLOCKING : PingPongRequest.defaultCalls(transport);
        if (calls == PingPong.Calls.BLOCKING) {
            if (op.oneSided()) throw new IllegalArgumentException(oneSidedNotBlocking(op));
            if (!Transports.hasBlockingCalls(transport)) {
                throw new IllegalArgumentException("--calls blocking needs a transport with blocking calls (mpi:...); "
                        + transport + " is polled: use --calls nonblocking or auto");
            }
        }
        return calls;
    }

    /** The one line that refuses --calls blocking for a one-sided op. */
    public static String oneSidedNotBlocking(Op op) {
        return "--op " + op.label() + ": " + op.label() + "s are posted and polled, not --calls blocking";
    }

    /** Message sizes, sorted, each once; refused if none or negative. */
    static long[] checkSizes(long[] sizes) {
        if (sizes == null || sizes.length == 0) throw new IllegalArgumentException("no message sizes");
        long[] sorted = Arrays.stream(sizes).sorted().distinct().toArray();
        if (sorted[0] < 0) throw new IllegalArgumentException("not a message size: " + sorted[0]);
        return sorted;
    }
}
