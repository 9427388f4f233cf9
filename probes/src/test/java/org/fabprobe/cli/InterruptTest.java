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
            awaitTimingLoop(mirror); // a fixed second was not enough on a loaded CI machine
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

    /**
     * Waits until the mirror's session thread has spun for 0.3 s of CPU: the transport is open
     * and both halves are in the timing loop (the thread's name is cut to 15 characters).
     */
    private static void awaitTimingLoop(ProcessHandle mirror) throws Exception {
        Path tasks = Path.of("/proc", Long.toString(mirror.pid()), "task");
        for (int i = 0; i < 3000; i++) {
            try (var threads = Files.list(tasks)) {
                for (Path task : threads.toList()) {
                    try {
                        if (!Files.readString(task.resolve("comm")).strip().equals("fabprobe-mirror")) continue;
                        String stat = Files.readString(task.resolve("stat"));
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        if (Long.parseLong(f[11]) + Long.parseLong(f[12]) >= 30) return; // utime + stime, 10 ms ticks
                    } catch (java.io.IOException threadEnded) {
                        // gone between the listing and the read
                    }
                }
            } catch (java.io.IOException mirrorEnded) {
                throw new AssertionError("the mirror ended before it measured");
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the mirror did not reach its timing loop within 60 s");
    }

    private static List<String> shmRegionsOf(long pid) throws java.io.IOException {
        Path shm = Path.of("/dev/shm");
        if (!Files.isDirectory(shm)) return List.of();
        try (var files = Files.list(shm)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("fabprobe-" + pid + "-")).toList();
        }
    }
}
