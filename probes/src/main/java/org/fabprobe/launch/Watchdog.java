package org.fabprobe.launch;

import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.pattern.Await;
import org.fabprobe.runtime.CpuWait;
import org.fabprobe.runtime.ProcessExit;
import org.fabprobe.runtime.Shutdown;
import org.fabprobe.runtime.ThreadIds;

/**
 * The last resort when a native call never returns. Hot-path downcalls are "critical" (no
 * thread-state change), so a thread spinning inside the library cannot be interrupted: the
 * libfabric shm provider, for one, spins forever on a lock in shared memory that a dead peer
 * held. Await's deadlines cannot fire then. The watchdog sees Await's activity counter stop,
 * reports one line, kills the peer process it owns and ends the process with exit code 5.
 * It ends the process with {@link ProcessExit#now}.
 */
public final class Watchdog implements AutoCloseable {
    private static final long POLL_MS = 500;

    private final Thread thread;
    private volatile boolean closed;

    /** Measure side: an error frame from the mirror ends the timing loop (a mirror ends its own). */
    private final boolean stopOnPeerError;

    private Watchdog(long limitMs, String what, Rendezvous rv, Runnable beforeHalt, boolean stopOnPeerError) {
        this.stopOnPeerError = stopOnPeerError;
        ProcessExit.link(); // the moment of need is no time to load classes
        int timingThread = ThreadIds.current(); // started on the timing thread
        CpuWait.reset();
        thread = new Thread(() -> watch(limitMs, what, rv, beforeHalt, timingThread), "fabprobe-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Watches the timing loop until closed; {@code limitMs} without any Await activity is a hang.
     * {@code what} names this side ("the mirror process"), {@code rv} tells whether the peer is gone.
     */
    public static Watchdog start(long limitMs, String what, Rendezvous rv, Runnable beforeHalt) {
        return new Watchdog(limitMs, what, rv, beforeHalt, false);
    }

    /** As {@link #start}, for measure: it also ends the timing loop when the mirror reports an error (it stopped). */
    public static Watchdog startMeasure(long limitMs, String what, Rendezvous rv, Runnable beforeHalt) {
        return new Watchdog(limitMs, what, rv, beforeHalt, true);
    }

    private void watch(long limitMs, String what, Rendezvous rv, Runnable beforeHalt, int timingThread) {
        long seen = Await.activity();
        long since = System.nanoTime();
        while (!closed) {
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                return;
            }
            CpuWait.sample(timingThread);
            String peerError = stopOnPeerError && !Shutdown.requested() ? rv.peerError() : null;
            if (peerError != null) { // the peer stopped and said why: no use waiting for the timeout
                Shutdown.stop(new FabprobeException(ExitCode.PEER_TIMEOUT, peerError));
                since = System.nanoTime();
            }
            long now = Await.activity();
            if (now != seen) {
                seen = now;
                since = System.nanoTime();
            } else if (!closed && (!Shutdown.requested() || Shutdown.stoppedForAReason())
                    && (System.nanoTime() - since) / 1_000_000 > limitMs) {
                System.err.println("fabprobe: " + hang(limitMs, what, rv));
                beforeHalt.run();
                Leftovers.removeDead();
                Leftovers.removeMine(); // _exit leaves the stuck transport unclosed, its shm region too
                System.err.flush();
                ProcessExit.now(ExitCode.PEER_TIMEOUT);
            }
        }
    }

    /**
     * Whose fault, in words. The timing thread has not moved for longer than any control-channel
     * wait may last, so asking the channel (which reads from it) cannot steal that thread's data.
     */
    private static String hang(long limitMs, String what, Rendezvous rv) {
        String starved = CpuWait.explains(limitMs);
        if (starved != null) return what + " made no progress for " + limitMs + " ms: " + starved + "; giving up";
        if (rv.peerGone()) {
            return rv.peer() + " went away during the measurement, leaving " + what
                    + " stuck inside the transport library (the peer died mid-message or holding a shared lock); gave up after "
                    + limitMs + " ms";
        }
        return what + " stuck inside the transport library for " + limitMs
                + " ms (peer dead or stopped, or died holding a shared lock); giving up";
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
