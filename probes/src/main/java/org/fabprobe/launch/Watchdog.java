package org.fabprobe.launch;

import org.fabprobe.ExitCode;
import org.fabprobe.pattern.Await;

/**
 * The last resort when a native call never returns. Hot-path downcalls are "critical" (no
 * thread-state change), so a thread spinning inside the library cannot be interrupted: the
 * libfabric shm provider, for one, spins forever on a lock in shared memory that a dead peer
 * held. Await's deadlines cannot fire then. The watchdog sees Await's activity counter stop,
 * reports one line, kills the peer process it owns and halts with exit code 5.
 */
public final class Watchdog implements AutoCloseable {
    private static final long POLL_MS = 500;

    private final Thread thread;
    private volatile boolean closed;

    private Watchdog(long limitMs, String what, Runnable beforeHalt) {
        thread = new Thread(() -> watch(limitMs, what, beforeHalt), "fabprobe-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    /** Watches the timing loop until closed; {@code limitMs} without any Await activity is a hang. */
    public static Watchdog start(long limitMs, String what, Runnable beforeHalt) {
        return new Watchdog(limitMs, what, beforeHalt);
    }

    private void watch(long limitMs, String what, Runnable beforeHalt) {
        long seen = Await.activity();
        long since = System.nanoTime();
        while (!closed) {
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                return;
            }
            long now = Await.activity();
            if (now != seen) {
                seen = now;
                since = System.nanoTime();
            } else if (!closed && !Shutdown.requested() && (System.nanoTime() - since) / 1_000_000 > limitMs) {
                System.err.println("fabprobe: " + what + " stuck inside the transport library for " + limitMs
                        + " ms (peer died holding a shared lock?); giving up");
                beforeHalt.run();
                Runtime.getRuntime().halt(ExitCode.PEER_TIMEOUT);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
