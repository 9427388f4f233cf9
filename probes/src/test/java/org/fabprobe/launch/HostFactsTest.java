package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostFactsTest {
    private static final Path KERNEL_HOSTNAME = Path.of("/proc/sys/kernel/hostname");

    @Test
    void hostnameIsTheKernelsWithoutANameServiceLookup() throws Exception {
        assumeTrue(Files.isReadable(KERNEL_HOSTNAME));
        Map<String, String> facts = HostFacts.collect();
        assertEquals(Files.readString(KERNEL_HOSTNAME).strip(), facts.get("hostname"));
        assertEquals(Integer.toString(Runtime.getRuntime().availableProcessors()), facts.get("cpus"));
    }
}
