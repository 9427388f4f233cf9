package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A signal mid-run: both processes stop, say so, and leave no shared-memory regions behind. */
class InterruptTest {

    @Test
    void terminationSignalStopsMeasureAndMirrorCleanly(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("measure.log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process measure = new ProcessBuilder(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), "org.fabprobe.cli.Main",
                "pingpong", "-t", "ofi:shm", "-s", "1M", "-n", "10000000"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            ProcessHandle mirror = awaitChild(measure.toHandle());
            Thread.sleep(1000); // inside the timing loop by now
            measure.destroy(); // SIGTERM: what a batch system or `kill` sends; Ctrl-C takes the same path
            assertTrue(measure.waitFor(20, TimeUnit.SECONDS), "measure process did not stop");
            String out = Files.readString(log);
            assertEquals(143, measure.exitValue(), out);
            assertTrue(out.contains("fabprobe: interrupted"), out);
            assertTrue(mirror.onExit().get(20, TimeUnit.SECONDS) != null);
            assertFalse(mirror.isAlive());
            assertEquals(List.of(), shmRegionsOf(measure.pid()), "measure left its shm region");
        } finally {
            measure.destroyForcibly();
        }
    }

    private static ProcessHandle awaitChild(ProcessHandle parent) throws InterruptedException {
        for (int i = 0; i < 1500; i++) {
            Optional<ProcessHandle> child = parent.children().findFirst();
            if (child.isPresent()) return child.get();
            Thread.sleep(20);
        }
        throw new AssertionError("no mirror process appeared");
    }

    private static List<String> shmRegionsOf(long pid) throws java.io.IOException {
        Path shm = Path.of("/dev/shm");
        if (!Files.isDirectory(shm)) return List.of();
        try (var files = Files.list(shm)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("fabprobe-" + pid + "-")).toList();
        }
    }
}
