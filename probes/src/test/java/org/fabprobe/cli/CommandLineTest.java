package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.fabprobe.ExitCode;
import org.junit.jupiter.api.Test;

/** A run registers only the subcommand it names; help and typos still see every one. */
class CommandLineTest {
    private static final List<String> COMMANDS = List.of("providers", "clock", "pingpong", "bandwidth", "loggp", "plogp",
            "signature", "compare", "collectives", "multipair", "matrix", "accept", "mirror", "secret");

    @Test
    void helpListsEveryCommand() {
        CliRun run = CliRun.of("--help");
        assertEquals(ExitCode.OK, run.exitCode(), run::toString);
        for (String command : COMMANDS) assertTrue(run.out().contains("  " + command + " "), command + "\n" + run);
        assertTrue(run.out().contains("  help "), run::toString);
    }

    @Test
    void aCommandAloneHasItsOwnHelp() {
        CliRun run = CliRun.of("pingpong", "--help");
        assertEquals(ExitCode.OK, run.exitCode(), run::toString);
        assertTrue(run.out().contains("Usage: fabprobe pingpong"), run::toString);
        CliRun viaHelp = CliRun.of("help", "plogp");
        assertEquals(ExitCode.OK, viaHelp.exitCode(), viaHelp::toString);
        assertTrue(viaHelp.out().contains("Usage: fabprobe plogp"), viaHelp::toString);
    }

    @Test
    void anUnknownCommandIsOneLineWithASuggestion() {
        CliRun run = CliRun.of("pingpnog", "-s", "8");
        assertEquals(ExitCode.USAGE, run.exitCode(), run::toString);
        assertEquals("fabprobe: unknown command 'pingpnog' (did you mean 'pingpong'? see 'fabprobe --help')", run.err().strip(),
                run::toString);
        assertEquals("", run.out(), run::toString);
    }

    @Test
    void anUnknownOptionIsOneLineWithAHint() {
        CliRun plain = CliRun.of("pingpong", "--foo");
        assertEquals(ExitCode.USAGE, plain.exitCode(), plain::toString);
        assertEquals("fabprobe: unknown option '--foo' (see 'fabprobe pingpong --help')", plain.err().strip(), plain::toString);
        assertEquals("", plain.out(), plain::toString);
        CliRun typo = CliRun.of("pingpong", "-s", "8", "--jsn", "x.json");
        assertEquals(ExitCode.USAGE, typo.exitCode(), typo::toString);
        assertEquals("fabprobe: unknown option '--jsn' (did you mean '--json'? see 'fabprobe pingpong --help')",
                typo.err().strip(), typo::toString);
        CliRun top = CliRun.of("--foo");
        assertEquals("fabprobe: unknown option '--foo' (see 'fabprobe --help')", top.err().strip(), top::toString);
    }

    @Test
    void otherParseErrorsAreOneLineToo() {
        CliRun run = CliRun.of("pingpong", "-n", "many");
        assertEquals(ExitCode.USAGE, run.exitCode(), run::toString);
        assertEquals("fabprobe: invalid value for option '--reps': 'many' is not an int (see 'fabprobe pingpong --help')",
                run.err().strip(), run::toString);
    }

    @Test
    void aBareCommandLineShowsTheUsage() {
        CliRun run = CliRun.of();
        assertEquals(ExitCode.USAGE, run.exitCode(), run::toString);
        assertTrue(run.err().contains("Usage: fabprobe"), run::toString);
    }

    @Test
    void theCommandModelIsBuiltForTheNamedCommandOnly() {
        assertEquals(List.of("pingpong"), List.copyOf(Main.commandLine("pingpong", "-s", "8").getSubcommands().keySet()));
        assertTrue(Main.commandLine("--version").getSubcommands().keySet().containsAll(COMMANDS));
    }
}
