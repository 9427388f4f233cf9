package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.fabprobe.ExitCode;
import org.fabprobe.runtime.ThisJvm;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kill -9 of either side, as a batch scheduler does at a time limit: the survivor says in
 * words that its peer went away, exits with 5, and /dev/shm and /tmp are left as they were.
 */
class KilledPeerTest {
    private static final String SIM = "sim:L=1us,os=0.2us,or=0.2us,g=1us,G=0.1ns/B";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"ofi:shm", "ucx:posix", SIM})
    void measureKilled(String transport) throws Exception {
        Process measure = longRun(transport);
        try {
            ProcessHandle mirror = awaitMirror(measure, transport);
            measure.destroyForcibly().waitFor(); // SIGKILL
            assertNotNull(mirror.onExit().get(60, TimeUnit.SECONDS));
            String err = Files.readString(dir.resolve("stderr")); // the mirror writes where measure did
            assertTrue(err.contains("the measure process at 127.0.0.1:") && err.contains("went away during"), err);
            assertNoShmOf(measure.pid(), mirror.pid());
            assertNothingIn(dir.resolve("tmp"));
        } finally {
            measure.descendants().forEach(ProcessHandle::destroyForcibly);
            measure.destroyForcibly();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ofi:shm", "ucx:posix", SIM})
    void mirrorKilled(String transport) throws Exception {
        Process measure = longRun(transport);
        try {
            ProcessHandle mirror = awaitMirror(measure, transport);
            mirror.destroyForcibly();
            assertTrue(measure.waitFor(90, TimeUnit.SECONDS), "measure still running");
            String err = Files.readString(dir.resolve("stderr"));
            assertEquals(ExitCode.PEER_TIMEOUT, measure.exitValue(), err);
            assertTrue(err.contains("the mirror process went away"), err);
            assertNoShmOf(measure.pid(), mirror.pid());
            assertNothingIn(dir.resolve("tmp"));
        } finally {
            measure.descendants().forEach(ProcessHandle::destroyForcibly);
            measure.destroyForcibly();
        }
    }

    /** A long ping-pong; stderr to a file (a pipe would close with the killed process), temp files to an empty folder. */
    private Process longRun(String transport) throws IOException {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        List<String> cmd = new ArrayList<>(ThisJvm.command());
        cmd.add(1, "-Djava.io.tmpdir=" + tmp);
        cmd.addAll(List.of("pingpong", "-t", transport, "-s", "64K", "-n", "5000000", "--timeout", "1s")); // minutes, even on shared memory
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(dir.resolve("stderr").toFile());
        builder.environment().put("TMPDIR", tmp.toString());
        return builder.start();
    }

    private static void assertNothingIn(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            assertEquals(List.of(), files.toList(), "left in the temporary folder");
        }
    }

    /**
     * The measure process's mirror child, once both have the transport open (its library or its
     * shared-memory file mapped) and have had time to reach the timed rounds.
     */
    private ProcessHandle awaitMirror(Process measure, String transport) throws Exception {
        String mapped = transport.startsWith("ucx") ? "libucp.so" : "/dev/shm/fabprobe-";
        long deadline = System.nanoTime() + 90_000_000_000L;
        ProcessHandle child = null;
        while (child == null || !maps(measure.pid(), mapped) || !maps(child.pid(), mapped)) {
            assertTrue(System.nanoTime() < deadline, "no mirror in the measurement: " + Files.readString(dir.resolve("stderr")));
            assertTrue(measure.isAlive(), "measure ended early: " + Files.readString(dir.resolve("stderr")));
            Thread.sleep(50);
            child = measure.children().findFirst().orElse(null);
        }
        Thread.sleep(1000); // into the address exchange, the warm-up or the timed rounds: the survivor must tell either
        return child;
    }

    private static boolean maps(long pid, String what) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "maps")).contains(what);
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean hasShm(long... pids) {
        try (Stream<Path> files = Files.list(Path.of("/dev/shm"))) {
            return files.anyMatch(f -> owned(f, pids));
        } catch (IOException e) {
            return false;
        }
    }

    private static void assertNoShmOf(long... pids) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (hasShm(pids) && System.nanoTime() < deadline) Thread.sleep(100);
        try (Stream<Path> files = Files.list(Path.of("/dev/shm"))) {
            List<Path> left = files.filter(f -> owned(f, pids)).toList();
            assertEquals(List.of(), left, "left in /dev/shm");
        }
    }

    private static boolean owned(Path file, long... pids) {
        String name = file.getFileName().toString();
        for (long pid : pids) {
            if (name.startsWith("fabprobe-" + pid + "-") || name.startsWith("fabprobe-sim-" + pid + "-")
                    || name.startsWith(pid + ":")) return true;
        }
        return false;
    }
}
