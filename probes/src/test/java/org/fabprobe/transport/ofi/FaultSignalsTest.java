package org.fabprobe.transport.ofi;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fabprobe.bindings.FaultSignals;
import org.fabprobe.runtime.ThisJvm;
import org.fabprobe.transport.TransportOptions;
import org.junit.jupiter.api.Test;

/**
 * HotSpot keeps its SIGSEGV and SIGBUS handlers when an shm endpoint opens. libfabric's shm
 * provider installs its own in the first fi_endpoint of a process, so this runs in a fresh JVM
 * ({@link #main}); in this one, earlier tests may have opened that endpoint already.
 */
class FaultSignalsTest {
    @Test
    void shmEndpointLeavesTheJvmsFaultHandlersInPlace() throws Exception {
        List<String> cmd = new ArrayList<>(ThisJvm.command());
        cmd.set(cmd.size() - 1, FaultSignalsTest.class.getName()); // this class's main instead of fabprobe's
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe JVM did not end");
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("fault handlers unchanged: true"), out);
    }

    /** Opens one ofi:shm endpoint and says whether SIGSEGV and SIGBUS kept their handlers. */
    public static void main(String[] args) {
        org.fabprobe.bindings.NativeEnvironment.prepare();
        FaultSignals before = FaultSignals.save();
        try (OfiTransport t = OfiTransport.open("ofi:shm", "shm",
                new TransportOptions(4096, 1, Duration.ofSeconds(5), null))) {
            System.out.println("fault handlers unchanged: " + before.unchanged());
        }
    }
}
