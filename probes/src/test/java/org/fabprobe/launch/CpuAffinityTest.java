package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.stream.IntStream;
import org.fabprobe.runtime.CpuAffinity;
import org.junit.jupiter.api.Test;

/** Pinning runs on throwaway threads, so the test runner's own thread stays unpinned. */
class CpuAffinityTest {
    @Test
    void pinsToAnAllowedCpu() throws InterruptedException {
        int[] allowed = CpuAffinity.allowedCpus();
        assertTrue(allowed.length >= 1);
        int target = allowed[allowed.length - 1];
        int[][] seen = new int[2][];
        assertNull(onFreshThread(() -> {
            try (CpuAffinity.Pinned pinned = CpuAffinity.pinCurrentThread(target)) {
                seen[0] = CpuAffinity.allowedCpus();
            }
            seen[1] = CpuAffinity.allowedCpus();
        }));
        assertArrayEquals(new int[] {target}, seen[0]);
        assertArrayEquals(allowed, seen[1], "closing gives the thread back the CPUs it had");
        assertArrayEquals(allowed, CpuAffinity.allowedCpus(), "only the pinned thread changed");
    }

    @Test
    void cpuBeyondACpuSetIsRefusedClearly() throws InterruptedException {
        Throwable e = onFreshThread(() -> CpuAffinity.pinCurrentThread(100_000));
        assertInstanceOf(IllegalArgumentException.class, e);
        assertTrue(e.getMessage().startsWith("cannot pin to CPU 100000: "), e.getMessage());
        assertTrue(e.getMessage().contains("(allowed: "), e.getMessage());
        assertInstanceOf(IllegalArgumentException.class, onFreshThread(() -> CpuAffinity.pinCurrentThread(-1)));
    }

    @Test
    void cpuThisMachineLacksGetsTheKernelsReason() throws InterruptedException {
        assumeFalse(IntStream.of(CpuAffinity.allowedCpus()).anyMatch(cpu -> cpu == 1023));
        Throwable e = onFreshThread(() -> CpuAffinity.pinCurrentThread(1023));
        assertInstanceOf(IllegalArgumentException.class, e);
        assertTrue(e.getMessage().startsWith("cannot pin to CPU 1023: Invalid argument (allowed: "), e.getMessage());
    }

    /** Runs {@code action} on a new thread; returns what it threw, or null. */
    private static Throwable onFreshThread(Runnable action) throws InterruptedException {
        Throwable[] thrown = new Throwable[1];
        Thread t = new Thread(() -> {
            try {
                action.run();
            } catch (Throwable e) {
                thrown[0] = e;
            }
        });
        t.start();
        t.join();
        return thrown[0];
    }
}
