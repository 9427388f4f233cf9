package org.fabprobe.runtime;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import org.fabprobe.bindings.libc.Libc;

/**
 * Threads at the kernel's lowest priority (SCHED_IDLE): they run on a CPU nothing else wants,
 * never on one a spinning timing thread or the other process's start-up is using.
 */
public final class IdlePriority {
    private static final int SCHED_OTHER = 0, SCHED_IDLE = 5;

    private IdlePriority() {}

    /** Thread {@code tid} (0: the calling thread) at SCHED_IDLE; where the kernel will not, it stays as it is. */
    public static void lower(int tid) {
        setPolicy(tid, SCHED_IDLE);
    }

    /** Thread {@code tid} back at the normal policy. */
    public static void restore(int tid) {
        setPolicy(tid, SCHED_OTHER);
    }

    /**
     * Whether {@link #restore} will be allowed: the kernel lets a thread leave SCHED_IDLE only
     * with CAP_SYS_NICE (root) or a RLIMIT_NICE soft limit of at least 20 (the default is 0), so
     * an ordinary user's lowered thread stays at idle priority.
     */
    public static boolean restorable() {
        try {
            return restorable(Files.readString(Path.of("/proc/self/status")), Files.readString(Path.of("/proc/self/limits")));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static final int CAP_SYS_NICE = 23;
    private static final String NICE_LIMIT = "Max nice priority";

    /** {@link #restorable()} from the texts of /proc/self/status and /proc/self/limits. */
    static boolean restorable(String status, String limits) {
        for (String line : status.split("\n")) {
            if (line.startsWith("CapEff:") && (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << CAP_SYS_NICE)) != 0) {
                return true;
            }
        }
        for (String line : limits.split("\n")) {
            if (line.startsWith(NICE_LIMIT)) {
                String soft = line.substring(NICE_LIMIT.length()).trim().split("\\s+")[0];
                return soft.equals("unlimited") || Integer.parseInt(soft) >= 20;
            }
        }
        return false;
    }

    private static void setPolicy(int tid, int policy) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment param = arena.allocate(JAVA_INT); // struct sched_param { int sched_priority; } = 0
            int ignored = Libc.sched_setscheduler(tid, policy, param); // -1: the thread keeps its policy
        } catch (Throwable e) {
            // a thread that ended meanwhile, or a kernel without SCHED_IDLE: it keeps its priority
        }
    }
}
