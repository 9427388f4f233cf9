package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Two busy threads per CPU keep a task waiting for a CPU nearly all the time: the host reads busy. */
class HostPressureTest {
    @Test
    void moreSpinningThreadsThanCpusMakeTheHostBusy() throws InterruptedException {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/pressure/cpu")), "the kernel reports no CPU pressure");
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> spinners = new ArrayList<>();
        HostPressure pressure = HostPressure.start();
        for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) {
            spinners.add(Thread.ofPlatform().daemon().start(() -> {
                while (!stop.get()) Thread.onSpinWait();
            }));
        }
        Thread.sleep(2000);
        String busy = pressure.busy();
        stop.set(true);
        for (Thread t : spinners) t.join();
        assertNotNull(busy, "2 spinning threads per CPU for 2 s");
        assertTrue(busy.contains("waited for a CPU"), busy);
    }
}
