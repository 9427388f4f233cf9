package org.fabprobe.runtime;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.fabprobe.ExitCode;
import org.fabprobe.bindings.libc.Libc;

/**
 * SIGINT stops a run even when the process started with it ignored (a shell script's
 * background job, {@code trap '' INT}). HotSpot installs no handler for a signal ignored at
 * start, so {@code kill -INT} did nothing to ucx: and tcp runs; ofi:shm runs stopped only
 * because libfabric's shm provider installs a SIGINT handler of its own.
 */
public final class Interrupts {
    private static final int SIGINT = 2;
    private static final long SIG_IGN = 1;
    /** Larger than any libc's struct sigaction (glibc: 152 bytes on x86-64 and aarch64). */
    private static final long SIGACTION_BYTES = 512;

    private Interrupts() {}

    /**
     * If SIGINT is ignored, resets it to the default and has the JVM handle it as it would have
     * at start: a normal exit with 130, which runs the shutdown hooks ({@link Shutdown}).
     * Returns whether it was ignored.
     */
    public static boolean honourIgnored() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment old = arena.allocate(SIGACTION_BYTES, 16);
            if (Libc.sigaction(SIGINT, MemorySegment.NULL, old) != 0 || old.get(ADDRESS, 0).address() != SIG_IGN) return false;
            // all zeros: SIG_DFL, an empty mask, no flags; HotSpot then installs its own handler
            if (Libc.sigaction(SIGINT, arena.allocate(SIGACTION_BYTES, 16), MemorySegment.NULL) != 0) return false;
            try {
                sun.misc.Signal.handle(new sun.misc.Signal("INT"), signal -> System.exit(ExitCode.INTERRUPTED));
                return true;
            } catch (IllegalArgumentException refused) { // -Xrs, or a VM that keeps SIGINT: ignored as before
                Libc.sigaction(SIGINT, old, MemorySegment.NULL);
                return false;
            }
        }
    }
}
