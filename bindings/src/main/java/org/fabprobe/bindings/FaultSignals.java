package org.fabprobe.bindings;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.fabprobe.bindings.libc.Libc;

/**
 * The dispositions of SIGSEGV and SIGBUS at one moment (HotSpot's handlers), to be put back
 * after a native call that installs handlers of its own.
 *
 * <p>HotSpot raises SIGSEGV itself all the time (safepoint polls, implicit null checks) and
 * handles it. A library handler that runs first acts on each of those. libfabric's shm
 * provider (1.17) installs one in its first fi_endpoint that unlinks the process's
 * shared-memory regions from /dev/shm, a clean-up for crashes: the first routine fault in any
 * JVM thread then removed the region before the peer had mapped it, and the peer's provider
 * crashed on the connection request that followed (a NULL region in smr_progress_connreq):
 * 1 to 5 runs in 20 of an interrupted {@code pingpong -t ofi:shm}. fabprobe removes what a
 * crashed run left itself ({@code launch.Leftovers}).
 */
public final class FaultSignals {
    private static final int SIGBUS = 7, SIGSEGV = 11;
    /** Larger than any libc's struct sigaction (glibc: 152 bytes on x86-64 and aarch64). */
    private static final long SIGACTION_BYTES = 512;

    private final MemorySegment segv, bus;

    private FaultSignals(MemorySegment segv, MemorySegment bus) {
        this.segv = segv;
        this.bus = bus;
    }

    /** The dispositions now. */
    public static FaultSignals save() {
        Arena arena = Arena.ofAuto();
        MemorySegment segv = arena.allocate(SIGACTION_BYTES, 16), bus = arena.allocate(SIGACTION_BYTES, 16);
        sigaction(SIGSEGV, MemorySegment.NULL, segv);
        sigaction(SIGBUS, MemorySegment.NULL, bus);
        return new FaultSignals(segv, bus);
    }

    /** Runs {@code call} and puts HotSpot's handlers back after it, whatever it installed. */
    public static void keptAcross(Runnable call) {
        FaultSignals saved = save();
        try {
            call.run();
        } finally {
            saved.restore();
        }
    }

    /** Puts the saved dispositions back, whatever a library installed since. */
    public void restore() {
        sigaction(SIGSEGV, segv, MemorySegment.NULL);
        sigaction(SIGBUS, bus, MemorySegment.NULL);
    }

    /** Whether both signals still have the handlers saved here. */
    public boolean unchanged() {
        FaultSignals now = save();
        return handler(now.segv) == handler(segv) && handler(now.bus) == handler(bus);
    }

    /** sa_handler / sa_sigaction: the first member of struct sigaction in glibc and musl. */
    private static long handler(MemorySegment action) {
        return action.get(ADDRESS, 0).address();
    }

    private static void sigaction(int signal, MemorySegment action, MemorySegment old) {
        if (Libc.sigaction(signal, action, old) != 0) throw new IllegalStateException("sigaction(" + signal + ") failed");
    }
}
