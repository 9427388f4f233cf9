package org.fabprobe.launch;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.fabprobe.ExitCode;
import org.fabprobe.pattern.Await;
import org.fabprobe.runtime.CpuWait;
import org.fabprobe.runtime.ThreadIds;

/**
 * The last resort when a native call never returns. Hot-path downcalls are "critical" (no
 * thread-state change), so a thread spinning inside the library cannot be interrupted: the
 * libfabric shm provider, for one, spins forever on a lock in shared memory that a dead peer
 * held. Await's deadlines cannot fire then. The watchdog sees Await's activity counter stop,
 * reports one line, kills the peer process it owns and ends the process with exit code 5.
 *
 * <p>It ends the process with libc's _exit, not Runtime.halt: halt stops the JVM at a
 * safepoint, which a thread inside a critical downcall never reaches, so halt waited for
 * as long as the call did (measured: a blocking MPI_Recv from a stopped peer kept rank 0
 * alive until the peer resumed).
 */
public final class Watchdog implements AutoCloseable {
    private static final long POLL_MS = 500;
    /** Linked up front: the moment of need is no time to load classes. */
    private static final MethodHandle EXIT = exitHandle();

    private final Thread thread;
    private volatile boolean closed;

    private Watchdog(long limitMs, String what, Rendezvous rv, Runnable beforeHalt) {
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
        return new Watchdog(limitMs, what, rv, beforeHalt);
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
            long now = Await.activity();
            if (now != seen) {
                seen = now;
                since = System.nanoTime();
            } else if (!closed && !Shutdown.requested() && (System.nanoTime() - since) / 1_000_000 > limitMs) {
                System.err.println("fabprobe: " + hang(limitMs, what, rv));
                beforeHalt.run();
                Leftovers.removeDead();
                Leftovers.removeMine(); // _exit leaves the stuck transport unclosed, its shm region too
                System.err.flush();
                exitNow(ExitCode.PEER_TIMEOUT);
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

    private static MethodHandle exitHandle() {
        Linker linker = Linker.nativeLinker();
        return linker.defaultLookup().find("_exit")
                .map(symbol -> linker.downcallHandle(symbol, FunctionDescriptor.ofVoid(ValueLayout.JAVA_INT)))
                .orElse(null);
    }

    /** Ends the process at once with {@code code}, even while a thread is inside a critical downcall. */
    static void exitNow(int code) {
        if (EXIT != null) {
            try {
                EXIT.invokeExact(code);
            } catch (Throwable ignored) {
                // fall through to halt
            }
        }
        Runtime.getRuntime().halt(code);
    }
}
