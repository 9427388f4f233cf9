package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CpuAffinityTest {
    @Test
    void pinsToAnAllowedCpuAndRestores() throws InterruptedException {
        int[] allowed = CpuAffinity.allowedCpus();
        assertTrue(allowed.length >= 1);
        int target = allowed[allowed.length - 1];
        int[][] seen = new int[1][];
        Thread t = new Thread(() -> { // a throwaway thread, so the test runner's stays unpinned
            CpuAffinity.pinCurrentThread(target);
            seen[0] = CpuAffinity.allowedCpus();
        });
        t.start();
        t.join();
        assertArrayEquals(new int[] {target}, seen[0]);
    }

    @Test
    void impossibleCpusGiveAClearError() {
        IllegalArgumentException far = assertThrows(IllegalArgumentException.class, () -> CpuAffinity.pinCurrentThread(100_000));
        assertTrue(far.getMessage().contains("CPU 100000"), far.getMessage());
        // a CPU inside the mask range that this machine does not have: the kernel says EINVAL
        IllegalArgumentException absent = assertThrows(IllegalArgumentException.class, () -> CpuAffinity.pinCurrentThread(1000));
        assertTrue(absent.getMessage().contains("allowed:"), absent.getMessage());
    }
}
