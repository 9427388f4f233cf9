package org.fabprobe.runtime;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.stream.IntStream;
import org.fabprobe.bindings.libc.Libc;

/** CPU pinning of the calling thread: sched_setaffinity / sched_getaffinity ({@link Libc}). */
public final class CpuAffinity {
    /** A glibc cpu_set_t: 1024 CPUs in 16 longs (longs, so bit n is CPU n on any byte order). */
    private static final int MASK_WORDS = 16, MAX_CPUS = MASK_WORDS * 64;

    private CpuAffinity() {}

    /** A pinned thread's way back: closing it restores the CPUs the thread had before. */
    public interface Pinned extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Pins the calling thread to {@code cpu}; IllegalArgumentException says why not. Close the
     * result on the same thread when the timing is over: a thread left pinned passes its one CPU
     * to every process it starts later (an accept run's next mirror, a test runner's children).
     */
    public static Pinned pinCurrentThread(int cpu) {
        if (cpu < 0 || cpu >= MAX_CPUS) {
            throw new IllegalArgumentException("cannot pin to CPU " + cpu + ": not in 0-" + (MAX_CPUS - 1)
                    + ", the range of a cpu_set_t (allowed: " + cpuList(allowedCpus()) + ")");
        }
        int[] before = allowedCpus();
        int errno = setAffinity(new int[] {cpu});
        if (errno != 0) {
            throw new IllegalArgumentException("cannot pin to CPU " + cpu + ": " + Libc.strerror(errno)
                    + " (allowed: " + cpuList(before) + ")");
        }
        Thread pinned = Thread.currentThread();
        return () -> {
            if (Thread.currentThread() != pinned) throw new IllegalStateException("unpinned from another thread");
            setAffinity(before); // the CPUs it had a moment ago: only a CPU taken offline meanwhile fails, and then it stays
        };
    }

    /** Refuses a CPU that this process may not run on (nor the children it starts), before anything is started. */
    public static void checkAllowed(int cpu) {
        int[] allowed = allowedCpus();
        if (cpu >= 0 && java.util.Arrays.stream(allowed).noneMatch(c -> c == cpu)) {
            throw new IllegalArgumentException("cannot pin to CPU " + cpu + ": not one this process may run on (allowed: "
                    + cpuList(allowed) + ")");
        }
    }

    /** {@link #pinCurrentThread} for a CPU the user chose, or nothing to undo for -1 (unpinned). */
    public static Pinned pinCurrentThreadIfChosen(int cpu) {
        return cpu < 0 ? () -> {} : pinCurrentThread(cpu);
    }

    /** sched_setaffinity for the calling thread; 0 or errno. */
    private static int setAffinity(int[] cpus) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(JAVA_LONG, MASK_WORDS);
            for (int cpu : cpus) mask.setAtIndex(JAVA_LONG, cpu / 64, mask.getAtIndex(JAVA_LONG, cpu / 64) | (1L << (cpu % 64)));
            return Libc.sched_setaffinity(0, mask.byteSize(), mask); // pid 0: the calling thread
        }
    }

    /** The CPUs the calling thread may run on, ascending. */
    public static int[] allowedCpus() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(JAVA_LONG, MASK_WORDS);
            int errno = Libc.sched_getaffinity(0, mask.byteSize(), mask);
            if (errno != 0) throw new IllegalStateException("sched_getaffinity: " + Libc.strerror(errno));
            return IntStream.range(0, MAX_CPUS)
                    .filter(cpu -> (mask.getAtIndex(JAVA_LONG, cpu / 64) & (1L << (cpu % 64))) != 0)
                    .toArray();
        }
    }

    /** The kernel's cpu-list format: "0-3,8". */
    private static String cpuList(int[] cpus) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < cpus.length; i++) {
            int first = cpus[i];
            while (i + 1 < cpus.length && cpus[i + 1] == cpus[i] + 1) i++;
            if (!out.isEmpty()) out.append(',');
            out.append(first);
            if (cpus[i] != first) out.append('-').append(cpus[i]);
        }
        return out.toString();
    }
}
