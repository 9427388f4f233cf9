package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.launch.LocalMirror;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The local mirror starts as soon as measure's command line has parsed and passed its checks;
 * these check that a bad command line starts none and that an early start leaves no process behind.
 */
class LocalMirrorStartTest {

    @ParameterizedTest
    @ValueSource(strings = {"--no-such-option", "-s eight", "-s 1M..8", "--timeout soon", "--cpus 0", "-n 0", "-n abc",
            "--calls sometimes", "stray", "-t carrier-pigeon:1"})
    void aBadCommandLineStartsNoMirror(String bad) {
        List<String> args = new ArrayList<>(List.of("pingpong"));
        args.addAll(List.of(bad.split(" ")));
        int before = LocalMirror.started();
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(bad.startsWith("-t") ? ExitCode.UNKNOWN_TRANSPORT : ExitCode.USAGE, run.exitCode(), run::toString);
        assertEquals(before, LocalMirror.started(), () -> "a mirror process was started for a bad command line:\n" + run);
    }

    @Test
    void badOptionsOfTheMethodsStartNoMirror() {
        int before = LocalMirror.started();
        for (String[] args : List.of(new String[] {"bandwidth", "-w", "0"}, new String[] {"loggp", "--messages", "1"},
                new String[] {"plogp", "--ci", "0"}, new String[] {"signature", "--bursts", "2..8"})) {
            CliRun run = CliRun.of(args);
            assertEquals(ExitCode.USAGE, run.exitCode(), run::toString);
        }
        assertEquals(before, LocalMirror.started(), "a mirror process was started for a bad command line");
    }

    @Test
    void aRunClaimsTheMirrorStartedForIt() {
        int before = LocalMirror.started();
        CliRun run = CliRun.of("pingpong", "-t", "ofi:shm", "-s", "8", "-n", "100");
        assertEquals(ExitCode.OK, run.exitCode(), run::toString);
        // one: the counter sees a spawn, and the session met the child started early instead of a second one
        assertEquals(before + 1, LocalMirror.started(), run::toString);
        assertTrue(awaitNoMirrorChild(Duration.ofSeconds(20)), "a mirror process outlived the run");
    }

    @Test
    void aLocalMirrorWhoseMeasureProcessDiedBeforeConnectingEnds() throws Exception {
        // sh starts the child as measure would, prints its pid and exits without connecting, late enough that
        // the child has read its parent's pid even on a loaded host: one orphaned before that cannot tell
        try (Spawned sh = Spawned.start(List.of("sh", "-c", "\"$@\" >/dev/null & echo $!; sleep 4", "sh"), Map.of(),
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
