package org.fabprobe.launch;

import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;

/**
 * Ctrl-C without crashes: the JVM's shutdown hook only raises a flag; the thread in the
 * timing loop sees it (see pattern.Await), unwinds and closes every native resource, and
 * the hook waits for that before the JVM halts.
 */
public final class Shutdown {
    private static volatile boolean requested;

    private Shutdown() {}

    public static boolean requested() {
        return requested;
    }

    public static FabprobeException interrupted() {
        return new FabprobeException(ExitCode.INTERRUPTED, "interrupted");
    }

    /**
     * Guards the native resources {@code worker} holds until {@link Guard#close()}:
     * on a signal, {@code onSignal} runs and the JVM waits for the worker to release them.
     */
    public static Guard guard(Thread worker, Runnable onSignal) {
        Guard guard = new Guard(worker, onSignal);
        Runtime.getRuntime().addShutdownHook(guard.hook);
        return guard;
    }

    public static final class Guard implements AutoCloseable {
        private final Thread hook;
        private volatile boolean released;

        private Guard(Thread worker, Runnable onSignal) {
            hook = new Thread(() -> {
                requested = true;
                onSignal.run();
                try {
                    if (!released) worker.join(3000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "fabprobe-shutdown");
        }

        @Override
        public void close() {
            released = true;
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is already running; `released` tells it not to wait
            }
        }
    }
}
