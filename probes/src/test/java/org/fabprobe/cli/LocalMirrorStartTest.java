package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.junit.jupiter.api.Test;

/**
 * The local mirror starts before measure has parsed its command line; these check that an
 * early start never leaves a process behind.
 */
class LocalMirrorStartTest {

    @Test
    void aMirrorStartedForACommandLineThatFailsIsEnded() throws Exception {
        CliRun run = CliRun.of("pingpong", "-t", "ofi:shm", "-s", "8", "--no-such-option");
        assertEquals(ExitCode.USAGE, run.exitCode(), run::toString);
        assertTrue(awaitNoMirrorChild(Duration.ofSeconds(20)), "a mirror process outlived the run");
    }

    @Test
    void aRunClaimsTheMirrorStartedForIt() {
        CliRun run = CliRun.of("pingpong", "-t", "ofi:shm", "-s", "8", "-n", "100");
        assertEquals(ExitCode.OK, run.exitCode(), run::toString);
        assertTrue(awaitNoMirrorChild(Duration.ofSeconds(20)), "a mirror process outlived the run");
    }

    @Test
    void aLocalMirrorWhoseMeasureProcessDiedBeforeConnectingEnds() throws Exception {
        // sh starts the child as measure would, prints its pid and exits a second later without connecting
        try (Spawned sh = Spawned.start(List.of("sh", "-c", "\"$@\" >/dev/null & echo $!; sleep 1", "sh"), Map.of(),
                "mirror", "--listen", "127.0.0.1:0", "--once", "--quiet")) {
            assertTrue(sh.awaitOutput("\n", Duration.ofSeconds(10)), "no pid printed");
            long pid = Long.parseLong(sh.out().strip());
            ProcessHandle child = ProcessHandle.of(pid).orElse(null);
            if (child == null) fail("the mirror ended before its parent did");
            try {
                assertNotNull(child.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS));
            } finally {
                child.destroyForcibly();
            }
        }
    }

    private static boolean awaitNoMirrorChild(Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            boolean any = ProcessHandle.current().children().anyMatch(p -> p.isAlive()
                    && p.info().arguments().map(a -> String.join(" ", a).contains("mirror --listen")).orElse(false));
            if (!any) return true;
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }
}
