package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The README's commands work as written: every fabprobe command line in its shell examples
 * names options and values the command takes, and the quick ones run and exit 0.
 */
class ReadmeCommandsTest {
    /** Run for real: quick on this machine, and nothing of them needs a second host, a launcher or a file. */
    private static final List<String> QUICK = List.of("pingpong", "providers", "plogp -t ofi:shm");

    @Test
    void everyReadmeCommandLineParses() throws Exception {
        List<List<String>> lines = commandLines();
        assertTrue(lines.size() >= 15, "too few fabprobe commands found in README.md: " + lines);
        for (List<String> args : lines) {
            try {
                Main.commandLine(args.toArray(String[]::new)).parseArgs(args.toArray(String[]::new));
            } catch (CommandLine.ParameterException e) {
                fail("README: fabprobe " + String.join(" ", args) + ": " + e.getMessage());
            }
        }
    }

    @Test
    void theQuickReadmeCommandsRun() throws Exception {
        List<String> written = commandLines().stream().map(a -> String.join(" ", a)).toList();
        for (String quick : QUICK) {
            assertTrue(written.contains(quick), "README no longer shows 'fabprobe " + quick + "': " + written);
            CliRun run = CliRun.of(quick.split(" "));
            assertEquals(0, run.exitCode(), "fabprobe " + quick + ":\n" + run);
        }
    }

    /** The arguments of every fabprobe command in the README's sh blocks (comments and redirections cut off). */
    static List<List<String>> commandLines() throws Exception {
        String readme = Files.readString(Path.of("../README.md"));
        List<List<String>> found = new ArrayList<>();
        Matcher block = Pattern.compile("```sh\n(.*?)```", Pattern.DOTALL).matcher(readme);
        while (block.find()) {
            for (String line : block.group(1).split("\n")) {
                Matcher command = Pattern.compile("(?:^|\\s)(?:scripts|/opt/fabprobe/bin)/fabprobe\\s+(.*)$").matcher(line);
                if (!command.find()) continue;
                String args = command.group(1).replaceAll("\\s+#.*$", "").replaceAll("\\s*>.*$", "").strip();
                found.add(split(args));
            }
        }
        return found;
    }

    /** Shell words: blanks separate, single quotes group. */
    private static List<String> split(String text) {
        List<String> words = new ArrayList<>();
        Matcher m = Pattern.compile("'([^']*)'|(\\S+)").matcher(text);
        while (m.find()) words.add(m.group(1) != null ? m.group(1) : m.group(2));
        return words;
    }
}
