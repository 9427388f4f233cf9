package org.fabprobe.runtime;

import org.fabprobe.bindings.libc.Libc;

/**
 * Ends the process with libc's _exit, not Runtime.halt: halt stops the JVM at a safepoint,
 * which a thread inside a critical downcall never reaches, so halt waited for as long as the
 * call did (a blocking MPI_Recv from a stopped peer kept rank 0 alive until the peer resumed).
 */
public final class ProcessExit {
    static {
        Libc.linkExit(); // up front: the moment of need is no time to load classes
    }

    private ProcessExit() {}

    /** Ends the process at once with {@code code}, even while a thread is inside a critical downcall. */
    public static void now(int code) {
        try {
            Libc._exit(code); // returns only where libc has no _exit
        } catch (Throwable ignored) {
            // fall through to halt
        }
        Runtime.getRuntime().halt(code);
    }

    /** Links the handle now (before any thread may be stuck). */
    public static void link() {
        // the class initializer did it
    }
}
