package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.fabprobe.ExitCode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kill -9 of either side, as a batch scheduler does at a time limit: the survivor says in
 * words that its peer went away, exits with 5, and /dev/shm and /tmp are left as they were.
 */
class KilledPeerTest {
    private static final String SIM = "sim:L=1us,os=0.2us,or=0.2us,g=1us,G=0.1ns/B";

    @ParameterizedTest
    @ValueSource(strings = {"ofi:shm", "ucx:posix", SIM})
    void measureKilled(String transport) throws Exception {
        List<String> tmpBefore = tmpEntries();
        try (Spawned measure = longRun(transport)) {
            ProcessHandle mirror = awaitMirror(measure, !transport.startsWith("ucx"));
            long measurePid = measure.process.pid();
            measure.process.destroyForcibly().waitFor(); // SIGKILL
            assertTrue(mirror.onExit().get(60, TimeUnit.SECONDS) != null);
            CliRun run = measure.await(Duration.ofSeconds(10)); // the mirror's stderr is the killed measure's
            assertTrue(run.err().contains("the measure process at 127.0.0.1:") && run.err().contains("went away during"), run.err());
            assertNoShmOf(measurePid, mirror.pid());
        }
        assertEquals(tmpBefore, tmpEntries(), "/tmp changed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ofi:shm", "ucx:posix", SIM})
    void mirrorKilled(String transport) throws Exception {
        List<String> tmpBefore = tmpEntries();
        try (Spawned measure = longRun(transport)) {
            ProcessHandle mirror = awaitMirror(measure, !transport.startsWith("ucx"));
            mirror.destroyForcibly();
            CliRun run = measure.await(Duration.ofSeconds(90));
            assertEquals(ExitCode.PEER_TIMEOUT, run.exitCode(), run.toString());
            assertTrue(run.err().contains("the mirror process went away"), run.err());
            assertNoShmOf(measure.process.pid(), mirror.pid());
        }
        assertEquals(tmpBefore, tmpEntries(), "/tmp changed");
    }

    private static Spawned longRun(String transport) throws IOException {
        return Spawned.start("pingpong", "-t", transport, "-s", "8", "-n", "5000000", "--timeout", "1s");
    }

    /** The measure process's mirror child, once both are in the timed rounds (their shm files exist, where named). */
    private static ProcessHandle awaitMirror(Spawned measure, boolean namedShm) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        ProcessHandle child = null;
        while (child == null || (namedShm && !hasShm(measure.process.pid(), child.pid()))) {
            assertTrue(System.nanoTime() < deadline, "no mirror in the measurement: " + measure.err());
            assertTrue(measure.process.isAlive(), "measure ended early: " + measure.err());
            Thread.sleep(50);
            child = measure.process.children().findFirst().orElse(null);
        }
        Thread.sleep(3000); // set-up done, JIT warm-up under way or over
        return child;
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

    private static List<String> tmpEntries() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("fabprobe")).sorted().toList();
        }
    }
}
