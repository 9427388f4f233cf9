package org.fabprobe.pattern;

import java.util.ArrayList;
import java.util.List;
import org.fabprobe.runtime.CompilerThreads;
import org.fabprobe.runtime.CpuAffinity;
import org.fabprobe.runtime.IdlePriority;

/**
 * A JVM of its own for CompilerThreadsTest: spinners on every CPU, then hot methods in a
 * thread that compiles them itself. It lives beside the timing code, outside the runtime
 * package, so the launchers' directives treat its methods as they treat a probe's (compiled
 * in the calling thread), not as the guard's (compiled in the background).
 */
public final class StarvedCompileChild {
    private static volatile boolean stop;
    private static long sink;

    public static void main(String[] args) throws Exception {
        if (!IdlePriority.restorable()) {
            System.out.println("not restorable");
            return;
        }
        List<Thread> spinners = new ArrayList<>();
        for (int cpu : CpuAffinity.allowedCpus()) {
            spinners.add(Thread.ofPlatform().daemon().start(() -> {
                try (var pinned = CpuAffinity.pinCurrentThread(cpu)) {
                    while (!stop) Thread.onSpinWait();
                }
            }));
        }
        boolean restored;
        try (CompilerThreads.Lowered lowered = CompilerThreads.lower()) {
            long end = System.nanoTime() + 60_000_000_000L; // a bound far beyond the guard's 200 ms, for a host busy with other work
            while (!lowered.starved() && System.nanoTime() < end) {
                for (int i = 0; i < 200_000; i++) sink += work(i);
            }
            restored = lowered.starved();
        }
        stop = true;
        System.out.println("restored " + restored);
        System.out.println("after " + org.fabprobe.runtime.CompilerThreadsTest.policies());
    }

    private static long work(int i) {
        long x = i;
        for (int k = 0; k < 8; k++) x = x * 31 + (x >>> 7) ^ k;
        return x;
    }
}
