package org.fabprobe.pattern;

import java.util.Arrays;
import org.fabprobe.Steps;
import org.fabprobe.clock.Clock;
import org.fabprobe.transport.Control;
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
 * <p><b>Disturbed sizes.</b> After each size the mirror sends its disturbance readings and
 * measure answers whether both measure that size again, as {@link PingPong} does: a size whose
 * timing threads were preempted in too many windows, or that stalled (one window, or wall time no
 * window accounts for: {@link PingPong#gapStalled}), is measured up to
 * {@link PingPong#MAX_REMEASURES} more times, and its last measurement is kept.
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
    /**
     * In the JIT warm-up every {@value #LARGE_EVERY}th window carries messages of up to
     * {@value #LARGE_WARMUP_BYTES} bytes (the largest size if smaller). A send that large does
     * not complete inside the call (UCX tcp: rendezvous; libfabric: above the inject size), so
     * the code that handles its request is taken, and profiled, before C2 compiles the loops.
     * With 0 B windows only it was first taken in the timed windows: in a 1 MiB ucx:tcp run
     * sendWindow and postSend hit unstable_if traps at the first timed window, and postSend,
     * reuse and the mirror's loop were compiled again by C2 during the measurement.
     */
    static final int LARGE_EVERY = 16;
    static final long LARGE_WARMUP_BYTES = 64 * 1024;
    /**
     * sendWindow runs once per window, so its call count grows slowly: HotSpot compiles a
     * method with C2 after ~600 calls (Tier4MinInvocationThreshold) once its loops have run
     * often enough. With 312 windows (20 000 messages) the warm-up could pass a whole batch
     * without a compilation and end while sendWindow was still at tier 3; C2 then compiled it,
     * blocking, in the timed windows (1 MiB ucx:tcp, -XX:+LogCompilation). The first batch
     * stays within {@link #JIT_WARMUP_BUDGET_NS}: a slow transport gets fewer windows.
     */
    static final long JIT_MIN_WINDOWS = 800;

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

    /**
     * What the measure half returns.
     *
     * @param windowNs   per size, the time of each timed window
     * @param disturbed  per size, whether its timing threads were preempted (or the emulator missed a
     *                   deadline) in more of its windows than its median tolerates (PingPong's rule), or
     *                   it stalled, in its last measurement
     * @param remeasured per size, how many times it was measured again because it was disturbed
     * @param gapMs      per size, its wall time no window (timed, or warm-up at the median pace) nor
     *                   wait for a CPU accounts for ({@link PingPong#gapNs})
     * @param stalled    per size, one window or that gap beyond the stall bound (also disturbed)
     */
    public record Samples(double[][] windowNs, boolean[] disturbed, int[] remeasured, double[] gapMs, boolean[] stalled) {}

    /** The mirror's disturbances of one measurement of a size, sent after it (untimed). */
    private static final String MIRROR_DISTURBANCES = "stream_disturbances";
    /** Measure's answer to them: 1 when both sides measure the same size again. */
    private static final String MEASURE_AGAIN = "stream_again";

    /**
     * The verdict on one measurement of a size, given both sides' readings, its wall time and its
     * untimed windows (warm-up, phase messages); {@code at} is the size's index.
     */
    static boolean judge(Samples s, int at, Disturbances.Reading mine, Disturbances.Reading peer, double wallNs,
                         int windows, int untimedWindows) {
        double gapNs = PingPong.gapNs(wallNs, s.windowNs()[at], untimedWindows, PingPong.longerWaitNs(mine, peer));
        s.gapMs()[at] = gapNs / 1e6;
        s.stalled()[at] = PingPong.stalled(s.windowNs()[at]) || PingPong.gapStalled(gapNs, s.windowNs()[at], untimedWindows);
        s.disturbed()[at] = PingPong.disturbed(mine, peer, windows) || s.stalled()[at];
        return s.disturbed()[at];
    }

    /** Empty samples for {@code sizes} sizes of {@code repetitions} windows. */
    static Samples samples(int sizes, int repetitions) {
        return new Samples(new double[sizes][repetitions], new boolean[sizes], new int[sizes], new double[sizes],
                new boolean[sizes]);
    }

    /**
     * After one measurement of size {@code at}: the mirror's readings in, the verdict, and the answer
     * out; true when both sides measure it again.
     */
    static boolean again(Control control, String readings, String answer, Samples s, int at, Disturbances.Reading mine,
                         double wallNs, int windows, int untimedWindows, int maxRemeasures) {
        Disturbances.Reading peer = Disturbances.Reading.of(control.receiveAll(readings, Disturbances.Reading.FIELDS), 0);
        boolean again = judge(s, at, mine, peer, wallNs, windows, untimedWindows) && s.remeasured()[at] < maxRemeasures;
        control.send(answer, again ? 1 : 0);
        if (again) s.remeasured()[at]++;
        return again;
    }

    /** Measure half: per size, the time of each timed window in ns. */
    public Samples measure(Transport t, Await await, Control control) {
        return measure(t, await, control, Steps.NONE);
    }

    /** Measure half, telling {@code steps} before each size (the timed windows are in {@link #measureSize}). */
    public Samples measure(Transport t, Await await, Control control, Steps steps) {
        return measure(t, await, control, steps, PingPong.MAX_REMEASURES);
    }

    /** As {@link #measure(Transport, Await, Control, Steps)}, measuring a disturbed size again at most {@code maxRemeasures} times. */
    public Samples measure(Transport t, Await await, Control control, Steps steps, int maxRemeasures) {
        steps.phase("JIT warm-up");
        long fastest = Long.MAX_VALUE; // cold windows wait for compiles: the fastest one estimates the cost
        for (int w = 0; w < PROBE_WINDOWS; w++) {
            long start = Clock.now();
            sendWindow(t, await, 0);
            fastest = Math.min(fastest, Clock.now() - start);
        }
        long jitWindows = Math.max(1, Math.min(Math.max(JIT_MIN_WINDOWS, JIT_MESSAGES / window),
                (long) (JIT_WARMUP_BUDGET_NS / Math.max(Clock.toNs(fastest), 1))));
        long large = largeWarmUpBytes();
        JitWarmup.measureSide(control, jitWindows, Math.max(1, JIT_MESSAGES / window), windows -> {
            for (long w = 0; w < windows; w++) sendWindow(t, await, windowBytes(w, 0, LARGE_EVERY, large));
        });
        Samples samples = samples(sizes.length, repetitions);
        for (int i = 0; i < sizes.length; i++) {
            for (boolean again = true; again; ) {
                if (samples.remeasured()[i] == 0) steps.next("windows at", sizes[i]);
                else {
                    steps.more(1);
                    steps.next("again (disturbed), windows at", sizes[i]);
                }
                Disturbances.Reading before = Disturbances.read(t);
                long start = Clock.now();
                measureSize(t, await, sizes[i], samples.windowNs()[i]);
                double wallNs = Clock.toNs(Clock.now() - start);
                Disturbances.Reading mine = Disturbances.read(t).since(before);
                again = again(control, MIRROR_DISTURBANCES, MEASURE_AGAIN, samples, i, mine, wallNs, warmup + repetitions,
                        warmup, maxRemeasures);
            }
        }
        return samples;
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

    private long largeWarmUpBytes() {
        return Math.min(LARGE_WARMUP_BYTES, Arrays.stream(sizes).max().orElse(0));
    }

    /** The bytes of window {@code w}: {@code size}, or {@code large} for every {@code largeEvery}th (0: none). */
    private static long windowBytes(long w, long size, int largeEvery, long large) {
        return largeEvery > 0 && w % largeEvery == largeEvery - 1 ? large : size;
    }

    /** Mirror half: receives every window and acknowledges it. */
    public void mirror(Transport t, Await await, Control control) {
        mirrorSize(t, await, 0, PROBE_WINDOWS, 0, 0);
        long large = largeWarmUpBytes();
        JitWarmup.mirrorSide(control, windows -> mirrorSize(t, await, 0, windows, LARGE_EVERY, large));
        for (long size : sizes) {
            do {
                Disturbances.Reading before = Disturbances.read(t);
                mirrorSize(t, await, size, warmup + repetitions, 0, 0);
                control.sendAll(MIRROR_DISTURBANCES, Disturbances.read(t).since(before).fields());
            } while (control.receive(MEASURE_AGAIN) != 0);
        }
    }

    /**
     * Receives {@code windows} windows and acknowledges each, with the next window's receives
     * posted first; window w has {@link #windowBytes} bytes (the JIT warm-up's large windows).
     */
    private void mirrorSize(Transport t, Await await, long size, long windows, int largeEvery, long large) {
        long recvs = t.recvsCompleted();
        postWindow(t, windowBytes(0, size, largeEvery, large));
        for (long w = 0; w < windows; w++) {
            recvs += window;
            await.recvs(t, recvs);
            if (w + 1 < windows) postWindow(t, windowBytes(w + 1, size, largeEvery, large));
            long sends = t.sendsCompleted();
            t.postSend(0);
            await.sends(t, sends + 1);
        }
    }

    private void postWindow(Transport t, long bytes) {
        for (int m = 0; m < window; m++) t.postRecv(bytes);
    }
}
