package org.fabprobe.pattern;

import org.fabprobe.clock.Clock;
import org.fabprobe.runtime.CpuWait;
import org.fabprobe.runtime.Shutdown;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.TransportException;

/**
 * Spin-waits on a transport's completion counters, with a deadline.
 *
 * <p>The clock and the Ctrl-C flag are looked at after the first unsuccessful poll (the
 * message is still in flight then, so the clock read is not on the critical path) and then
 * every {@value #CHECK_EVERY} polls. Looking at once, not only after {@value #CHECK_EVERY}
 * polls, keeps that path warm: a path the JIT warm-up never took is compiled as a trap, and
 * the first long wait of a timed run then stalled it with a deoptimization and a blocking
 * recompilation (Clock.now was first compiled mid-run in the mirror, for one).
 */
public final class Await {
    private static final int CHECK_EVERY = 1024;

    /** Calls so far, for launch.Watchdog: a plain counter, written by the timing thread only. */
    private static long calls;
    private static final java.lang.invoke.VarHandle CALLS;

    static {
        try {
            CALLS = java.lang.invoke.MethodHandles.lookup().findStaticVarHandle(Await.class, "calls", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How many waits have started: stops moving only when the timing thread is stuck. */
    public static long activity() {
        return (long) CALLS.getOpaque();
    }

    private final long timeoutTicks;
    private final String peer;

    /** @param peer how to name the peer in a timeout message, e.g. "the mirror process" */
    public Await(long timeoutNs, String peer) {
        this.timeoutTicks = Clock.fromNs(timeoutNs);
        this.peer = peer;
    }

    /** The timeout of every wait, in clock ticks. */
    public long timeoutTicks() {
        return timeoutTicks;
    }

    /** Until at least {@code target} receives have completed. */
    public void recvs(Transport t, long target) {
        calls++;
        long spins = 0, deadline = 0;
        while (t.recvsCompleted() < target) {
            t.progress();
            if ((spins++ & (CHECK_EVERY - 1)) == 0) deadline = check(deadline, t, target, true);
        }
    }

    /**
     * One blocking receive inside the library ({@link Transport#recv}). No deadline can fire
     * in there: it counts as activity, and launch.Watchdog is the timeout (MPI only, where
     * mpirun also ends the job when a rank dies).
     */
    public void blockingRecv(Transport t, long bytes) {
        calls++;
        t.recv(bytes);
    }

    /** Until at least {@code target} sends have completed. */
    public void sends(Transport t, long target) {
        calls++;
        long spins = 0, deadline = 0;
        while (t.sendsCompleted() < target) {
            t.progress();
            if ((spins++ & (CHECK_EVERY - 1)) == 0) deadline = check(deadline, t, target, false);
        }
    }

    /**
     * For waits outside this class (a flag byte in memory, one-sided completions): the deadline
     * to pass back next time, set at the first call; throws past it, naming {@code what}.
     */
    public long deadline(long deadline, String what) {
        if (Shutdown.requested()) throw Shutdown.interrupted();
        long now = Clock.now();
        if (deadline == 0) return now + timeoutTicks;
        if (now - deadline > 0) {
            throw TransportException.timeout("no answer from " + peer + " for " + Math.round(Clock.toNs(timeoutTicks) / 1e6)
                    + " ms while waiting for " + what + " (peer dead or stuck; see --timeout)");
        }
        return deadline;
    }

    private long check(long deadline, Transport t, long target, boolean recv) {
        if (Shutdown.requested()) throw Shutdown.interrupted();
        long now = Clock.now();
        // the first look sets the deadline, without a branch: waits the JIT warm-up made were
        // short (one look), so a branch for the later looks of a long wait was never taken
        // there, and a 1 MiB window over tcp then hit its trap in the timed rounds
        long first = ((deadline | -deadline) >>> 63) ^ 1; // 1 while no deadline is set, else 0
        deadline += first * (now + timeoutTicks);
        if (now - deadline > 0) throw timedOut(t, target, recv);
        return deadline;
    }

    /** The timeout, in words: a method of its own, so that {@link #check} stays small enough to inline into the waits. */
    private TransportException timedOut(Transport t, long target, boolean recv) {
        long timeoutMs = Math.round(Clock.toNs(timeoutTicks) / 1e6);
        String starved = CpuWait.explains(timeoutMs);
        if (starved != null) {
            return TransportException.timeout("no progress for " + timeoutMs + " ms while waiting for " + peer + ": "
                    + starved + " (see --timeout)");
        }
        return TransportException.timeout("no answer from " + peer + " for " + timeoutMs + " ms while waiting for "
                + (recv ? "message " + target + " (" + t.recvsCompleted() + " received)"
                        : "send completion " + target + " (" + t.sendsCompleted() + " completed)")
                + " (peer dead or stuck; see --timeout)");
    }
}
