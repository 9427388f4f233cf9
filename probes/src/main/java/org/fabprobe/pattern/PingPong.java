package org.fabprobe.pattern;

import java.util.Arrays;
import org.fabprobe.Steps;
import org.fabprobe.clock.Clock;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.Transport;

/**
 * The ping-pong sweep: per size, {@code warmup + repetitions} round trips; the measure
 * process stamps the TSC once per completed round trip and keeps half of each interval.
 *
 * <p>Both halves are in this class and read the same schedule, so they cannot disagree.
 * Each side pre-posts the next receive while its own message is in flight, keeping
 * fi_trecv/ucp_tag_recv off the critical path. A timed interval is one full round trip, from
 * the moment one message has been sent to the moment the next one has: the clock is read
 * after the next send is on its way, not between a reply's arrival and that send, where its
 * ~10 ns (rdtsc) would lengthen every round trip (fi_pingpong and osu_latency read it only
 * around the whole loop). So n timed intervals take n + 1 round trips: both halves make one
 * round trip more than asked, whose reply closes the last interval.
 *
 * <p>With {@link Calls#BLOCKING} (transports with blocking calls: MPI) each side instead makes
 * one blocking send and one blocking receive per round trip, MPI_Send then MPI_Recv, as
 * osu_latency does: MPI libraries wait for a message in MPI_Recv with a tighter loop than an
 * MPI_Test poll from outside (Open MPI pml ucx: 5.0 against 5.6 us over tcp, in C).
 *
 * <p><b>Sentinels.</b> Before the first size and after every size both sides run
 * {@value #SENTINEL_ROUNDS} more round trips of 0 B (a few hundred µs on shared memory): sizes
 * measured at different times are only comparable while the host runs at one speed, and the
 * sentinels show when it did not ({@link org.fabprobe.model.Drift}).
 *
 * <p><b>Disturbed sizes.</b> After each size (and its sentinel) the mirror sends its
 * disturbance readings and measure answers whether both measure that size again: a size whose
 * timing threads were preempted too often is measured up to {@value #MAX_REMEASURES} more times,
 * fewer where the disturbance persists ({@link Remeasures}), and its last measurement is kept.
 */
public final class PingPong {
    /**
     * Round trips at 0 B before the sweep so that the JIT has compiled the loop: at most
     * this many, and no more than {@link #JIT_WARMUP_BUDGET_NS} of the transport's time.
     */
    public static final int JIT_WARMUP = 20_000;
    static final double JIT_WARMUP_BUDGET_NS = 250e6;
    private static final int PROBE_ROUNDS = 16;
    /** Rounds in one extra warm-up batch at most (see {@link JitWarmup}). */
    private static final long JIT_BATCH_LIMIT = 200_000;
    /**
     * The JIT warm-up runs in calls of this many rounds (plus the closing round trip): HotSpot
     * compiles a method by its call count (C2 after ~5000 calls, counted in steps of 1024) but
     * a single long loop only by on-stack replacement after 60 000 iterations, so one long call
     * left the timing loop interpreted for the whole sweep. Two rounds per call take every
     * branch of the loop and reach C2 within ~15 000 round trips, well inside the warm-up;
     * longer chunks left it to chance whether C2 compiled the loop (a ~10 ms stall) during the
     * timed rounds.
     */
    private static final int JIT_CHUNK = 2;
    /** 0 B round trips per sentinel, and untimed ones before them. */
    static final int SENTINEL_ROUNDS = 200, SENTINEL_WARMUP = 20;

    /** How each side sends and receives. */
    public enum Calls {
        /** Post, then poll progress: every transport. */
        NONBLOCKING,
        /** One blocking library call each: transports where {@link Transport#hasBlockingCalls()}. */
        BLOCKING;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final long[] sizes;
    private final int warmup;
    private final int repetitions;
    private final Calls calls;

    public PingPong(long[] sizes, int warmup, int repetitions, Calls calls) {
        if (repetitions < 1) throw new IllegalArgumentException("repetitions must be >= 1");
        if (warmup < 0) throw new IllegalArgumentException("warm-up must be >= 0");
        this.sizes = sizes.clone();
        this.warmup = warmup;
        this.repetitions = repetitions;
        this.calls = calls;
    }

    public long[] sizes() {
        return sizes.clone();
    }

    public int warmup() {
        return warmup;
    }

    public int repetitions() {
        return repetitions;
    }

    public Calls calls() {
        return calls;
    }

    /** The inputs the mirror needs to follow the same schedule. */
    public Schedule.PingPongSchedule schedule() {
        return new Schedule.PingPongSchedule(sizes.clone(), warmup, repetitions, calls);
    }

    public static PingPong of(Schedule.PingPongSchedule s) {
        return new PingPong(s.sizes(), s.warmup(), s.repetitions(), s.calls());
    }

    /**
     * What the measure half returns.
     *
     * @param halfRttNs  per size, the half round-trip time of every timed round trip
     * @param wallMs     per size, the wall time it took, warm-up included
     * @param sentinelNs the 0 B half round trips before the first size and after each size
     *                   (sizes + 1 batches; size i lies between batches i and i + 1)
     * @param cpuWaitMs  per size, how long the two timing threads waited for a CPU meanwhile
     *                   (schedstat's run delay, both sides summed; -1 where a kernel does not say)
     * @param disturbed  per size, whether its timing threads were preempted (or the emulator missed
     *                   a deadline) often enough to move its median ({@link #disturbed}), or one round
     *                   trip stalled ({@link #stalled}), in its last measurement
     * @param remeasured per size, how many times it was measured again because it was disturbed
     *                   (at most {@link #MAX_REMEASURES}); the other fields hold its last measurement
     * @param gapMs      per size, its wall time that neither its timed rounds, its untimed ones at the
     *                   median pace, nor waiting for a CPU account for ({@link #gapNs})
     * @param gapStalled per size, whether that gap is a stall ({@link #gapStalled}); such a size is also
     *                   {@code disturbed}
     */
    public record Samples(double[][] halfRttNs, double[] wallMs, double[][] sentinelNs, double[] cpuWaitMs,
                          boolean[] disturbed, int[] remeasured, double[] gapMs, boolean[] gapStalled) {}

    /** The mirror's disturbances of one measurement of a size, sent after its sentinel (untimed). */
    private static final String MIRROR_DISTURBANCES = "pingpong_disturbances";
    /** Measure's answer to them: 1 when both sides measure the same size again. */
    private static final String MEASURE_AGAIN = "pingpong_again";
    /**
     * A disturbed size is measured this many more times at most: a burst of other work usually
     * passes, while a CPU shared for the whole run disturbs every attempt and should not triple it.
     */
    public static final int MAX_REMEASURES = 2;

    /** Measure half: per size, the half round-trip times in ns and the wall time. */
    public Samples measure(Transport t, Await await, Control control) {
        return measure(t, await, control, Steps.NONE);
    }

    /**
     * Measure half, telling {@code steps} before each size. Only this method's loop over the sizes
     * calls it: the timed round trips are in {@link #measureSize}, a method of their own.
     */
    public Samples measure(Transport t, Await await, Control control, Steps steps) {
        return measure(t, await, control, steps, MAX_REMEASURES);
    }

    /**
     * As {@link #measure(Transport, Await, Control, Steps)}, measuring a disturbed size again at
     * most {@code maxRemeasures} times (0 where every attempt would be disturbed alike: one CPU for both).
     */
    public Samples measure(Transport t, Await await, Control control, Steps steps, int maxRemeasures) {
        steps.phase("JIT warm-up");
        long[] probe = new long[PROBE_ROUNDS];
        measureSize(t, await, 0, PROBE_ROUNDS, probe);
        Arrays.sort(probe);
        // the fastest probe round, not the median: cold rounds wait for blocking JIT compiles
        // and lazy connection set-up in either process (medians from 6 to 150 us here at
        // posix,cma), which cut the warm-up short and left C2 compiling during timed rounds
        double roundTripNs = Math.max(Clock.toNs(probe[0]), 1);
        long jitRounds = Math.max(PROBE_ROUNDS, Math.min(JIT_WARMUP, (long) (JIT_WARMUP_BUDGET_NS / roundTripNs)));
        long[] chunkTicks = new long[JIT_CHUNK / 2]; // kept and unkept rounds, as in the sweep
        JitWarmup.measureSide(control, jitRounds, JIT_BATCH_LIMIT, roundTrips -> {
            for (long done = 0; done < roundTrips; done += JIT_CHUNK + 1) measureSize(t, await, 0, JIT_CHUNK, chunkTicks);
        });
        double[][] halfRttNs = new double[sizes.length][];
        double[] wallMs = new double[sizes.length];
        double[][] sentinelNs = new double[sizes.length + 1][];
        long[] ticks = new long[repetitions], sentinelTicks = new long[SENTINEL_ROUNDS];
        double[] cpuWaitMs = new double[sizes.length];
        boolean[] disturbed = new boolean[sizes.length], gapStalled = new boolean[sizes.length];
        int[] remeasured = new int[sizes.length];
        double[] gapMs = new double[sizes.length];
        sentinelNs[0] = sentinel(t, await, sentinelTicks);
        Remeasures remeasures = new Remeasures(maxRemeasures);
        for (int i = 0; i < sizes.length; i++) {
            for (boolean again = true; again; ) {
                if (remeasured[i] == 0) steps.next("round trips at", sizes[i]);
                else {
                    steps.more(1);
                    steps.next("again (disturbed), round trips at", sizes[i]);
                }
                Disturbances.Reading before = Disturbances.read(t);
                long start = Clock.now();
                measureSize(t, await, sizes[i], warmup + repetitions, ticks);
                wallMs[i] = Clock.toNs(Clock.now() - start) / 1e6;
                Disturbances.Reading mine = Disturbances.read(t).since(before);
                halfRttNs[i] = halves(ticks);
                sentinelNs[i + 1] = sentinel(t, await, sentinelTicks);
                Disturbances.Reading peer = Disturbances.Reading.of(control.receiveAll(MIRROR_DISTURBANCES,
                        Disturbances.Reading.FIELDS), 0);
                cpuWaitMs[i] = mine.waitNs() < 0 || peer.waitNs() < 0 ? -1 : (mine.waitNs() + peer.waitNs()) / 1e6;
                // the warm-up round trips and the closing one are not timed one by one
                double[] roundNs = ns(ticks);
                double gapNs = gapNs(wallMs[i] * 1e6, roundNs, warmup + 1, longerWaitNs(mine, peer));
                gapMs[i] = gapNs / 1e6;
                gapStalled[i] = gapStalled(gapNs, roundNs, warmup + 1);
                boolean preempted = disturbed(mine, peer, warmup + repetitions), stalled = stalled(halfRttNs[i]) || gapStalled[i];
                disturbed[i] = preempted || stalled;
                again = remeasures.again(remeasured[i], Remeasures.Cause.of(preempted, stalled),
                        Remeasures.everyRoundHit(mine, peer, warmup + repetitions));
                control.send(MEASURE_AGAIN, again ? 1 : 0);
                if (again) remeasured[i]++;
            }
        }
        return new Samples(halfRttNs, wallMs, sentinelNs, cpuWaitMs, disturbed, remeasured, gapMs, gapStalled);
    }

    /**
     * A preemption delays one round trip, however long it lasts: the median moves only when
     * more were hit than the median's own 95 % interval spans (about 3 % of the ranks at 1000
     * round trips). A CPU shared with a busy process (or measure and mirror on one CPU) hits
     * most of them; on an idle 2-CPU host the JVMs' own compilations and wake-ups hit 1-2 %.
     * How long the threads waited for a CPU is reported, not judged: one long preemption
     * inflates one sample.
     */
    static boolean disturbed(Disturbances.Reading mine, Disturbances.Reading peer, int roundTrips) {
        long hits = mine.preemptions() + peer.preemptions() + mine.missedDeadlines() + peer.missedDeadlines();
        return hits > Math.max(5, MAX_HIT_SHARE * roundTrips);
    }

    /**
     * A stall no preemption count shows: a link that went down, a retransmission timeout, a
     * process stopped. One round trip longer than {@link #STALL_MIN_NS} and {@link #STALL_RATIO}
     * times the median; no scheduler time slice or blocking compilation lasts that long on a
     * host that is merely busy.
     */
    public static boolean stalled(double[] halfRttNs) {
        double[] sorted = halfRttNs.clone();
        Arrays.sort(sorted);
        double median = sorted[sorted.length / 2], max = sorted[sorted.length - 1];
        return max > Math.max(STALL_MIN_NS, STALL_RATIO * median);
    }

    static final double STALL_MIN_NS = 50e6, STALL_RATIO = 20;

    /**
     * A size's wall time {@code wallNs} that no round accounts for: not its timed rounds
     * ({@code roundNs}, one per round: a round trip, a window), not its {@code untimedRounds}
     * (warm-up, closing) at the timed rounds' mean pace (a busy host slows them as much as the
     * timed ones), not the timing threads' wait for a CPU beyond what the timed rounds already
     * hold ({@code longerWaitNs}: the longer of the two sides' waits, as both wait on a busy host
     * and a round trip waits for either; negative where unknown, then not subtracted). A stall
     * inside the untimed rounds shows here and in no sample.
     */
    public static double gapNs(double wallNs, double[] roundNs, int untimedRounds, double longerWaitNs) {
        if (roundNs.length == 0) return 0;
        double timedNs = 0;
        for (double ns : roundNs) timedNs += ns;
        double insideTimedNs = timedNs - roundNs.length * median(roundNs);
        double waitElsewhereNs = Math.max(0, longerWaitNs - insideTimedNs);
        return wallNs - timedNs - untimedRounds * (timedNs / roundNs.length) - waitElsewhereNs;
    }

    /** The longer of two sides' waits for a CPU in ns, or -1 when either is unknown. */
    public static double longerWaitNs(Disturbances.Reading mine, Disturbances.Reading peer) {
        return mine.waitNs() < 0 || peer.waitNs() < 0 ? -1 : Math.max(mine.waitNs(), peer.waitNs());
    }

    /**
     * Whether a size's unaccounted wall time ({@link #gapNs}) is a stall: longer than
     * {@link #STALL_MIN_NS} (as for one round trip) and than its untimed rounds should have taken
     * in all, so that they took more than twice their expectation. Cold first rounds (a large
     * buffer's first touch, a rendezvous set up) cost milliseconds, not tens of them.
     */
    public static boolean gapStalled(double gapNs, double[] roundNs, int untimedRounds) {
        return gapNs > Math.max(STALL_MIN_NS, untimedRounds * median(roundNs));
    }

    private static double median(double[] ns) {
        if (ns.length == 0) return 0;
        double[] sorted = ns.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** Ticks as ns. */
    static double[] ns(long[] ticks) {
        double[] ns = new double[ticks.length];
        for (int r = 0; r < ticks.length; r++) ns[r] = Clock.toNs(ticks[r]);
        return ns;
    }

    /** Share of a size's round trips that may be preempted before its median counts as disturbed. */
    static final double MAX_HIT_SHARE = 0.05;

    private double[] sentinel(Transport t, Await await, long[] ticks) {
        measureSize(t, await, 0, SENTINEL_WARMUP + SENTINEL_ROUNDS, ticks);
        return halves(ticks);
    }

    private static double[] halves(long[] ticks) {
        double[] ns = new double[ticks.length];
        for (int r = 0; r < ticks.length; r++) ns[r] = Clock.toNs(ticks[r]) / 2;
        return ns;
    }

    /** Mirror half: echoes every message of the same schedule. */
    public void mirror(Transport t, Await await, Control control) {
        mirrorSize(t, await, 0, PROBE_ROUNDS);
        JitWarmup.mirrorSide(control, roundTrips -> {
            for (long done = 0; done < roundTrips; done += JIT_CHUNK + 1) mirrorSize(t, await, 0, JIT_CHUNK);
        });
        mirrorSize(t, await, 0, SENTINEL_WARMUP + SENTINEL_ROUNDS);
        for (long size : sizes) {
            do {
                Disturbances.Reading before = Disturbances.read(t);
                mirrorSize(t, await, size, warmup + repetitions);
                Disturbances.Reading moved = Disturbances.read(t).since(before);
                mirrorSize(t, await, 0, SENTINEL_WARMUP + SENTINEL_ROUNDS);
                control.sendAll(MIRROR_DISTURBANCES, moved.fields());
            } while (control.receive(MEASURE_AGAIN) != 0);
        }
    }

    /**
     * Measure half of {@code rounds} timed round trips (and the closing one) of {@code size}
     * bytes, with no control messages (matrix: both ranks of a pair read the sizes and counts
     * from the schedule they share). The last {@code ticks.length} intervals are kept, in TSC ticks.
     */
    public static void measureRounds(Transport t, Await await, long size, int rounds, long[] ticks, Calls calls) {
        if (calls == Calls.BLOCKING) measureSizeBlocking(t, await, size, rounds, ticks);
        else measureSizePolled(t, await, size, rounds, ticks);
    }

    /** Mirror half of {@link #measureRounds}: echoes {@code rounds + 1} messages of {@code size} bytes. */
    public static void mirrorRounds(Transport t, Await await, long size, int rounds, Calls calls) {
        if (calls == Calls.BLOCKING) mirrorSizeBlocking(t, await, size, rounds);
        else mirrorSizePolled(t, await, size, rounds);
    }

    /** Times {@code rounds} round trips (making one more); the last {@code ticks.length} intervals are kept. */
    private void measureSize(Transport t, Await await, long size, int rounds, long[] ticks) {
        if (calls == Calls.BLOCKING) measureSizeBlocking(t, await, size, rounds, ticks);
        else measureSizePolled(t, await, size, rounds, ticks);
    }

    private void mirrorSize(Transport t, Await await, long size, int rounds) {
        if (calls == Calls.BLOCKING) mirrorSizeBlocking(t, await, size, rounds);
        else mirrorSizePolled(t, await, size, rounds);
    }

    /** Interval i: from message i's send to message i + 1's (rounds + 1 messages). */
    private static void measureSizePolled(Transport t, Await await, long size, int rounds, long[] ticks) {
        int firstKept = rounds - ticks.length;
        long recvs = t.recvsCompleted();
        long sends = t.sendsCompleted();
        t.postRecv(size);
        t.postSend(size);
        long previous = Clock.now();
        for (int i = 0; i < rounds; i++) {
            t.postRecv(size);
            await.recvs(t, ++recvs);
            await.sends(t, ++sends);
            t.postSend(size);
            long now = Clock.now();
            if (i >= firstKept) ticks[i - firstKept] = now - previous;
            previous = now;
        }
        await.recvs(t, ++recvs); // the closing round trip's reply
        await.sends(t, ++sends);
    }

    private static void mirrorSizePolled(Transport t, Await await, long size, int rounds) {
        long recvs = t.recvsCompleted();
        long sends = t.sendsCompleted();
        t.postRecv(size);
        for (int i = 0; i <= rounds; i++) {
            await.recvs(t, ++recvs);
            t.postSend(size);
            if (i < rounds) t.postRecv(size);
            await.sends(t, ++sends);
        }
    }

    private static void measureSizeBlocking(Transport t, Await await, long size, int rounds, long[] ticks) {
        int firstKept = rounds - ticks.length;
        t.send(size);
        long previous = Clock.now();
        for (int i = 0; i < rounds; i++) {
            await.blockingRecv(t, size);
            t.send(size);
            long now = Clock.now();
            if (i >= firstKept) ticks[i - firstKept] = now - previous;
            previous = now;
        }
        await.blockingRecv(t, size); // the closing round trip's reply
    }

    private static void mirrorSizeBlocking(Transport t, Await await, long size, int rounds) {
        for (int i = 0; i <= rounds; i++) {
            await.blockingRecv(t, size);
            t.send(size);
        }
    }
}
