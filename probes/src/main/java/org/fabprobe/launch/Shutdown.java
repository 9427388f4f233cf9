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

    /** Installs the hook for {@code worker}, the thread that owns the native resources. */
    public static void install(Thread worker, Runnable alsoOnShutdown) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            requested = true;
            alsoOnShutdown.run();
            try {
                worker.join(3000);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }, "fabprobe-shutdown"));
    }
}
