package org.fabprobe.cli;

import java.io.OutputStream;
import java.io.PrintStream;

/**
 * The training run for the JDK's AOT cache (JDK 24+, made by scripts/make-dist with
 * {@code -XX:AOTMode=record}): the commands users start most, each short, one after the other
 * in one JVM, so that the cache holds their classes loaded and linked and, from JDK 25, their
 * method profiles. A later run started with {@code -XX:AOTCache} skips that work; measure hands
 * the flag on to its mirror. Not a user command: started as a main class of the jar.
 */
public final class AotTraining {
    /** Short runs over the paths of the default transport's commands; kept few: the build waits for them. */
    static final String[][] RUNS = {
            {"pingpong", "-t", "ofi:shm", "-s", "0,8,64K", "-n", "100", "--json", "/dev/null"},
            {"plogp", "-t", "ofi:shm", "-s", "0..1K", "--adaptive-limit", "1K", "--time-cap", "10ms",
                    "--max-reps", "200", "--json", "/dev/null"},
            {"providers"},
            {"--version"}, // the path of help and usage: every command's model and picocli's help command
    };

    private AotTraining() {}

    public static void main(String[] args) {
        PrintStream err = System.err;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        for (String[] run : RUNS) {
            long start = System.nanoTime();
            int code = Main.run(run);
            if (Boolean.getBoolean("fabprobe.debug")) err.printf("%s: %.2f s%n", String.join(" ", run), (System.nanoTime() - start) / 1e9);
            // a transport missing on the build host only leaves its classes out of the cache
            if (code != 0) err.println("fabprobe AOT training: '" + String.join(" ", run) + "' exited with " + code);
        }
        System.exit(0);
    }
}
