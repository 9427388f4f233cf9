package org.fabprobe.pattern;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.fabprobe.ExitCode;
import org.fabprobe.Steps;
import org.fabprobe.clock.Clock;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.OneSided;
import org.fabprobe.transport.Op;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.TransportException;

/**
 * Who must progress a one-sided operation, measured ({@code pingpong --op OP --target passive}).
 * Per size, the origin (measure) runs the same loop twice: post one operation, wait for its
 * completion (a write: the write and {@link OneSided#postFlush}, complete at the target), then
 * the next; a sample is one operation.
 *
 * <p><b>Passive target</b>: the target (mirror) makes no library call while the operations
 * run. Where the control channel is not the library's (a TCP socket) it sleeps in a blocking
 * socket read until the origin is done; over MPI, whose control channel is MPI calls, it
 * sleeps in steps of {@link #NAP_NS}, looking only at its own memory, for at most
 * {@link #PASSIVE_WAIT_NS}. Afterwards, before any library call, it checks its own memory: the
 * last write's flag byte, or the atomics' word (cleared before the phase). The origin stops
 * after {@link #BUDGET_NS}; an operation not complete {@link #STALL_NS} after its posting (or
 * after the budget) ends the phase as "does not complete without target progress". A blocking
 * call (MPI_Win_flush) then returns only once the target calls MPI again, after its bounded
 * sleep, and counts the same way. The target then progresses until the origin's stalled
 * operations have completed (a two-sided message ends that).
 *
 * <p><b>Active target</b>: the target calls {@link Transport#progress} in a loop: the
 * operations' latency with a target that serves them at once.
 *
 * <p><b>Paced target</b>: the target naps ({@link #PACE_NS}) before each progress call. Its
 * CPU per operation: the thread's CPU time over the run (CLOCK_THREAD_CPUTIME_ID: waits for a
 * CPU are not in it) less as many paced idle calls' CPU (made just before, the same way, with
 * nothing in flight), divided by the operations. Pacing keeps the calls few, so that the
 * idle calls' cost, and its noise, weigh little beside the operations' work; a spinning
 * target's calls outnumber the operations a hundredfold.
 */
public final class TargetProgress {
    /** How long the origin runs a phase's operations at most (it stops after the one that ends past it). */
    public static final long BUDGET_NS = 1_000_000_000L;
    /** An operation not complete this long after its posting (or after the budget) does not complete passively. */
    public static final long STALL_NS = 1_000_000_000L;
    /** The passive target's longest sleep over MPI: beyond the origin's budget and stall bound. */
    static final long PASSIVE_WAIT_NS = BUDGET_NS + STALL_NS + 1_000_000_000L;
    /** The passive target's nap between looks at its own memory. */
    static final long NAP_NS = 20_000;
    /** How long the target looks for the last operation's effect in its memory after the origin is done. */
    static final long SEEN_GRACE_NS = 200_000_000L;
    /** Paced idle progress calls before each paced run, and the nap before each paced call. */
    static final int PACED_IDLE_CALLS = 2_000;
    static final long PACE_NS = 20_000;
    private static final String READY = "target_ready", DONE = "target_done", SEEN = "target_seen",
            COST = "target_cost", AGAIN = "target_again",
            PACED = "target_paced";
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final long[] sizes;
    private final int warmup, repetitions;
    private final Op op;

    public TargetProgress(long[] sizes, int warmup, int repetitions, Op op) {
        if (!op.oneSided()) throw new IllegalArgumentException("--target passive needs a one-sided op");
        for (long s : sizes) if (s < 1) throw new IllegalArgumentException("one-sided sizes start at 1 B");
        this.sizes = sizes.clone();
        this.warmup = warmup;
        this.repetitions = repetitions;
        this.op = op;
    }

    public static TargetProgress of(Schedule.TargetSchedule s) {
        return new TargetProgress(s.sizes(), s.warmup(), s.repetitions(), s.op());
    }

    public Schedule.TargetSchedule schedule() {
        return new Schedule.TargetSchedule(sizes.clone(), warmup, repetitions, op);
    }

    /**
     * One size, both runs. Passive: operations completed, whether one stalled, whether the
     * target saw the last one in its memory, the timed latencies (ns; warm-up left out, may be
     * empty). Active: the latencies, whether the target waited for a CPU for more than a tenth
     * of the run. Paced: the target's progress calls, its CPU per operation (ns, see the class
     * comment), an idle call's CPU (ns).
     */
    public record Size(long sizeBytes, int passiveOps, boolean passiveStalled, boolean passiveSeen, double[] passiveNs,
                       int activeOps, double[] activeNs, long pacedCalls, double targetCpuNsPerOp, double idleCallNs, boolean disturbed,
                       int remeasured, double activeWallMs, double cpuWaitMs) {}

    /** Measure (origin) half. */
    public Size[] measure(Transport t, Await await, Control control, Steps steps, int maxRemeasures) {
        OneSided os = OneSidedPingPong.exchange(t, control, op);
        int ops = warmup + repetitions;
        long[] ticks = new long[ops];
        Size[] out = new Size[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            long size = sizes[i];
            // active first: the origin's loop is compiled by the time the passive run is timed
            steps.next(op.label() + ", target active, at", size);
            double[] active;
            long[] cost;
            int again = 0, k;
            double wallMs;
            while (true) {
                long recvs = t.recvsCompleted();
                t.postRecv(1);
                control.receive(READY);
                await.recvs(t, recvs + 1); // spins while the target times idle calls; its message starts the run
                long start = Clock.now();
                k = originRun(t, os, size, ticks, await.timeoutTicks());
                if (k < 0) throw TransportException.timeout(op.label() + " did not complete within --timeout"
                        + " although the target progressed");
                closePhase(t, await);
                wallMs = Clock.toNs(Clock.now() - start) / 1e6;
                active = ns(ticks, k);
                cost = control.receiveAll(COST, 5);
                boolean disturbed = cost[4] != 0;
                boolean more = disturbed && again < maxRemeasures;
                control.send(AGAIN, more ? 1 : 0);
                if (!more) break;
                again++;
            }
            int activeOps = k;

            // paced: the target naps between progress calls, so that its CPU time is the operations' work
            steps.next(op.label() + ", target paced, at", size);
            long recvs = t.recvsCompleted();
            t.postRecv(1);
            control.receive(READY);
            await.recvs(t, recvs + 1); // the target times paced idle calls; its message starts the run
            int pacedOps = originRun(t, os, size, ticks, await.timeoutTicks());
            if (pacedOps < 0) throw TransportException.timeout(op.label() + " did not complete within --timeout"
                    + " although the target progressed");
            closePhase(t, await);
            long[] paced = control.receiveAll(PACED, 3);

            steps.next(op.label() + ", target passive, at", size);
            control.receive(READY);
            os.postRetryLimit(STALL_NS); // a post the full queues of a passive target hold up stalls too
            try {
                k = originRun(t, os, size, ticks, Clock.fromNs(STALL_NS));
            } finally {
                os.postRetryLimit(0);
            }
            boolean stalled = k < 0;
            int done = stalled ? -k - 1 : k;
            control.sendAll(DONE, done, stalled ? 1 : 0);
            boolean seen = control.receive(SEEN) != 0;
            OneSidedPingPong.awaitOneSided(t, os, await); // the target progresses meanwhile
            closePhase(t, await);
            double[] passive = ns(ticks, done);

            double cpuNs = pacedOps == 0 ? Double.NaN : (double) paced[1] / pacedOps;
            out[i] = new Size(size, done, stalled, seen, passive, activeOps, active, paced[0], cpuNs, paced[2] / 1e3,
                    cost[4] != 0, again, wallMs, cost[3] / 1e6);
        }
        return out;
    }

    /** Mirror (target) half. */
    public void mirror(Transport t, Await await, Control control) {
        OneSided os = OneSidedPingPong.exchange(t, control, op);
        MemorySegment recv = t.recvBuffer();
        int ops = warmup + repetitions;
        boolean napping = control.callsTransport();
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        for (long size : sizes) {
            // active: the origin's operations while the target is in a loop of timed progress calls
            do {
                clear(recv, size);
                control.send(READY, 1);
                Disturbances.Reading before = Disturbances.read(t);
                long recvs = t.recvsCompleted(), sends = t.sendsCompleted();
                t.postRecv(1); // the run's end
                long calls = 0, deadline = 0, start = Clock.now();
                t.postSend(1); // the run's start; the loop completes it
                while (t.recvsCompleted() <= recvs) {
                    t.progress();
                    calls++;
                    if ((calls & 0xFFFF) == 0) deadline = await.deadline(deadline, "the end of the " + op.label() + " run");
                }
                long wallTicks = Clock.now() - start;
                Disturbances.Reading moved = Disturbances.read(t).since(before);
                await.sends(t, sends + 1);
                long waitTicks = Clock.fromNs(Math.max(0, moved.waitNs()));
                // a target that waited for a CPU for a tenth of the run: its CPU time is not the run's alone
                boolean disturbed = moved.waitNs() < 0 ? moved.preemptions() > 5 : waitTicks > wallTicks / 10;
                control.sendAll(COST, calls, 0, 0, Math.max(0, moved.waitNs()), disturbed ? 1 : 0);
            } while (control.receive(AGAIN) != 0);

            // paced: a nap before each progress call; the thread's CPU time less as many paced idle calls'
            clear(recv, size);
            control.send(READY, 1);
            long idleCpu = threads.getCurrentThreadCpuTime();
            for (int c = 0; c < PACED_IDLE_CALLS; c++) {
                LockSupport.parkNanos(PACE_NS);
                t.progress();
            }
            double idleCallCpuNs = (double) (threads.getCurrentThreadCpuTime() - idleCpu) / PACED_IDLE_CALLS;
            long pacedRecvs = t.recvsCompleted(), pacedSends = t.sendsCompleted();
            t.postRecv(1);
            long pacedCalls = 0, pacedDeadline = 0, cpuStart = threads.getCurrentThreadCpuTime();
            t.postSend(1);
            while (t.recvsCompleted() <= pacedRecvs) {
                LockSupport.parkNanos(PACE_NS);
                t.progress();
                if ((++pacedCalls & 1023) == 0) pacedDeadline = await.deadline(pacedDeadline, "the end of the paced run");
            }
            long cpuNs = threads.getCurrentThreadCpuTime() - cpuStart - Math.round(pacedCalls * idleCallCpuNs);
            await.sends(t, pacedSends + 1);
            control.sendAll(PACED, pacedCalls, cpuNs, Math.round(idleCallCpuNs * 1e3));

            // passive: no library call from READY until the target's memory has been looked at
            clear(recv, size);
            long recvs = t.recvsCompleted();
            control.send(READY, 1);
            long[] done;
            long snapshot;
            if (napping) {
                long end = Clock.now() + Clock.fromNs(PASSIVE_WAIT_NS);
                // a read leaves nothing to see: the whole nap
                while ((op == Op.READ || look(recv, size) != endState(ops)) && Clock.now() - end < 0) {
                    LockSupport.parkNanos(NAP_NS);
                }
                snapshot = look(recv, size);
                done = control.receiveAll(DONE, 2);
            } else {
                done = control.receiveAll(DONE, 2);
                long want = endState((int) done[0]), end = Clock.now() + Clock.fromNs(SEEN_GRACE_NS);
                while ((snapshot = look(recv, size)) != want && Clock.now() - end < 0) LockSupport.parkNanos(NAP_NS);
            }
            boolean seen = op == Op.READ || done[0] > 0 && snapshot == endState((int) done[0]);
            t.postRecv(1); // the phase's end, posted before the origin can send it
            control.send(SEEN, seen ? 1 : 0);
            await.recvs(t, recvs + 1); // progresses: what the origin's stalled operations need
        }
    }

    /**
     * Posts {@code ticks.length} operations one after the other, each awaited, until the budget
     * is spent; the number done, or {@code -(done + 1)} where one did not complete within
     * {@code stallTicks} of its posting (nor before the budget's end).
     */
    private int originRun(Transport t, OneSided os, long size, long[] ticks, long stallTicks) {
        long budgetEnd = Clock.now() + Clock.fromNs(BUDGET_NS);
        MemorySegment send = t.sendBuffer();
        for (int i = 0; i < ticks.length; i++) {
            long posted = Clock.now();
            try {
                switch (op) {
                    case WRITE -> {
                        BYTE.set(send, size - 1, flag(i));
                        os.postWriteUnordered(size);
                        os.postFlush();
                    }
                    case READ -> os.postRead(size);
                    case FETCH_ADD -> os.postFetchAdd(1);
                    case CSWAP -> os.postCompareSwap(i, i + 1);
                    case SEND -> throw new IllegalStateException();
                }
            } catch (TransportException e) {
                if (e.exitCode() != ExitCode.PEER_TIMEOUT) throw e;
                return -(i + 1); // the library's queues stayed full: nothing drains them without the target
            }
            long stallAt = Math.max(budgetEnd, posted + stallTicks), spins = 0;
            while (os.oneSidedCompleted() < os.oneSidedPosted()) {
                t.progress();
                if ((++spins & 1023) == 0 && Clock.now() - stallAt > 0) return -(i + 1);
            }
            long now = Clock.now();
            if (now - stallAt > 0) return -(i + 1); // a blocking call that returned only after the stall bound
            ticks[i] = now - posted;
            if (now - budgetEnd > 0) return i + 1;
        }
        return ticks.length;
    }

    /** The two-sided message that ends a phase: the target progresses until it arrives. */
    private static void closePhase(Transport t, Await await) {
        long sends = t.sendsCompleted();
        t.postSend(1);
        await.sends(t, sends + 1);
    }

    /** The timed operations' latencies in ns: those after the warm-up, or all where fewer completed. */
    private double[] ns(long[] ticks, int done) {
        int from = done > warmup ? warmup : 0;
        double[] ns = new double[done - from];
        for (int i = 0; i < ns.length; i++) ns[i] = Clock.toNs(ticks[from + i]);
        return ns;
    }

    private void clear(MemorySegment recv, long size) {
        if (op == Op.WRITE) BYTE.setVolatile(recv, size - 1, (byte) 0);
        else if (op.atomic()) LONG.setVolatile(recv, 0L, 0L);
    }

    /** What the target sees of the operations in its own memory: the flag byte, or the atomics' word. */
    private long look(MemorySegment recv, long size) {
        if (op == Op.WRITE) return (byte) BYTE.getAcquire(recv, size - 1);
        if (op.atomic()) return (long) LONG.getAcquire(recv, 0L);
        return 0;
    }

    /** What {@link #look} shows once {@code done} operations have landed. */
    private long endState(int done) {
        if (op == Op.WRITE) return done == 0 ? 0 : flag(done - 1);
        if (op.atomic()) return done;
        return 0;
    }

    /** Operation i's flag byte: 1..255, never the cleared 0, never the previous one's. */
    private static byte flag(long i) {
        return (byte) (i % 255 + 1);
    }
}
