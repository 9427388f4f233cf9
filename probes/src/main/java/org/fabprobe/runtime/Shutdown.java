package org.fabprobe.runtime;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;

/**
 * Ctrl-C and SIGTERM without crashes or leftovers: the JVM's shutdown hook raises a flag;
 * the thread in the timing loop (pattern.Await) or on the control channel sees it, closes
 * its transport while the peer still runs, ends what it started and reports "interrupted".
 * The hook waits for that report ({@link #finished}), not longer.
 *
 * <p>Only if the command has not finished after {@value #GRACE_MS} ms does the hook end what
 * this process owns itself (a mirror child, the launcher's ranks); killing them first had
 * left the timing thread inside the shm provider waiting on a peer that died mid-message, so
 * that the JVM gave up silently. If even that does not free it, the hook says so in one line,
 * removes this process's shared-memory files and exits.
 */
public final class Shutdown {
    private static final long GRACE_MS = 1000, AFTER_KILL_MS = 3000;
    private static volatile boolean requested;
    /** Why {@link #stop} stopped the command; null after a signal. */
    private static volatile FabprobeException stopReason;
    /** Counted down by the main thread once the command's output or its error line is written. */
    private static final CountDownLatch FINISHED = new CountDownLatch(1);

    /** What must not be left behind when the process ends without closing its transport (its shared-memory files). */
    private static volatile Runnable beforeForcedExit = () -> { };

    private Shutdown() {}

    /** Sets what a forced exit after a signal runs first (see {@link #beforeForcedExit}). */
    public static void beforeForcedExit(Runnable cleanUp) {
        beforeForcedExit = cleanUp;
    }

    public static boolean requested() {
        return requested;
    }

    public static FabprobeException interrupted() {
        FabprobeException reason = stopReason;
        return reason != null ? reason : new FabprobeException(ExitCode.INTERRUPTED, "interrupted");
    }

    /**
     * Stops the command as a signal would, but for {@code reason} (the peer stopped): the
     * timing loop sees the flag it already watches and ends with this error.
     */
    public static void stop(FabprobeException reason) {
        stopReason = reason;
        requested = true;
    }

    /** True when {@link #stop} ended the run, not a signal. */
    public static boolean stoppedForAReason() {
        return stopReason != null;
    }

    /** The process has said all it will say: a pending shutdown need not wait any longer. */
    public static void finished() {
        FINISHED.countDown();
    }

    /**
     * Guards native resources or child processes until {@link Guard#close()}: on a signal,
     * {@code endOwned} ends what this process started if the command does not wind up by itself.
     */
    public static Guard guard(Runnable endOwned) {
        if (requested) throw interrupted();
        Guard guard = new Guard(endOwned);
        try {
            Runtime.getRuntime().addShutdownHook(guard.hook);
        } catch (IllegalStateException shuttingDown) {
            throw interrupted();
        }
        return guard;
    }

    private static boolean awaitFinished(long ms) {
        try {
            return FINISHED.await(ms, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    public static final class Guard implements AutoCloseable {
        private final Thread hook;

        private Guard(Runnable endOwned) {
            hook = new Thread(() -> {
                requested = true;
                if (awaitFinished(GRACE_MS)) return;
                endOwned.run();
                if (awaitFinished(AFTER_KILL_MS)) return;
                System.err.println("fabprobe: interrupted; the transport library did not return within "
                        + (GRACE_MS + AFTER_KILL_MS) / 1000 + " s (its peer died inside it), exiting without closing it");
                beforeForcedExit.run();
                System.err.flush();
                ProcessExit.now(ExitCode.INTERRUPTED); // a thread stuck in a critical downcall never lets the JVM halt
            }, "fabprobe-shutdown");
        }

        @Override
        public void close() {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is already running: it waits for the command's report
            }
        }
    }
}
