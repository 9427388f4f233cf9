package org.fabprobe.pattern;

import java.util.stream.LongStream;
import org.fabprobe.clock.Clock;
import org.fabprobe.pattern.PingPong.Calls;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.OneSided;
import org.fabprobe.transport.Op;
import org.fabprobe.transport.Transport;

/**
 * The timed building blocks of the LogP methods, both halves in one class. The measure side
 * decides, batch by batch, which probe to run next (adaptive methods need that); each batch
 * is announced to the mirror over the untimed control channel, then both sides run the same
 * schedule:
 *
 * <ul>
 * <li>{@link #roundTrip}: {@code size} bytes out, {@code back} bytes back; times the send
 *     (until the buffer is reusable: o_s) and the round trip (RTT).
 * <li>{@link #recvAfterDelay}: 0 bytes out, wait {@code delay} (longer than the round trip), then
 *     time receiving the {@code back} bytes that have arrived meanwhile: o_r (Kielmann).
 * <li>{@link #train}: {@code n} messages of {@code size} bytes, {@code delay} apart, one reply of
 *     {@code back} bytes; times first send to reply: PRTT(n, d, s) (Hoefler), RTT_n (Kielmann's
 *     saturation, back = 0).
 * <li>{@link #burst}: {@code m} requests of {@code size} bytes with {@code delay} of computation
 *     between them, every request answered by a 0-byte reply which the requester handles as it
 *     goes (polling once per request); times the issue loop (Culler's signature).
 * </ul>
 *
 * <p>Every batch starts with an untimed 0-byte exchange after which the mirror has posted its
 * receives (Kielmann's "mirror is ready" message), so no timed message arrives unexpected
 * unless the probe means it to. At most {@code depth} sends and receives are outstanding.
 *
 * <p>With {@link Calls#BLOCKING} (MPI) both sides use one blocking call per message instead,
 * as the MPI LogP benchmark does and the paper defines o_s: MPI_Send, timed until it returns,
 * and MPI_Recv; the mirror then posts no receives ahead (it waits in MPI_Recv for each
 * message), and only the signature's replies stay posted receives, handled as they arrive.
 * Under pml ucx the two styles even take different protocols: MPI_Send stays eager up to
 * UCX_RNDV_SEND_NBR_THRESH (256 KiB), MPI_Isend switches to rendezvous at UCX's own threshold.
 *
 * <p>With {@link Op#WRITE} a message is a one-sided write ({@link OneSided#postWrite}) whose
 * last byte is a flag the target polls in its own memory, as {@link OneSidedPingPong}; a 0 B
 * message is a 1-byte write (the flag alone). o_s is the time the post call takes to return; a
 * train is n - 1 unordered writes at most {@code depth} outstanding, a flush, then the flagged
 * write (so no earlier write can land over the flag); the reply is a flagged write back.
 * {@link #recvAfterDelay} times the target's side of a write: from its first look, after the
 * write has had time to land, until the flag is there (a look where the write is native, the
 * progress calls that apply it where the library emulates it).
 *
 * <p>With {@link Op#READ} a message is a one-sided read of {@code size} bytes (1 B at 0 B) from
 * the mirror's memory, and nothing comes back but the read's data: {@link #roundTrip} times the
 * post call (o_s) and the read until its data is here (RTT); {@link #recvAfterDelay} posts a
 * read, waits {@code delay}, then times completing it (o_r: the origin's share of receiving the
 * data, with the flush where only a flush completes reads); a train is {@code n} reads, at most
 * {@code depth} outstanding, until the last has completed. The mirror makes no call per read: it
 * drives progress until the measure side's 0-byte message ends the batch (what emulated reads need).
 */
public final class Probe {
    private static final int ROUND_TRIP = 1, RECV_AFTER_DELAY = 2, TRAIN = 3, BURST = 4, END = 0;
    /** After each batch the mirror reports its disturbances and how often its timing thread blocked in the timed loop. */
    private static final String COMMAND = "probe", BATCH_END = "batch_end";

    /** What the measure side announces before each batch: which probe, sizes, count, repetitions. */
    record Command(int op, long size, long back, int n, int reps) {
        long[] fields() {
            return new long[] {op, size, back, n, reps};
        }

        static Command of(long[] f) {
            return new Command((int) f[0], f[1], f[2], (int) f[3], (int) f[4]);
        }

        static final int FIELDS = 5;
    }
    /** At most 60 rounds: the 30 at 0 B alone run every timed loop 6 000 times, past C2's invocation thresholds. */
    private static final int WARMUP_ROUNDS = 60;
    private static final long SMALL_WARMUP_BYTES = 1 << 10;
    /** Repetitions of each probe in a 0-byte warm-up round. */
    private static final int PLAIN_REPS = 200;
    /** Twice the calls that take a timed loop to C2 (Tier4InvocationThreshold 5000, a tenth of it with the launcher's flags). */
    static final long MIN_LOOP_CALLS = JitWarmup.loopThresholdsLowered() ? 1_000 : 10_000;

    private final Transport t;
    private final Await await;
    private final Control control;
    private final int depth;
    private final boolean blocking;
    /** Non-null with a one-sided op: the messages are writes or reads. */
    private final OneSided oneSided;
    private final Op op;
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();
    /** Timer overhead: every interval between two clock reads contains one read (Santos et al.). */
    private final double readCostNs;
    /** What a blocking send's interval holds besides the call ({@link Transport#sendTimerNs}). */
    private final double sendTimerNs;
    /** The two clock reads around the last blocking send. */
    private final long[] sendRead = new long[2];
    private long[] ticks = new long[64];
    private long[] sendTicks = new long[64];
    /** Busy-wait accounting: this repetition's waits, and each past repetition's mean wait. */
    private long spunTicks, spins;
    private double[] spunPerRep = new double[64];
    private int spunReps;
    /** Disturbed batches so far ({@link #disturbances}), and this side's counters at the batch start. */
    private long disturbances;
    private Disturbances.Reading batchStart;

    public Probe(Transport t, Await await, Control control, int depth, Calls calls) {
        this(t, await, control, depth, calls, Op.SEND);
    }

    /** @param op SEND (messages), WRITE (write-and-poll) or READ; the mirror must follow the same op */
    public Probe(Transport t, Await await, Control control, int depth, Calls calls, Op op) {
        if (!timesOp(op)) throw new IllegalArgumentException("probes send, write or read, not " + op.label());
        if (op.oneSided() && calls == Calls.BLOCKING) throw new IllegalArgumentException("one-sided operations have no blocking calls");
        if (calls == Calls.BLOCKING && !t.hasBlockingCalls()) {
            throw new IllegalArgumentException(t.name() + " has no blocking calls");
        }
        this.t = t;
        this.await = await;
        this.control = control;
        this.depth = depth;
        this.blocking = calls == Calls.BLOCKING;
        this.readCostNs = overheadOrZero(Clock.facts().readCostNs());
        this.sendTimerNs = blocking ? overheadOrZero(t.sendTimerNs()) : readCostNs;
        this.op = op;
        this.oneSided = op.oneSided() ? OneSidedPingPong.exchange(t, control, op) : null;
    }

    /** Whether the probes time {@code op}: sends, writes and reads (an atomic has no size to fit a gap per byte to). */
    public static boolean timesOp(Op op) {
        return op == Op.SEND || op == Op.WRITE || op == Op.READ;
    }

    /** What a message is: SEND, WRITE (write-and-poll) or READ. */
    public Op op() {
        return op;
    }

    /** The bytes a one-sided message of {@code size} bytes moves: the flag byte (a write's), 1 B, at least. */
    private static long writeBytes(long size) {
        return Math.max(size, 1);
    }

    /** A timer overhead to subtract, or 0 where it could not be measured. */
    private static double overheadOrZero(double ns) {
        return Double.isFinite(ns) && ns > 0 ? ns : 0;
    }

    /**
     * What the busy-waits of {@link #train} since the last
     * {@link #clearSpunDelay} really took, on average per wait, ns: a wait overshoots by part of a clock read and starts with one, so
     * the methods subtract this, measured in place, not the nominal delay. NaN if none.
     */
    public double spunDelayNs() {
        if (spunReps == 0) return Double.NaN;
        // the median, like the probes': a preempted repetition must not inflate it
        double[] sorted = java.util.Arrays.copyOf(spunPerRep, spunReps);
        java.util.Arrays.sort(sorted);
        return sorted[spunReps / 2] + readCostNs;
    }

    /**
     * What a busy-wait of {@code delayNs} takes in a loop of its own, no messages (best of 5
     * runs of a few ms). The signature subtracts this from its Delta curves: measured in place
     * instead, its o_r on the emulator came out 10-15 % high, not yet explained.
     */
    public double delayCostNs(double delayNs) {
        long delay = Clock.fromNs(delayNs);
        int rounds = (int) Math.max(100, Math.min(20_000, 2e6 / Math.max(delayNs, 1)));
        long best = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 5; attempt++) {
            long start = Clock.now();
            for (int i = 0; i < rounds; i++) spinUntil(Clock.now() + delay);
            best = Math.min(best, Clock.now() - start);
        }
        return Clock.toNs(best) / rounds;
    }

    public void clearSpunDelay() {
        spunReps = 0;
    }

    /** Closes one repetition's busy-wait accounting. */
    private void endSpunRep() {
        if (spins == 0) return;
        if (spunReps == spunPerRep.length) spunPerRep = java.util.Arrays.copyOf(spunPerRep, 2 * spunReps);
        spunPerRep[spunReps++] = Clock.toNs(spunTicks) / spins;
        spunTicks = 0;
        spins = 0;
    }

    /**
     * How many batches so far were disturbed ({@link Disturbances#disturbed}: a timing thread
     * on either side kept waiting for a CPU, or a transport missed a deadline). A batch during
     * which this grew was disturbed.
     */
    public long disturbances() {
        return disturbances;
    }

    /**
     * Judges the batch whose {@code reps} samples are in {@link #ticks} by both sides'
     * counters: ours, and the mirror's as it reports them.
     */
    private void endBatch(int reps) {
        timedWaits += Disturbances.voluntarySwitches() - timedFrom;
        // this side's counters cover its timed loop only: a preemption in the messages around it
        // (announce's and the reads' closing one) disturbs no sample
        Disturbances.Reading mine = Disturbances.read(t).since(batchStart);
        if (op == Op.READ) { // the mirror drives progress until this message
            long sends = t.sendsCompleted();
            t.postSend(0);
            await.sends(t, sends + 1);
        }
        long[] mirror = control.receiveAll(BATCH_END, Disturbances.Reading.FIELDS + 1);
        long sampled = 0;
        for (int r = 0; r < reps; r++) sampled += ticks[r];
        if (Disturbances.disturbed(mine, Disturbances.Reading.of(mirror, 0), Clock.toNs(sampled))) disturbances++;
        timedWaits += mirror[Disturbances.Reading.FIELDS];
    }

    /**
     * Times either timing thread gave up its CPU inside a timed loop so far (voluntary context
     * switches: waiting for a JIT compilation of the loop's code, a safepoint or a deoptimization),
     * and this side's count at the start of the current loop.
     */
    private long timedWaits, timedFrom;

    /** Half round trips are not used here: every value is a full interval in ns. */
    public record RoundTrips(double[] sendNs, double[] rttNs) {}

    public RoundTrips roundTrip(long size, long back, int reps) {
        announce(ROUND_TRIP, size, back, 1, reps);
        ensureCapacity(reps);
        for (int r = 0; r < reps; r++) {
            ticks[r] = roundTripOnce(size, back, r);
        }
        endBatch(reps);
        return new RoundTrips(toNs(sendTicks, reps, sendTimerNs), toNs(ticks, reps, readCostNs));
    }

    // Each repetition is a method of its own, so that the JIT compiles the timed code after a
    // few thousand calls (invocation counters) instead of tens of thousands of loop iterations.
    private long roundTripOnce(long size, long back, int r) {
        if (blocking) return roundTripBlocking(size, back, r);
        if (op == Op.WRITE) return roundTripWrite(size, back, r);
        if (op == Op.READ) return roundTripRead(size, r);
        long sends = t.sendsCompleted(), recvs = t.recvsCompleted();
        t.postRecv(back);
        long start = Clock.now();
        t.postSend(size);
        await.sends(t, sends + 1);
        long sent = Clock.now();
        await.recvs(t, recvs + 1);
        long end = Clock.now();
        sendTicks[r] = sent - start;
        return end - start;
    }

    private long roundTripWrite(long size, long back, int r) {
        byte f = OneSidedPingPong.flag(r);
        long bytes = writeBytes(size);
        BYTE.set(t.sendBuffer(), bytes - 1, f);
        long start = Clock.now();
        oneSided.postWrite(bytes);
        long posted = Clock.now();
        OneSidedPingPong.awaitFlag(t, oneSided, await, t.recvBuffer(), writeBytes(back) - 1, f);
        long end = Clock.now();
        sendTicks[r] = posted - start;
        return end - start;
    }

    /** A read of {@code size} bytes: o_s the post call, RTT until its data is here. */
    private long roundTripRead(long size, int r) {
        long start = Clock.now();
        oneSided.postReadUnordered(writeBytes(size));
        long posted = Clock.now();
        completeReads();
        long end = Clock.now();
        sendTicks[r] = posted - start;
        return end - start;
    }

    /** Until every read posted has completed: flushed first where only a flush completes them (MPI_Win_flush). */
    private void completeReads() {
        if (oneSided.completesOnlyAtFlush()) oneSided.postFlush();
        OneSidedPingPong.awaitOneSided(t, oneSided, await);
    }

    private long roundTripBlocking(long size, long back, int r) {
        t.sendTimed(size, sendRead);
        long start = sendRead[0], sent = sendRead[1];
        await.blockingRecv(t, back);
        long end = Clock.now();
        sendTicks[r] = sent - start;
        return end - start;
    }

    public double[] recvAfterDelay(long back, double delayNs, int reps) {
        announce(RECV_AFTER_DELAY, 0, back, 1, reps);
        ensureCapacity(reps);
        long delay = Clock.fromNs(delayNs);
        for (int r = 0; r < reps; r++) {
            ticks[r] = switch (op) {
                case WRITE -> recvAfterDelayWrite(back, delay, r);
                case READ -> recvAfterDelayRead(back, delay);
                default -> recvAfterDelayOnce(back, delay);
            };
        }
        endBatch(reps);
        return toNs(ticks, reps, readCostNs);
    }

    /**
     * o_r of a write: a 1-byte write makes the peer answer with a flagged write; once that has
     * had time to land, the time from the first look until the flag is there. Where the write
     * is native that is one look at this side's memory; where the library emulates it, the
     * progress calls that apply it.
     */
    private long recvAfterDelayWrite(long back, long delay, int r) {
        byte f = OneSidedPingPong.flag(r);
        BYTE.set(t.sendBuffer(), 0, f);
        oneSided.postWrite(1);
        OneSidedPingPong.awaitOneSided(t, oneSided, await); // this side's own completion is no part of o_r
        spinUntil(Clock.now() + delay);
        long start = Clock.now();
        OneSidedPingPong.awaitFlag(t, oneSided, await, t.recvBuffer(), writeBytes(back) - 1, f);
        return Clock.now() - start;
    }

    /**
     * o_r of a read: a read of {@code back} bytes, {@code delay} for its data to arrive, then
     * the time to complete it (a completion to find; MPI's flush).
     */
    private long recvAfterDelayRead(long back, long delay) {
        oneSided.postReadUnordered(writeBytes(back));
        spinUntil(Clock.now() + delay);
        long start = Clock.now();
        completeReads();
        return Clock.now() - start;
    }

    private long recvAfterDelayOnce(long back, long delay) {
        if (blocking) {
            t.send(0);
            spinUntil(Clock.now() + delay);
            long start = Clock.now();
            await.blockingRecv(t, back);
            return Clock.now() - start;
        }
        long sends = t.sendsCompleted(), recvs = t.recvsCompleted();
        t.postSend(0);
        await.sends(t, sends + 1);
        spinUntil(Clock.now() + delay);
        long start = Clock.now();
        t.postRecv(back);
        await.recvs(t, recvs + 1);
        return Clock.now() - start;
    }

    public double[] train(int n, long size, double delayNs, long back, int reps) {
        announce(TRAIN, size, back, n, reps);
        ensureCapacity(reps);
        long delay = Clock.fromNs(delayNs);
        for (int r = 0; r < reps; r++) {
            ticks[r] = switch (op) {
                case WRITE -> trainWrite(n, size, delay, back, r);
                case READ -> trainRead(n, size, delay);
                default -> trainOnce(n, size, delay, back);
            };
            endSpunRep();
        }
        endBatch(reps);
        return toNs(ticks, reps, readCostNs);
    }

    private long trainOnce(int n, long size, long delay, long back) {
        if (blocking) {
            long start = Clock.now();
            for (int i = 0; i < n; i++) {
                t.send(size);
                if (delay > 0 && i + 1 < n) spinTimed(delay);
            }
            await.blockingRecv(t, back);
            return Clock.now() - start;
        }
        long sends = t.sendsCompleted(), recvs = t.recvsCompleted();
        t.postRecv(back);
        long start = Clock.now();
        for (int i = 0; i < n; i++) {
            if (sends + i - t.sendsCompleted() >= depth) await.sends(t, sends + i - depth + 1);
            t.postSend(size);
            if (delay > 0 && i + 1 < n) spinTimed(delay);
        }
        await.recvs(t, recvs + 1);
        long end = Clock.now();
        await.sends(t, sends + n);
        return end - start;
    }

    private long trainWrite(int n, long size, long delay, long back, int r) {
        byte f = OneSidedPingPong.flag(r);
        long bytes = writeBytes(size);
        MemorySegment send = t.sendBuffer();
        BYTE.set(send, bytes - 1, (byte) 0);
        long start = Clock.now();
        for (int i = 0; i + 1 < n; i++) {
            awaitRoomForOneMore();
            oneSided.postWriteUnordered(bytes);
            if (delay > 0) spinTimed(delay);
        }
        if (n > 1) {
            oneSided.postFlush();
            OneSidedPingPong.awaitOneSided(t, oneSided, await);
        }
        BYTE.set(send, bytes - 1, f);
        oneSided.postWrite(bytes);
        OneSidedPingPong.awaitFlag(t, oneSided, await, t.recvBuffer(), writeBytes(back) - 1, f);
        return Clock.now() - start;
    }

    /**
     * Until fewer than depth one-sided operations are outstanding; where only a flush completes
     * them (MPI), a train longer than the depth flushes at that bound instead of waiting for
     * completions that never come.
     */
    private void awaitRoomForOneMore() {
        while (oneSided.oneSidedPosted() - oneSided.oneSidedCompleted() >= depth) {
            if (oneSided.completesOnlyAtFlush()) oneSided.postFlush();
            else t.progress();
        }
    }

    /** {@code n} reads of {@code size} bytes, {@code delay} apart, at most depth outstanding, until the last is here. */
    private long trainRead(int n, long size, long delay) {
        long bytes = writeBytes(size);
        long start = Clock.now();
        for (int i = 0; i < n; i++) {
            awaitRoomForOneMore();
            oneSided.postReadUnordered(bytes);
            if (delay > 0 && i + 1 < n) spinTimed(delay);
        }
        completeReads();
        return Clock.now() - start;
    }

    /** Per repetition, the average cost of one request in the issue loop (time / m), ns. */
    public double[] burst(int m, long size, double delayNs, int reps) {
        if (op != Op.SEND) throw new UnsupportedOperationException("the signature's bursts are messages");
        announce(BURST, size, 0, m, reps);
        ensureCapacity(reps);
        long delay = Clock.fromNs(delayNs);
        for (int r = 0; r < reps; r++) {
            ticks[r] = burstOnce(m, size, delay);
        }
        endBatch(reps);
        double[] ns = toNs(ticks, reps, readCostNs);
        for (int r = 0; r < reps; r++) ns[r] /= m;
        return ns;
    }

    private long burstOnce(int m, long size, long delay) {
        long sends = t.sendsCompleted();
        long repliesEnd = t.recvsCompleted() + m;
        long repliesPosted = post(t, depth, t.recvsCompleted(), repliesEnd, 0);
        long start = Clock.now();
        for (int i = 0; i < m; i++) {
            if (blocking) {
                t.send(size); // the replies stay posted receives: no send is ever outstanding
            } else {
                while (sends + i - t.sendsCompleted() >= depth) { // the network is full: stall
                    await.sends(t, sends + i - depth + 1);
                }
                t.postSend(size);
            }
            if (delay > 0) spinUntil(Clock.now() + delay);
            t.progress(); // the request handles replies that have arrived, as Active Messages do
            repliesPosted = post(t, depth, repliesPosted, repliesEnd, 0);
        }
        long end = Clock.now();
        while (t.recvsCompleted() < repliesEnd) {
            await.recvs(t, Math.min(repliesEnd, t.recvsCompleted() + 1));
            repliesPosted = post(t, depth, repliesPosted, repliesEnd, 0);
        }
        await.sends(t, sends + m);
        return end - start;
    }

    /**
     * Runs every probe untimed until the JIT has compiled both halves: until every variant has
     * run once more (a cycle of {@code 2 x sizes} rounds) without either timing thread giving
     * up its CPU inside a timed loop, and every timed loop has run {@link #MIN_LOOP_CALLS}
     * times; at most {@value #WARMUP_ROUNDS} rounds or {@code budgetNs} of wall time (slow
     * transports get less warm-up, not a longer run).
     *
     * <p>fabprobe's methods compile in the thread that calls them (the launcher's
     * {@code BackgroundCompilation} command), so a timed loop that still compiles, or waits at
     * a safepoint or a deoptimization, blocks its timing thread: a voluntary context switch,
     * which a spinning loop never makes otherwise. Control-path code (control channel, batch
     * bookkeeping) keeps reaching C1's thresholds for seconds; compilations outside the timed
     * loops do not hold the warm-up back (the rule before, no compilation in either JVM for
     * 60 ms, was never met on ofi:shm: plogp's warm-up ran all 60 rounds, 0.9-1.2 s; this
     * one ends after 0.45-0.6 s with the compiler threads at idle priority). A
     * compilation in the background that takes a timing thread's CPU is a disturbance
     * ({@link Disturbances}), judged per batch as in the measurement.
     *
     * <p>The launcher lowers the C2 thresholds of this class and {@link Await} to a tenth
     * ({@code CompileThresholdScaling}), so the timed loops reach C2 in the first rounds, and
     * lets C2 compile untaken branches instead of traps ({@code PerMethodTrapLimit=0}): a trap
     * taken late (the train's stall branch, first taken at 64 KiB) deoptimized the loop and its
     * recompilation came 0.3 s later. Without those flags (tests run in-process) the loops
     * must run ten times longer before the warm-up may end.
     *
     * <p>Every other round carries messages of one of {@link #warmUpSizes}: a larger message
     * takes another branch of the transport's send (UCX returns a request beyond its short
     * protocol, libfabric beyond its inject size). Warmed at 64 B only, that branch was a trap
     * in the compiled loop, and the first size past the short protocol ran interpreted after
     * the deoptimization: over ucx:posix,cma o_s read 1.1-1.2 us at 96 or 128 B (whichever came
     * first) against 0.08 us beside it, and loggp's range split was lost in its misfit.
     *
     * @return the wall time spent, ns
     */
    public double warmUp(double budgetNs, long largestMessage) {
        long start = System.nanoTime();
        long[] sizes = warmUpSizes(largestMessage);
        int quietRounds = 0;
        long plainRounds = 0;
        for (int round = 0; round < WARMUP_ROUNDS && System.nanoTime() - start < budgetNs; round++) {
            // alternate 0 B, no delay and short trains with a size, a delay and trains longer
            // than the depth, so that no branch of the timed code is first taken during a
            // measurement (an untaken branch is compiled as a trap: taking it deoptimizes the loop)
            boolean plain = round % 2 == 0;
            long bytes = plain ? 0 : sizes[(round / 2) % sizes.length];
            double delay = plain ? 0 : 20;
            int n = plain ? 4 : depth + 4;
            boolean large = bytes > SMALL_WARMUP_BYTES; // fewer repetitions bound the bytes its round moves
            int singles = large ? 20 : PLAIN_REPS, trains = plain ? PLAIN_REPS : large ? 2 : 20;
            long waits = timedWaits;
            roundTrip(bytes, 0, singles);
            recvAfterDelay(bytes, delay, singles);
            train(n, bytes, delay, bytes, trains);
            if (op == Op.SEND) burst(n, bytes, delay, trains);
            if (plain) plainRounds++;
            boolean quiet = timedWaits == waits;
            quietRounds = quiet && plainRounds * PLAIN_REPS >= MIN_LOOP_CALLS ? quietRounds + 1 : 0;
            if (quietRounds >= 2 * sizes.length) break;
        }
        return System.nanoTime() - start;
    }

    /** The warm-up's message sizes: 64 B, 1 KiB, 16 KiB and 64 KiB, none above the run's largest. */
    static long[] warmUpSizes(long largestMessage) {
        return LongStream.of(64, 1 << 10, 16 << 10, 64 << 10)
                .map(s -> Math.min(s, largestMessage)).distinct().toArray();
    }

    /** Tells the mirror that the measurement is over. */
    public void end() {
        control.sendAll(COMMAND, new Command(END, 0, 0, 0, 0).fields());
    }

    private void announce(int probe, long size, long back, int n, int reps) {
        control.sendAll(COMMAND, new Command(probe, size, back, n, reps).fields());
        if (op == Op.WRITE) BYTE.setVolatile(t.recvBuffer(), writeBytes(back) - 1, (byte) 0);
        long recvs = t.recvsCompleted(), sends = t.sendsCompleted();
        t.postRecv(0);
        t.postSend(0);
        await.recvs(t, recvs + 1);
        await.sends(t, sends + 1);
        timedFrom = Disturbances.voluntarySwitches();
        batchStart = Disturbances.read(t);
    }

    /** Mirror half: follows the measure side's batches until it says the measurement is over. */
    public static void mirror(Transport t, Await await, Control control, int depth, Calls calls) {
        mirror(t, await, control, depth, calls, Op.SEND);
    }

    /** Mirror half of {@code op}'s probes (see {@link #Probe(Transport, Await, Control, int, Calls, Op)}). */
    public static void mirror(Transport t, Await await, Control control, int depth, Calls calls, Op op) {
        boolean blocking = calls == Calls.BLOCKING;
        OneSided oneSided = op.oneSided() ? OneSidedPingPong.exchange(t, control, op) : null;
        while (true) {
            Command c = Command.of(control.receiveAll(COMMAND, Command.FIELDS));
            if (c.op() == END) return;
            long size = c.size(), back = c.back();
            int n = c.n(), reps = c.reps();
            Disturbances.Reading start = Disturbances.read(t);
            if (op == Op.WRITE) BYTE.setVolatile(t.recvBuffer(), writeBytes(size) - 1, (byte) 0);
            long recvs = t.recvsCompleted();
            t.postRecv(0);
            await.recvs(t, recvs + 1);
            long waitsFrom = Disturbances.voluntarySwitches();
            if (op == Op.WRITE) mirrorWrites(t, oneSided, await, size, back, reps);
            else if (op == Op.READ) start = mirrorReads(t, await);
            else switch (c.op()) {
                case ROUND_TRIP, RECV_AFTER_DELAY -> mirrorTrains(t, await, depth, blocking, 1, c.op() == ROUND_TRIP ? size : 0, back, reps);
                case TRAIN -> mirrorTrains(t, await, depth, blocking, n, size, back, reps);
                case BURST -> mirrorBursts(t, await, depth, blocking, n, size, reps);
                default -> throw new IllegalStateException("unknown probe " + c.op());
            }
            long waits = Disturbances.voluntarySwitches() - waitsFrom;
            long[] moved = Disturbances.read(t).since(start).fields();
            control.sendAll(BATCH_END, moved[0], moved[1], moved[2], waits);
        }
    }

    /** Round trips and trains alike: per repetition, wait for the flagged write, answer with one. */
    private static void mirrorWrites(Transport t, OneSided oneSided, Await await, long size, long back, int reps) {
        readyBlocking(t, await);
        MemorySegment send = t.sendBuffer(), recv = t.recvBuffer();
        long at = writeBytes(size) - 1, backBytes = writeBytes(back);
        for (int r = 0; r < reps; r++) {
            byte f = OneSidedPingPong.flag(r);
            OneSidedPingPong.awaitFlag(t, oneSided, await, recv, at, f);
            BYTE.set(send, backBytes - 1, f);
            oneSided.postWrite(backBytes);
        }
        OneSidedPingPong.awaitOneSided(t, oneSided, await);
    }

    /**
     * Reads: nothing per read; progress (what emulated reads need) until the batch's closing
     * 0-byte message. Returns this side's counters as the reads begin: a preemption in the
     * ready message disturbs no read.
     */
    private static Disturbances.Reading mirrorReads(Transport t, Await await) {
        long recvs = t.recvsCompleted();
        t.postRecv(0); // posted before the ready message, so the closing one never arrives unexpected
        readyBlocking(t, await);
        Disturbances.Reading start = Disturbances.read(t);
        await.recvs(t, recvs + 1);
        return start;
    }

    /**
     * Posts the batch's first receives, answers the ready message, then one reply per train;
     * receives are re-posted as they complete, so trains may be longer than the depth.
     */
    private static void mirrorTrains(Transport t, Await await, int depth, boolean blocking, int n, long size, long back,
                                     int reps) {
        if (blocking) { // Kielmann's mirror: MPI_Recv each message, MPI_Send the reply after the n-th
            readyBlocking(t, await);
            for (int r = 0; r < reps; r++) {
                for (int i = 0; i < n; i++) await.blockingRecv(t, size);
                t.send(back);
            }
            return;
        }
        long first = t.recvsCompleted();
        long end = first + (long) n * reps;
        long posted = post(t, depth, first, end, size);
        long sends = t.sendsCompleted();
        t.postSend(0);
        await.sends(t, ++sends);
        for (long next = first + 1; next <= end; next++) {
            posted = echo(t, await, depth, next, posted, end, size, (next - first) % n == 0 ? back : -1);
        }
    }

    /** Waits for message {@code next}, keeps receives posted, and replies if {@code back >= 0}. */
    private static long echo(Transport t, Await await, int depth, long next, long posted, long end, long size, long back) {
        await.recvs(t, next);
        posted = post(t, depth, posted, end, size);
        if (back >= 0) {
            long sends = t.sendsCompleted();
            t.postSend(back);
            await.sends(t, sends + 1);
        }
        return posted;
    }

    private static void mirrorBursts(Transport t, Await await, int depth, boolean blocking, int m, long size, int reps) {
        if (blocking) {
            readyBlocking(t, await);
            for (long i = 0; i < (long) m * reps; i++) {
                await.blockingRecv(t, size);
                t.send(0);
            }
            return;
        }
        long first = t.recvsCompleted();
        long end = first + (long) m * reps;
        long posted = post(t, depth, first, end, size);
        long sends = t.sendsCompleted();
        t.postSend(0);
        await.sends(t, ++sends);
        for (long next = first + 1; next <= end; next++) {
            await.recvs(t, next);
            posted = post(t, depth, posted, end, size);
            if (sends - t.sendsCompleted() >= depth) await.sends(t, sends - depth + 1);
            t.postSend(0);
            sends++;
        }
        await.sends(t, sends);
    }

    /** The "mirror is ready" message when the mirror posts nothing ahead. */
    private static void readyBlocking(Transport t, Await await) {
        long sends = t.sendsCompleted();
        t.postSend(0);
        await.sends(t, sends + 1);
    }

    /** Keeps receives posted ahead, at most depth outstanding, up to {@code end} in total. */
    private static long post(Transport t, int depth, long posted, long end, long bytes) {
        while (posted < end && posted - t.recvsCompleted() < depth) {
            t.postRecv(bytes);
            posted++;
        }
        return posted;
    }

    private void ensureCapacity(int reps) {
        if (ticks.length < reps) {
            ticks = new long[reps];
            sendTicks = new long[reps];
        }
    }

    /** Intervals in ns, each less the clock overhead it holds ({@code timerNs}; never below 0). */
    private static double[] toNs(long[] ticks, int count, double timerNs) {
        double[] ns = new double[count];
        for (int i = 0; i < count; i++) ns[i] = Math.max(0, Clock.toNs(ticks[i]) - timerNs);
        return ns;
    }

    /** Busy-waits {@code delay} ticks and adds the time between its first and last clock read. */
    private void spinTimed(long delay) {
        long from = Clock.now(), until = from + delay, now;
        while ((now = Clock.now()) - until < 0) {
            Thread.onSpinWait();
        }
        spunTicks += now - from;
        spins++;
    }

    private static void spinUntil(long deadline) {
        while (Clock.now() - deadline < 0) {
            Thread.onSpinWait();
        }
    }
}
