package org.fabprobe.pattern;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.fabprobe.transport.Transport;

/**
 * What disturbs a timed batch without showing in its samples' spread: the timing thread
 * preempted (involuntary context switches, getrusage RUSAGE_THREAD's ru_nivcsw: another
 * process or a JIT thread took the CPU) and the transport's own missed deadlines (the
 * emulator's busy-waits overshooting). Read before and after each batch, never inside one.
 */
public final class Disturbances {
    private static final int RUSAGE_THREAD = 1;
    /** struct rusage: two struct timevals (16 B each), then 14 longs; ru_nivcsw is the last. */
    private static final long RUSAGE_BYTES = 144, NIVCSW_OFFSET = 136;
    private static final MethodHandle GETRUSAGE = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("getrusage").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));

    private Disturbances() {}

    /** Involuntary context switches of the calling thread so far; 0 if the kernel will not say. */
    public static long contextSwitches() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment usage = arena.allocate(RUSAGE_BYTES, 8);
            int rc = (int) GETRUSAGE.invokeExact(RUSAGE_THREAD, usage);
            return rc == 0 ? usage.get(JAVA_LONG, NIVCSW_OFFSET) : 0;
        } catch (Throwable e) {
            return 0;
        }
    }

    /** This side's disturbances so far: its thread's preemptions and its transport's missed deadlines. */
    public static long of(Transport t) {
        return contextSwitches() + t.missedDeadlines();
    }
}
