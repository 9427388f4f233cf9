package org.fabprobe.pattern;

import org.fabprobe.Steps;
import org.fabprobe.clock.Clock;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.OneSided;
import org.fabprobe.transport.Op;
import org.fabprobe.transport.Transport;

/**
 * {@link Stream}'s one-sided counterpart (as ib_write_bw, ucp_put_bw): per size, windows of
 * {@code window} writes into (or reads from) mirror's receive buffer; a window ends when every
 * operation in it has completed, writes after a {@link OneSided#postFlush} where the library
 * needs one for them to be complete at the target. Measure times each window from its first
 * post to its completion; the samples have {@link Stream.Samples}' shape, so the bandwidth
 * report applies unchanged.
 *
 * <p>Mirror makes no library call per operation: it drives progress while it waits for the
 * 1-byte two-sided message that ends each phase (the JIT warm-up's batches, every size), as
 * {@link OneSidedPingPong}'s target does; manual-progress providers need that to move data.
 */
public final class OneSidedStream {
    /** The size of the JIT warm-up's operations: the atomics' word, as OneSidedPingPong's sentinels. */
    static final long JIT_BYTES = 8;
    private static final String MIRROR_DISTURBANCES = "onesided_stream_disturbances", MEASURE_AGAIN = "onesided_stream_again";

    private final long[] sizes;
    private final int window, warmup, repetitions;
    private final Op op;

    public OneSidedStream(long[] sizes, int window, int warmup, int repetitions, Op op) {
        if (op != Op.WRITE && op != Op.READ) throw new IllegalArgumentException("one-sided streams write or read");
        if (window < 1) throw new IllegalArgumentException("window must be >= 1");
        if (repetitions < 1) throw new IllegalArgumentException("repetitions must be >= 1");
        if (warmup < 0) throw new IllegalArgumentException("warm-up must be >= 0");
        for (long s : sizes) if (s < 1) throw new IllegalArgumentException("one-sided sizes start at 1 B");
        this.sizes = sizes.clone();
        this.window = window;
        this.warmup = warmup;
        this.repetitions = repetitions;
        this.op = op;
    }

    public static OneSidedStream of(Schedule.OneSidedStreamSchedule s) {
        return new OneSidedStream(s.sizes(), s.window(), s.warmup(), s.repetitions(), s.op());
    }

    public Schedule.OneSidedStreamSchedule schedule() {
        return new Schedule.OneSidedStreamSchedule(sizes.clone(), window, warmup, repetitions, op);
    }

    /** Outstanding operations: a window, the flush, and the phase messages. */
    public int depth() {
        return window + 2;
    }

    /** Measure half: per size, the time of each timed window in ns. */
    public Stream.Samples measure(Transport t, Await await, Control control, Steps steps) {
        return measure(t, await, control, steps, PingPong.MAX_REMEASURES);
    }

    /** Measure half, a disturbed or stalled size measured again at most {@code maxRemeasures} times (as {@link Stream}). */
    public Stream.Samples measure(Transport t, Await await, Control control, Steps steps, int maxRemeasures) {
        OneSided os = OneSidedPingPong.exchange(t, control, op);
        steps.phase("JIT warm-up");
        long windowsPerBatch = Math.max(1, Stream.JIT_MESSAGES / window);
        JitWarmup.measureSide(control, Math.max(Stream.JIT_MIN_WINDOWS, windowsPerBatch), windowsPerBatch, windows -> {
            beginMeasure(t, await);
            for (long w = 0; w < windows; w++) runWindow(t, os, await, JIT_BYTES);
            endMeasure(t, await);
        });
        Stream.Samples samples = Stream.samples(sizes.length, repetitions);
        for (int i = 0; i < sizes.length; i++) {
            double[] windowNs = samples.windowNs()[i];
            for (boolean again = true; again; ) {
                if (samples.remeasured()[i] == 0) steps.next(op.label() + " windows at", sizes[i]);
                else {
                    steps.more(1);
                    steps.next("again (disturbed), " + op.label() + " windows at", sizes[i]);
                }
                Disturbances.Reading before = Disturbances.read(t);
                long phaseStart = Clock.now();
                beginMeasure(t, await);
                for (int w = 0; w < warmup + repetitions; w++) {
                    long start = Clock.now();
                    runWindow(t, os, await, sizes[i]);
                    if (w >= warmup) windowNs[w - warmup] = Clock.toNs(Clock.now() - start);
                }
                endMeasure(t, await);
                double wallNs = Clock.toNs(Clock.now() - phaseStart);
                Disturbances.Reading mine = Disturbances.read(t).since(before);
                // untimed: the warm-up windows and the phase's two messages
                again = Stream.again(control, MIRROR_DISTURBANCES, MEASURE_AGAIN, samples, i, mine, wallNs, warmup + repetitions,
                        warmup + 2, maxRemeasures);
            }
        }
        return samples;
    }

    /** Mirror half: progress only, phase by phase. */
    public void mirror(Transport t, Await await, Control control) {
        OneSided os = OneSidedPingPong.exchange(t, control, op);
        JitWarmup.mirrorSide(control, windows -> mirrorPhase(t, os, await));
        for (int i = 0; i < sizes.length; i++) {
            do {
                Disturbances.Reading before = Disturbances.read(t);
                mirrorPhase(t, os, await);
                control.sendAll(MIRROR_DISTURBANCES, Disturbances.read(t).since(before).fields());
            } while (control.receive(MEASURE_AGAIN) != 0);
        }
    }

    /** One window: {@code window} operations of {@code size}, then (writes) the flush, then their completion. */
    private void runWindow(Transport t, OneSided os, Await await, long size) {
        if (op == Op.WRITE) {
            for (int m = 0; m < window; m++) os.postWriteUnordered(size);
            os.postFlush();
        } else {
            for (int m = 0; m < window; m++) os.postReadUnordered(size);
            if (os.completesOnlyAtFlush()) os.postFlush();
        }
        OneSidedPingPong.awaitOneSided(t, os, await);
    }

    // ---- phases: mirror says it is polling; measure's closing message ends its progress loop

    private static void beginMeasure(Transport t, Await await) {
        long recvs = t.recvsCompleted();
        t.postRecv(1);
        await.recvs(t, recvs + 1);
    }

    private static void endMeasure(Transport t, Await await) {
        long sends = t.sendsCompleted();
        t.postSend(1);
        await.sends(t, sends + 1);
    }

    private static void mirrorPhase(Transport t, OneSided os, Await await) {
        long sends = t.sendsCompleted(), recvs = t.recvsCompleted();
        t.postRecv(1); // the phase's end, posted before measure can send it
        t.postSend(1);
        await.sends(t, sends + 1);
        await.recvs(t, recvs + 1); // progresses meanwhile: what manual-progress providers and emulated operations need
        OneSidedPingPong.awaitOneSided(t, os, await);
    }
}
