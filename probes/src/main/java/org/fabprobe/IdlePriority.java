package org.fabprobe;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Threads at the kernel's lowest priority (SCHED_IDLE): they run on a CPU nothing else wants,
 * never on one a spinning timing thread or the other process's start-up is using.
 */
public final class IdlePriority {
    private static final int SCHED_OTHER = 0, SCHED_IDLE = 5;
    private static final MethodHandle SET_SCHEDULER = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("sched_setscheduler").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));

    private IdlePriority() {}

    /** Thread {@code tid} (0: the calling thread) at SCHED_IDLE; where the kernel will not, it stays as it is. */
    public static void lower(int tid) {
        setPolicy(tid, SCHED_IDLE);
    }

    /** Thread {@code tid} back at the normal policy. */
    public static void restore(int tid) {
        setPolicy(tid, SCHED_OTHER);
    }

    private static void setPolicy(int tid, int policy) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment param = arena.allocate(JAVA_INT); // struct sched_param { int sched_priority; } = 0
            int ignored = (int) SET_SCHEDULER.invokeExact(tid, policy, param); // -1: the thread keeps its policy
        } catch (Throwable e) {
            // a thread that ended meanwhile, or a kernel without SCHED_IDLE: it keeps its priority
        }
    }
}
