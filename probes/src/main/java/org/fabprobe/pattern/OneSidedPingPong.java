package org.fabprobe.pattern;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.fabprobe.ExitCode;
import org.fabprobe.Steps;
import org.fabprobe.clock.Clock;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.OneSided;
import org.fabprobe.transport.Op;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.TransportException;
import org.fabprobe.transport.Transports;

/**
 * Ping-pong's one-sided counterpart ({@link OneSided}), in {@link PingPong.Samples}' shape so
 * that the ping-pong analysis, report and JSON apply unchanged.
 *
 * <p><b>write</b>: measure writes m bytes into mirror's receive buffer, the last byte a round
 * counter; mirror polls that byte in its own memory, then writes back the same way (as
 * ib_write_lat). A sample is half a round trip, as in {@link PingPong}. The target makes no
 * library call per message but {@link Transport#progress} while it polls: libfabric's shm and
 * tcp move data only when the target reads its completion queue, and UCX serves emulated
 * operations only from the target's worker progress.
 *
 * <p><b>read</b>, <b>fetch-add</b>, <b>cswap</b>: measure posts one operation and waits for its
 * completion, then the next; a sample is one whole operation (atomics on 8 B whatever the
 * size). Mirror only drives progress meanwhile.
 *
 * <p>Each phase (the JIT warm-up, every size and every sentinel) starts with a 1-byte message
 * from mirror (its flag byte cleared, untimed) and ends with one from measure, both two-sided;
 * the buffer descriptions travel over the control channel before anything is timed.
 */
public final class OneSidedPingPong {
    /** Warm-up calls of {@link #JIT_CHUNK} operations each, so that the JIT compiles the loop by call count. */
    static final int JIT_CALLS = 3000, JIT_CHUNK = 2, JIT_BLOCK = 100;
    /** Untimed operations before the sweep that let the JIT compile the loop, at most (within PingPong's time budget). */
    public static final int JIT_ROUNDS = JIT_CALLS * JIT_CHUNK;
    /** The size of sentinel operations (see {@link PingPong}): 8 B, the atomics' word. */
    static final long SENTINEL_BYTES = 8;
    /** A size's rounds no tick times: the messages that begin and end its phase. */
    private static final int UNTIMED_ROUNDS = 2;
    private static final String REGION = "onesided_region", JIT_MORE = "onesided_jit_more",
            MIRROR_DISTURBANCES = "onesided_disturbances", MEASURE_AGAIN = "onesided_again";
    /** A region description (address, size, packed remote key): UCX's rkeys are the largest, well under this. */
    private static final int MAX_REGION_BYTES = 1 << 16;
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();
    /** Looks at the flag byte per progress call where the peer's writes land without this side's progress. */
    static final int PROGRESS_EVERY = 1024;

    private final long[] sizes;
    private final int warmup, repetitions;
    private final Op op;

    public OneSidedPingPong(long[] sizes, int warmup, int repetitions, Op op) {
        if (!op.oneSided()) throw new IllegalArgumentException("send is PingPong's");
        for (long s : sizes) if (s < 1) throw new IllegalArgumentException("one-sided sizes start at 1 B");
        this.sizes = sizes.clone();
        this.warmup = warmup;
        this.repetitions = repetitions;
        this.op = op;
    }

    public static OneSidedPingPong of(Schedule.OneSidedSchedule s) {
        return new OneSidedPingPong(s.sizes(), s.warmup(), s.repetitions(), s.op());
    }

    public Schedule.OneSidedSchedule schedule() {
        return new Schedule.OneSidedSchedule(sizes.clone(), warmup, repetitions, op);
    }

    /** What a sample is: half a write round trip, or one whole read or atomic. */
    public String timed() {
        return op == Op.WRITE ? "half round trip" : "one operation";
    }

    /** Measure half. */
    public PingPong.Samples measure(Transport t, Await await, Control control, Steps steps) {
        return measure(t, await, control, steps, PingPong.MAX_REMEASURES);
    }

    /**
     * Measure half, a disturbed size (both sides' preemptions, or a stall: as {@link PingPong})
     * measured again at most {@code maxRemeasures} times.
     */
    public PingPong.Samples measure(Transport t, Await await, Control control, Steps steps, int maxRemeasures) {
        OneSided os = exchange(t, control);
        steps.phase("JIT warm-up");
        long[] chunk = new long[JIT_CHUNK];
        // in phases of JIT_BLOCK calls, so that mirror's wait for a phase's end stays short, and
        // no longer than the budget: on a busy host every operation may wait for a CPU
        long budgetEnd = Clock.now() + Clock.fromNs((long) PingPong.JIT_WARMUP_BUDGET_NS);
        for (int c = 0; ; ) {
            beginMeasure(t, await, SENTINEL_BYTES);
            for (int k = 0; k < JIT_BLOCK; k++, c++) measureRounds(t, os, await, SENTINEL_BYTES, c * JIT_CHUNK, chunk);
            endMeasure(t, await);
            boolean more = c < JIT_CALLS && Clock.now() < budgetEnd;
            control.send(JIT_MORE, more ? 1 : 0);
            if (!more) break;
        }
        double[][] samples = new double[sizes.length][];
        double[] wallMs = new double[sizes.length], cpuWaitMs = new double[sizes.length];
        double[][] sentinelNs = new double[sizes.length + 1][];
        long[] ticks = new long[warmup + repetitions], sentinelTicks = new long[PingPong.SENTINEL_WARMUP + PingPong.SENTINEL_ROUNDS];
        sentinelNs[0] = sentinel(t, os, await, sentinelTicks);
        boolean[] disturbed = new boolean[sizes.length], gapStalled = new boolean[sizes.length];
        int[] remeasured = new int[sizes.length];
        double[] gapMs = new double[sizes.length];
        Remeasures remeasures = new Remeasures(maxRemeasures);
        for (int i = 0; i < sizes.length; i++) {
            for (boolean again = true; again; ) {
                if (remeasured[i] == 0) steps.next(op.label() + " at", sizes[i]);
                else {
                    steps.more(1);
                    steps.next("again (disturbed), " + op.label() + " at", sizes[i]);
                }
                Disturbances.Reading before = Disturbances.read(t);
                long start = Clock.now();
                beginMeasure(t, await, sizes[i]);
                measureRounds(t, os, await, sizes[i], 0, ticks);
                endMeasure(t, await);
                wallMs[i] = Clock.toNs(Clock.now() - start) / 1e6;
                Disturbances.Reading mine = Disturbances.read(t).since(before);
                samples[i] = ns(ticks, warmup);
                sentinelNs[i + 1] = sentinel(t, os, await, sentinelTicks);
                Disturbances.Reading peer = Disturbances.Reading.of(control.receiveAll(MIRROR_DISTURBANCES,
                        Disturbances.Reading.FIELDS), 0);
                cpuWaitMs[i] = mine.waitNs() < 0 || peer.waitNs() < 0 ? -1 : (mine.waitNs() + peer.waitNs()) / 1e6;
                // every round is timed, warm-up included; begin and end exchange a message or two
                double[] roundNs = PingPong.ns(ticks);
                double gapNs = PingPong.gapNs(wallMs[i] * 1e6, roundNs, UNTIMED_ROUNDS, PingPong.longerWaitNs(mine, peer));
                gapMs[i] = gapNs / 1e6;
                gapStalled[i] = PingPong.gapStalled(gapNs, roundNs, UNTIMED_ROUNDS);
                boolean preempted = PingPong.disturbed(mine, peer, warmup + repetitions);
                boolean stalled = PingPong.stalled(samples[i]) || gapStalled[i];
                disturbed[i] = preempted || stalled;
                again = remeasures.again(remeasured[i], Remeasures.Cause.of(preempted, stalled),
                        Remeasures.everyRoundHit(mine, peer, warmup + repetitions));
                control.send(MEASURE_AGAIN, again ? 1 : 0);
                if (again) remeasured[i]++;
            }
        }
        return new PingPong.Samples(samples, wallMs, sentinelNs, cpuWaitMs, disturbed, remeasured, gapMs, gapStalled);
    }

    /** Mirror half. */
    public void mirror(Transport t, Await await, Control control) {
        OneSided os = exchange(t, control);
        int c = 0;
        do {
            beginMirror(t, await, SENTINEL_BYTES);
            for (int k = 0; k < JIT_BLOCK; k++, c++) mirrorRounds(t, os, await, SENTINEL_BYTES, c * JIT_CHUNK, JIT_CHUNK);
            endMirror(t, os, await);
        } while (control.receive(JIT_MORE) != 0);
        mirrorSentinel(t, os, await);
        for (long size : sizes) {
            do {
                Disturbances.Reading before = Disturbances.read(t);
                beginMirror(t, await, size);
                mirrorRounds(t, os, await, size, 0, warmup + repetitions);
                endMirror(t, os, await);
                Disturbances.Reading moved = Disturbances.read(t).since(before);
                mirrorSentinel(t, os, await);
                control.sendAll(MIRROR_DISTURBANCES, moved.fields());
            } while (control.receive(MEASURE_AGAIN) != 0);
        }
    }

    private double[] sentinel(Transport t, OneSided os, Await await, long[] ticks) {
        beginMeasure(t, await, SENTINEL_BYTES);
        measureRounds(t, os, await, SENTINEL_BYTES, 0, ticks);
        endMeasure(t, await);
        return ns(ticks, PingPong.SENTINEL_WARMUP);
    }

    private void mirrorSentinel(Transport t, OneSided os, Await await) {
        beginMirror(t, await, SENTINEL_BYTES);
        mirrorRounds(t, os, await, SENTINEL_BYTES, 0, PingPong.SENTINEL_WARMUP + PingPong.SENTINEL_ROUNDS);
        endMirror(t, os, await);
    }

    /** The timed samples in ns, the first {@code untimed} left out; a write's round trip halved. */
    private double[] ns(long[] ticks, int untimed) {
        double[] ns = new double[ticks.length - untimed];
        double scale = op == Op.WRITE ? 0.5 : 1;
        for (int i = 0; i < ns.length; i++) ns[i] = Clock.toNs(ticks[untimed + i]) * scale;
        return ns;
    }

    private OneSided exchange(Transport t, Control control) {
        return exchange(t, control, op);
    }

    /** Both sides describe their receive buffer and attach the other's, over the control channel. */
    static OneSided exchange(Transport t, Control control, Op op) {
        if (!(t instanceof OneSided os)) {
            throw new TransportException(ExitCode.UNKNOWN_TRANSPORT, "--op " + op.label() + ": " + t.name()
                    + " has no one-sided operations; transports that do: " + Transports.ONE_SIDED_TRANSPORTS);
        }
        control.sendBytes(REGION, os.describeRegion());
        byte[] description = control.receiveBytes(REGION, MAX_REGION_BYTES);
        os.attachPeerRegion(description);
        return os;
    }

    // ---- phases: mirror clears its flag byte and says so; measure clears its own and starts

    private void beginMeasure(Transport t, Await await, long size) {
        long recvs = t.recvsCompleted();
        t.postRecv(1);
        await.recvs(t, recvs + 1);
        if (op == Op.WRITE) BYTE.setVolatile(t.recvBuffer(), size - 1, (byte) 0);
    }

    private void endMeasure(Transport t, Await await) {
        long sends = t.sendsCompleted();
        t.postSend(1);
        await.sends(t, sends + 1);
    }

    private void beginMirror(Transport t, Await await, long size) {
        if (op == Op.WRITE) BYTE.setVolatile(t.recvBuffer(), size - 1, (byte) 0);
        long sends = t.sendsCompleted(), recvs = t.recvsCompleted();
        t.postRecv(1); // the phase's end, posted before measure can send it
        t.postSend(1);
        await.sends(t, sends + 1);
        pendingRecvs = recvs + 1;
    }

    /** The receive count the phase's closing message brings. */
    private long pendingRecvs;

    private void endMirror(Transport t, OneSided os, Await await) {
        await.recvs(t, pendingRecvs); // progresses meanwhile: what emulated operations need
        awaitOneSided(t, os, await);
    }

    /** The flag value of round r: 1..255, never the cleared 0, never the previous round's. */
    static byte flag(long r) {
        return (byte) (r % 255 + 1);
    }

    /**
     * Measure half of one phase: {@code ticks.length} operations (writes: round trips), rounds
     * numbered from {@code from}; interval i ends when operation i has completed (writes: its
     * reply has arrived) and the next one is posted.
     */
    private void measureRounds(Transport t, OneSided os, Await await, long size, long from, long[] ticks) {
        switch (op) {
            case WRITE -> {
                MemorySegment send = t.sendBuffer(), recv = t.recvBuffer();
                long at = size - 1;
                long previous = Clock.now();
                for (int i = 0; i < ticks.length; i++) {
                    byte f = flag(from + i);
                    BYTE.set(send, at, f);
                    os.postWrite(size);
                    awaitFlag(t, os, await, recv, at, f);
                    long now = Clock.now();
                    ticks[i] = now - previous;
                    previous = now;
                }
            }
            case READ -> {
                long previous = Clock.now();
                for (int i = 0; i < ticks.length; i++) {
                    os.postRead(size);
                    awaitOneSided(t, os, await);
                    long now = Clock.now();
                    ticks[i] = now - previous;
                    previous = now;
                }
            }
            case FETCH_ADD -> {
                long previous = Clock.now();
                for (int i = 0; i < ticks.length; i++) {
                    os.postFetchAdd(1);
                    awaitOneSided(t, os, await);
                    long now = Clock.now();
                    ticks[i] = now - previous;
                    previous = now;
                }
            }
            case CSWAP -> {
                long expect = expected;
                long previous = Clock.now();
                for (int i = 0; i < ticks.length; i++) {
                    os.postCompareSwap(expect, expect + 1);
                    awaitOneSided(t, os, await);
                    long now = Clock.now();
                    long old = os.fetched();
                    expect = old == expect ? expect + 1 : old;
                    ticks[i] = now - previous;
                    previous = now;
                }
                expected = expect;
            }
            case SEND -> throw new IllegalStateException();
        }
    }

    /** The target word's value as the last compare-and-swap left it. */
    private long expected;

    /** Mirror half of one phase: writes echo measure's, other operations need nothing per operation. */
    private void mirrorRounds(Transport t, OneSided os, Await await, long size, long from, int rounds) {
        if (op != Op.WRITE) return;
        MemorySegment send = t.sendBuffer(), recv = t.recvBuffer();
        long at = size - 1;
        for (int i = 0; i < rounds; i++) {
            byte f = flag(from + i);
            awaitFlag(t, os, await, recv, at, f);
            BYTE.set(send, at, f);
            os.postWrite(size);
        }
    }

    /**
     * Polls own memory for the flag, driving progress on every look where the peer's writes
     * need it (manual-progress providers, emulated writes), else every {@link #PROGRESS_EVERY}th
     * (the own operations' completions; UCX's keep-alive).
     */
    static void awaitFlag(Transport t, OneSided os, Await await, MemorySegment recv, long at, byte f) {
        long spins = 0, deadline = 0;
        int progressMask = os.writesNeedTargetProgress() ? 0 : PROGRESS_EVERY - 1;
        while ((byte) BYTE.getAcquire(recv, at) != f) {
            if ((++spins & progressMask) == 0) t.progress();
            if ((spins & 0xFFFF) == 0) deadline = await.deadline(deadline, "flag byte " + f + " at offset " + at);
        }
        if (os.oneSidedCompleted() < os.oneSidedPosted()) awaitOneSided(t, os, await);
    }

    /** Until every one-sided operation posted has completed. */
    static void awaitOneSided(Transport t, OneSided os, Await await) {
        long spins = 0, deadline = 0;
        while (os.oneSidedCompleted() < os.oneSidedPosted()) {
            t.progress();
            if ((++spins & 0xFFFF) == 0) deadline = await.deadline(deadline, "one-sided completion " + os.oneSidedPosted());
        }
    }
}
