package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress line: drawn on stderr only when stderr is a terminal, never with --quiet, and not
 * in the results. A real terminal: util-linux's script(1) runs fabprobe on a pseudo-terminal.
 */
class ProgressTest {
    /** The emulator: fast, and the same on every machine. */
    private static final String SIM = "sim:L=5us,os=1us,or=1.5us,g=4us,G=1ns/B";

    @Test
    void notATerminalNoLine() {
        // under surefire stderr is a pipe (and System.err a buffer): a run of several seconds draws nothing
        CliRun run = CliRun.of("pingpong", "-t", SIM, "-s", "1K..1M", "-n", "100", "--warmup", "10");
        assertEquals(0, run.exitCode(), run::toString);
        assertFalse(run.err().contains("elapsed") || run.out().contains("elapsed"), run::toString);
    }

    @Test
    void pingPongOneLiveLineAndQuietTurnsItOff(@TempDir Path dir) throws Exception {
        // 11 sizes up to 1 MiB at 1 ns/B: the last sizes take ~0.2 s each, well after the first second
        String[] args = {"pingpong", "-t", SIM, "-s", "1K..1M", "-n", "100", "--warmup", "10"};
        String loud = onTerminal(dir, "pingpong", args);
        // at least 11 steps: a disturbed size measured again adds one
        List<Integer> drawn = steps(loud, "pingpong " + Pattern.quote(SIM) + ": round trips at \\d+ [KM]iB", 11);
        assertFalse(drawn.isEmpty(), "no progress line drawn:\n" + loud);
        assertTrue(drawn.getLast() >= 11, "the last size is drawn as 11/11 or later:\n" + loud);
        assertClearedBeforeTable(loud, "Hockney");
        String quiet = onTerminal(dir, "pingpong-quiet", "pingpong", "-t", SIM, "-s", "1K..1M", "-n", "100", "--warmup", "10", "--quiet");
        assertFalse(quiet.contains("round trips at"), quiet);
        assertFalse(quiet.contains("elapsed"), quiet);
        assertTrue(quiet.contains("Hockney"), quiet);
    }

    @Test
    void plogpCountsItsAdaptiveSizes(@TempDir Path dir) throws Exception {
        // a step far above any noise in g(0) (a disturbed g(0) widens the tolerance of the halving to tens of us)
        String out = onTerminal(dir, "plogp", "plogp", "-t", SIM + ";>1K:L=200us", "-s", "0..4K", "--adaptive-limit", "0",
                "--time-cap", "20ms");
        // 1 g(0) + 13 initial sizes (0..4K); the step above 1 KiB adds halved intervals, and the total grows with them
        assertTrue(out.contains("interval halved\r\n") || out.contains("interval halved\n"), "no interval halved:\n" + out);
        List<Integer> drawn = steps(out, "plogp [^\r]*: (g\\(0\\) by saturation|o_s, o_r, g\\(m\\)[^\r]* at \\d+ [KMi]*B)", -1);
        assertTrue(drawn.stream().anyMatch(k -> k > 14), "steps beyond the 14 announced:\n" + out);
        assertTrue(out.contains("interval halved at"), "the halved intervals are steps too:\n" + out);
        assertClearedBeforeTable(out, "o_s µs");
    }

    @Test
    void collectivesOneStepPerLaunch(@TempDir Path dir) throws Exception {
        String loud = onTerminal(dir, "collectives", "collectives", "-t", "mpi:openmpi/ob1:vader", "--procs", "2,3",
                "--ops", "barrier,bcast", "-s", "8..64");
        assertTrue(loud.matches("(?s).*\rcollectives mpi:openmpi/ob1:vader: p = 3 \\(one launch of 3 ranks\\)  2/2  (\\d+ min )?\\d+ s elapsed.*"), loud);
        assertClearedBeforeTable(loud, "wall time");
    }

    @Test
    void overMpiRankZeroDrawsThroughTheLaunchersRelay(@TempDir Path dir) throws Exception {
        // local mode: rank 0's stderr is mpirun's pipe, relayed by the fabprobe that started it
        // the line is drawn from the first second on: 4100 round trips of 2 MiB take ~1.3 s on an idle machine,
        // the sizes before them ~0.7 s (with 2000, a fast machine had begun 2 MiB before the first second)
        String out = onTerminal(dir, "mpi", "pingpong", "-t", "mpi:openmpi/ob1:vader", "-s", "0..2M", "-n", "4000");
        assertTrue(steps(out, "pingpong mpi:openmpi/ob1:vader: round trips at \\d+ [KMi]*B", 23).getLast() >= 23, out);
        assertClearedBeforeTable(out, "Hockney");
    }

    /**
     * The k of every drawn step matching {@code what}, checking "k/total" against the announced
     * total (-1: any); ping-pong's total grows by one for each size it measures again.
     */
    private static List<Integer> steps(String out, String what, int total) {
        Matcher m = Pattern.compile("\r(?:" + what + ")  (?<k>\\d+)/(?<total>\\d+)  (\\d+ min )?\\d+ s elapsed  (~(\\d+ min )?\\d+ s left)?\033\\[K").matcher(out);
        List<Integer> ks = new ArrayList<>();
        while (m.find()) {
            if (total >= 0) assertTrue(Integer.parseInt(m.group("total")) >= total, m.group());
            ks.add(Integer.parseInt(m.group("k")));
        }
        return ks;
    }

    /** The line is cleared ("\r ESC[K") before the table, and nothing of it is left in the table's lines. */
    private static void assertClearedBeforeTable(String out, String tableText) {
        int table = out.indexOf(tableText);
        assertTrue(table >= 0, out);
        int clear = out.lastIndexOf("\r\033[K", table);
        assertTrue(clear >= 0 && out.lastIndexOf("elapsed", table) < clear, "the line is cleared before the table:\n" + out);
        assertFalse(out.substring(table).contains("elapsed"), "no progress after the table began:\n" + out);
    }

    /** Runs fabprobe on a pseudo-terminal (script -c) and returns everything it wrote there. */
    private static String onTerminal(Path dir, String name, String... args) throws Exception {
        Path log = dir.resolve(name + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        StringBuilder command = new StringBuilder("'" + java + "' --enable-native-access=ALL-UNNAMED -cp '"
                + System.getProperty("java.class.path") + "' org.fabprobe.cli.Main");
        for (String a : args) command.append(" '").append(a).append("'");
        Process p = new ProcessBuilder(List.of("script", "-qefc", command.toString(), log.toString()))
                .redirectErrorStream(true).redirectOutput(dir.resolve(name + ".out").toFile()).start();
        try {
            assertTrue(p.waitFor(180, TimeUnit.SECONDS), "did not end");
            String out = Files.readString(log);
            assertEquals(0, p.exitValue(), out);
            return out;
        } finally {
            p.destroyForcibly();
        }
    }
}
