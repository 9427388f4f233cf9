package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A signal mid-run: both processes stop, say so, and leave no shared-memory regions behind.
 * Over ofi:tcp too, in the middle of 1 MiB transfers, where libfabric's rxm/tcp endpoint
 * could crash in fi_close (see launch.Session.Opened).
 */
class InterruptTest {

    @ParameterizedTest
    @ValueSource(strings = {"ofi:shm", "ofi:tcp"})
    void terminationSignalStopsMeasureAndMirrorCleanly(String transport, @TempDir Path dir) throws Exception {
        Path log = dir.resolve("measure.log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process measure = new ProcessBuilder(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), "org.fabprobe.cli.Main",
                "pingpong", "-t", transport, "-s", "1M", "-n", "10000000"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            ProcessHandle mirror = awaitTimingLoop(measure, log); // a fixed second was not enough on a loaded CI machine
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

    /**
     * A script's background job starts with SIGINT ignored, and HotSpot then installs no handler
     * for it: {@code kill -INT} stopped ofi:shm runs (libfabric's shm provider has a handler of its
     * own) but not ucx: or tcp runs. Started here with SIGINT ignored, as such a job is.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ucx:tcp", "ofi:tcp"})
    void interruptStopsARunStartedWithItIgnored(String transport, @TempDir Path dir) throws Exception {
        Path log = dir.resolve("measure.log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        String command = String.join(" ", List.of("trap '' INT; exec", java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", "\"$FABPROBE_CP\"", "org.fabprobe.cli.Main", "pingpong", "-t", transport, "-s", "1M", "-n", "10000000"));
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("FABPROBE_CP", System.getProperty("java.class.path"));
        Process measure = builder.start();
        try {
            ProcessHandle mirror = awaitTimingLoop(measure, log);
            assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(measure.pid())).start().waitFor());
            assertTrue(measure.waitFor(20, TimeUnit.SECONDS), "measure did not stop on SIGINT: " + Files.readString(log));
            String out = Files.readString(log);
            assertEquals(130, measure.exitValue(), out);
            assertTrue(out.contains("fabprobe: interrupted"), out);
            assertTrue(mirror.onExit().get(20, TimeUnit.SECONDS) != null);
            assertFalse(mirror.isAlive());
        } finally {
            measure.destroyForcibly();
        }
    }

    private static ProcessHandle awaitTimingLoop(Process measure, Path log) throws Exception {
        return TimingLoops.awaitMirror(measure.toHandle(), () -> {
            try {
                return Files.readString(log);
            } catch (java.io.IOException e) {
                return "(no log: " + e.getMessage() + ")";
            }
        });
    }

    private static List<String> shmRegionsOf(long pid) throws java.io.IOException {
        Path shm = Path.of("/dev/shm");
        if (!Files.isDirectory(shm)) return List.of();
        try (var files = Files.list(shm)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("fabprobe-" + pid + "-")).toList();
        }
    }
}
