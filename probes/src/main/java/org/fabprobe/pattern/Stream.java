package org.fabprobe.pattern;

import org.fabprobe.Steps;
import org.fabprobe.clock.Clock;
import org.fabprobe.transport.Transport;

/**
 * Streaming bandwidth (the saturation method of Culler and Kielmann at large sizes, as
 * osu_bw measures it; ucx_perftest tag_bw streams without windows): per size, windows of {@code window}
 * back-to-back messages from measure to mirror; the mirror answers each full window with a
 * 0-byte acknowledgement. The measure process times each window from its first send to
 * the acknowledgement.
 *
 * <p>The mirror re-posts the next window's receives before it acknowledges, so data never
 * arrives unexpected; both halves read the same schedule from this class.
 *
 * <p>Before the sizes, once, windows of 0-byte messages let the JIT compile the data path
 * (up to {@value #JIT_MESSAGES} messages, at most {@link #JIT_WARMUP_BUDGET_NS} ns): with
 * only the few warm-up windows of a large size, C1 and C2 compiled it during the first timed
 * windows, and the thread blocked while they compiled (in the foreground) doubled those windows' times.
 */
public final class Stream {
    static final int JIT_MESSAGES = 20_000;
    static final double JIT_WARMUP_BUDGET_NS = 250e6;
    private static final int PROBE_WINDOWS = 4;

    private final long[] sizes;
    private final int window;
    private final int warmup;
    private final int repetitions;

    public Stream(long[] sizes, int window, int warmup, int repetitions) {
        if (window < 1) throw new IllegalArgumentException("window must be >= 1");
        if (repetitions < 1) throw new IllegalArgumentException("repetitions must be >= 1");
        if (warmup < 0) throw new IllegalArgumentException("warm-up must be >= 0");
        this.sizes = sizes.clone();
        this.window = window;
        this.warmup = warmup;
        this.repetitions = repetitions;
    }

    /** Outstanding operations each side needs: a full window of sends (or receives) plus the ack. */
    public int depth() {
        return window + 1;
    }

    public int window() {
        return window;
    }

    /** The inputs the mirror needs to follow the same schedule. */
    public Schedule.StreamSchedule schedule() {
        return new Schedule.StreamSchedule(sizes.clone(), window, warmup, repetitions);
    }

    public static Stream of(Schedule.StreamSchedule s) {
        return new Stream(s.sizes(), s.window(), s.warmup(), s.repetitions());
    }

    /** Measure half: per size, the time of each timed window in ns. */
    public double[][] measure(Transport t, Await await, Control control) {
        return measure(t, await, control, Steps.NONE);
    }

    /** Measure half, telling {@code steps} before each size (the timed windows are in {@link #measureSize}). */
    public double[][] measure(Transport t, Await await, Control control, Steps steps) {
        steps.phase("JIT warm-up");
        long fastest = Long.MAX_VALUE; // cold windows wait for compiles: the fastest one estimates the cost
        for (int w = 0; w < PROBE_WINDOWS; w++) {
            long start = Clock.now();
            sendWindow(t, await, 0);
            fastest = Math.min(fastest, Clock.now() - start);
        }
        long jitWindows = Math.max(1, Math.min(JIT_MESSAGES / window,
                (long) (JIT_WARMUP_BUDGET_NS / Math.max(Clock.toNs(fastest), 1))));
        JitWarmup.measureSide(control, jitWindows, Math.max(1, JIT_MESSAGES / window), windows -> {
            for (long w = 0; w < windows; w++) sendWindow(t, await, 0);
        });
        double[][] windowNs = new double[sizes.length][repetitions];
        for (int i = 0; i < sizes.length; i++) {
            steps.next("windows at", sizes[i]);
            measureSize(t, await, sizes[i], windowNs[i]);
        }
        return windowNs;
    }

    /** Times {@code warmup + repetitions} windows of {@code size}; the last {@code windowNs.length} are kept. */
    private void measureSize(Transport t, Await await, long size, double[] windowNs) {
        for (int w = 0; w < warmup + repetitions; w++) {
            long start = Clock.now();
            sendWindow(t, await, size);
            if (w >= warmup) windowNs[w - warmup] = Clock.toNs(Clock.now() - start);
        }
    }

    private void sendWindow(Transport t, Await await, long size) {
        long acks = t.recvsCompleted();
        long sends = t.sendsCompleted();
        t.postRecv(0);
        for (int m = 0; m < window; m++) {
            t.postSend(size);
            // let the library move what is already under way: on UCX tcp the first messages'
            // rendezvous replies otherwise waited for the whole window to be posted (+10 % at 1 MiB)
            t.progress();
        }
        await.recvs(t, acks + 1);
        await.sends(t, sends + window);
    }

    /** Mirror half: receives every window and acknowledges it. */
    public void mirror(Transport t, Await await, Control control) {
        mirrorSize(t, await, 0, PROBE_WINDOWS);
        JitWarmup.mirrorSide(control, windows -> mirrorSize(t, await, 0, windows));
        for (long size : sizes) mirrorSize(t, await, size, warmup + repetitions);
    }

    private void mirrorSize(Transport t, Await await, long size, long windows) {
        long recvs = t.recvsCompleted();
        for (int m = 0; m < window; m++) t.postRecv(size);
        for (long w = 0; w < windows; w++) {
            recvs += window;
            await.recvs(t, recvs);
            if (w + 1 < windows) {
                for (int m = 0; m < window; m++) t.postRecv(size);
            }
            long sends = t.sendsCompleted();
            t.postSend(0);
            await.sends(t, sends + 1);
        }
    }
}
