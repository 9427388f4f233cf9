package org.fabprobe.runtime;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A thread that shares one CPU with two other spinning threads waits for it most of the time, and CpuWait says so. */
class CpuWaitTest {
    @Test
    void aThreadSharingItsCpuIsNamedAsWaitingForIt() throws Exception {
        int cpu = CpuAffinity.allowedCpus()[0];
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger watched = new AtomicInteger(-1);
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            boolean isWatched = i == 0;
            spinners.add(Thread.ofPlatform().start(() -> {
                try (CpuAffinity.Pinned pinned = CpuAffinity.pinCurrentThread(cpu)) {
                    if (isWatched) watched.set(ThreadIds.current());
                    while (!stop.get()) Thread.onSpinWait();
                }
            }));
        }
        try {
            while (watched.get() < 0) Thread.sleep(10);
            CpuWait.reset();
            for (int i = 0; i < 16; i++) {
                CpuWait.sample(watched.get());
                Thread.sleep(100);
            }
            // three spinners on one CPU: each waits about two thirds of the time (half is the threshold)
            assertTrue(CpuWait.lastMs(1500) > 500, "waited only " + CpuWait.lastMs(1500) + " ms of 1.5 s");
            String words = CpuWait.explains(1500);
            assertNotNull(words);
            assertTrue(words.contains("the host is oversubscribed"), words);
        } finally {
            stop.set(true);
            for (Thread t : spinners) t.join();
        }
    }

    @Test
    void aThreadThatSleepsHasNotWaitedForACpu() throws Exception {
        int me = ThreadIds.current();
        CpuWait.reset();
        for (int i = 0; i < 6; i++) {
            CpuWait.sample(me);
            Thread.sleep(50);
        }
        assertNull(CpuWait.explains(250), "a sleeping thread counted as starved: " + CpuWait.lastMs(250) + " ms");
    }
}
