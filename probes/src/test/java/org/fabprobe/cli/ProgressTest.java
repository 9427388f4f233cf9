package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress line: drawn on stderr only when stderr is a terminal, never with --quiet, and not
 * in the results. A real terminal: util-linux's script(1) runs fabprobe on a pseudo-terminal.
 */
class ProgressTest {
    private static final String SIM = "sim:L=5us,os=1us,or=1.5us,g=4us,G=1ns/B";

    @Test
    void notATerminalNoLine() {
        CliRun run = CliRun.of("collectives", "-t", "mpi:openmpi/ob1:vader", "--procs", "2,3", "--ops", "barrier", "-s", "8");
        assertEquals(0, run.exitCode(), run::toString);
        assertFalse(run.err().contains("elapsed") || run.out().contains("elapsed"), run::toString);
    }

    @Test
    void onATerminalOneLiveLineAndQuietTurnsItOff(@TempDir Path dir) throws Exception {
        String loud = onTerminal(dir, "loud", false);
        assertTrue(loud.matches("(?s).*\rcollectives mpi:openmpi/ob1:vader: p = 3 \\(one launch of 3 ranks\\)  2/2  \\d+ s elapsed.*"), loud);
        assertTrue(loud.contains("\r\033[K"), "the line is cleared before the table:\n" + loud);
        assertTrue(loud.contains("wall time"), loud);
        String quiet = onTerminal(dir, "quiet", true);
        assertFalse(quiet.contains("elapsed"), quiet);
        assertTrue(quiet.contains("wall time"), quiet);
    }

    private static String onTerminal(Path dir, String name, boolean quiet) throws Exception {
        Path log = dir.resolve(name + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String command = "'" + java + "' --enable-native-access=ALL-UNNAMED -cp '" + System.getProperty("java.class.path")
                + "' org.fabprobe.cli.Main collectives -t mpi:openmpi/ob1:vader --procs 2,3 --ops barrier,bcast -s 8..64"
                + (quiet ? " --quiet" : "");
        Process p = new ProcessBuilder(List.of("script", "-qefc", command, log.toString()))
                .redirectErrorStream(true).redirectOutput(dir.resolve(name + ".out").toFile()).start();
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "did not end");
            String out = Files.readString(log);
            assertEquals(0, p.exitValue(), out);
            return out;
        } finally {
            p.destroyForcibly();
        }
    }
}
