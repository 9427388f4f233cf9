package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.fabprobe.ExitCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Output paths that cannot be written are refused before anything is measured; writing leaves no half file. */
class OutputPathTest {
    private static final String SIM = "sim:L=3us,os=1us,or=1us,g=2us";
    /** Round trips of 2 ms each: about a minute and a half if it were measured. */
    private static final String[] SLOW = {"pingpong", "-t", "sim:L=1ms,os=1us,or=1us,g=2us", "-s", "8,16,32,64", "-n", "10000"};

    @Test
    void procPathIsRefusedBeforeMeasuring() {
        long start = System.nanoTime();
        CliRun run = CliRun.of(with(SLOW, "--json", "/proc/x.json"));
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(ExitCode.USAGE, run.exitCode(), run::toString);
        assertTrue(run.err().startsWith("fabprobe: --json /proc/x.json: cannot write there ("), run::toString);
        assertSingleLine(run);
        assertTrue(seconds < 20, "took " + seconds + " s: " + run);
        assertEquals("", run.out(), run::toString);
    }

    @Test
    void csvIntoProcIsRefused() {
        CliRun run = CliRun.of(with(SLOW, "--csv", "/proc/self/x.csv"));
        assertEquals(ExitCode.USAGE, run.exitCode(), run::toString);
        assertSingleLine(run);
    }

    @Test
    void missingDirectoryIsRefusedNotCreated(@TempDir Path dir) {
        Path missing = dir.resolve("nonexistent");
        CliRun run = CliRun.of(with(SLOW, "--json", missing.resolve("dir/x.json").toString()));
        assertEquals(ExitCode.USAGE, run.exitCode(), run::toString);
        assertSingleLine(run);
        assertFalse(Files.exists(missing), "created " + missing);
    }

    @Test
    void directoriesAreRefusedAndKept(@TempDir Path dir) throws Exception {
        Path empty = Files.createDirectory(dir.resolve("empty.png"));
        CliRun run = CliRun.of(with(SLOW, "--plot", empty.toString()));
        assertEquals(ExitCode.USAGE, run.exitCode(), run::toString);
        assertTrue(run.err().contains("it is a directory"), run::toString);
        assertSingleLine(run);
        assertTrue(Files.isDirectory(empty), "the empty directory is gone");

        Path full = Files.createDirectory(dir.resolve("full.svg"));
        Files.writeString(full.resolve("keep.txt"), "keep");
        CliRun nonEmpty = CliRun.of(with(SLOW, "--plot", full.toString()));
        assertEquals(ExitCode.USAGE, nonEmpty.exitCode(), nonEmpty::toString);
        assertSingleLine(nonEmpty);
        assertEquals("keep", Files.readString(full.resolve("keep.txt")));
    }

    @Test
    void diskFullIsOneLineAndAnExitCode() {
        CliRun run = CliRun.of("pingpong", "-t", SIM, "-s", "8", "-n", "20", "--json", "/dev/full");
        assertEquals(ExitCode.OUTPUT_FAILED, run.exitCode(), run::toString);
        assertTrue(run.err().startsWith("fabprobe: writing /dev/full failed ("), run::toString);
        assertSingleLine(run);
    }

    @Test
    void successLeavesOnlyTheOutputs(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("pp.json");
        Files.writeString(json, "old"); // replaced whole
        CliRun run = CliRun.of("pingpong", "-t", SIM, "-s", "8,64", "-n", "20", "--json", json.toString(),
                "--csv", dir.resolve("pp.csv").toString(), "--plot", dir.resolve("pp.png").toString());
        assertEquals(0, run.exitCode(), run::toString);
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("pp.csv", "pp.json", "pp.png"), files.map(f -> f.getFileName().toString()).sorted().toList());
        }
        assertTrue(Files.readString(json).startsWith("{"), "JSON not replaced");
    }

    @Test
    void matrixRefusesBeforeItsRanksStart() {
        long start = System.nanoTime();
        CliRun run = CliRun.of("matrix", "-t", SIM, "--ranks", "4", "-n", "100000000", "--json", "/proc/x.json");
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(ExitCode.USAGE, run.exitCode(), run::toString);
        assertTrue(run.err().startsWith("fabprobe: --json /proc/x.json: cannot write there ("), run::toString);
        assertSingleLine(run);
        assertTrue(seconds < 20, "took " + seconds + " s: " + run);
    }

    @Test
    void acceptRefusesItsJunitPath(@TempDir Path dir) throws Exception {
        Path spec = Files.writeString(dir.resolve("spec.yaml"), "not read: the path is refused first\n");
        CliRun run = CliRun.of("accept", spec.toString(), "--junit", dir.toString());
        assertEquals(ExitCode.USAGE, run.exitCode(), run::toString);
        assertTrue(run.err().startsWith("fabprobe: --junit " + dir + ": cannot write there (it is a directory)"), run::toString);
        assertSingleLine(run);
    }

    private static String[] with(String[] args, String... more) {
        return Stream.concat(Stream.of(args), Stream.of(more)).toArray(String[]::new);
    }

    private static void assertSingleLine(CliRun run) {
        assertEquals(1, run.err().strip().lines().count(), () -> "expected one error line:\n" + run);
        assertFalse(run.err().contains("\tat "), () -> "stack trace printed:\n" + run);
    }
}
