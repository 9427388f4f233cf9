package org.fabprobe;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.PrintStream;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * One live progress line on stderr: what is being measured, k of n, elapsed, an estimate of what
 * remains. Only when stderr is a terminal (isatty(2)) and not --quiet, and only once a run has
 * taken about a second. The measuring code calls {@link #next} between timed sections (after a
 * size, a curve, a launch), never inside a timing loop; drawing is one write to stderr.
 */
public final class Progress {
    private static final long SHOW_AFTER_NS = 1_000_000_000L;
    private static volatile Progress current;

    private final PrintStream err;
    private final String command;
    private final long start = System.nanoTime();
    private int total;
    private int done;
    private boolean drawn;

    private Progress(PrintStream err, String command, int total) {
        this.err = err;
        this.command = command;
        this.total = total;
    }

    /** Starts the line of {@code command} with {@code total} steps; inactive unless stderr is a terminal and not quiet. */
    public static void start(String command, int total, boolean quiet) {
        current = !quiet && stderrIsTerminal() ? new Progress(System.err, command, total) : null;
    }

    /** The next step, {@code what} (e.g. "o_s, o_r, g(m) at 4 KiB"), is about to be measured. */
    public static void next(String what) {
        Progress p = current;
        if (p != null) p.step(what);
    }

    /**
     * The next message size is about to be measured. Called from the measure loops between sizes:
     * nothing is allocated or formatted unless the line is drawn (a string built there moved the
     * emulator's ping-pong t0 by microseconds in SimEndToEndTest).
     */
    public static void nextSize(long bytes) {
        Progress p = current;
        if (p != null) p.step(bytes + " B");
    }

    /** Ends the line (clears it). */
    public static void end() {
        Progress p = current;
        current = null;
        if (p != null && p.drawn) {
            p.err.print("\r\033[K");
            p.err.flush();
        }
    }

    private void step(String what) {
        long elapsed = System.nanoTime() - start;
        int k = ++done;
        if (k > total) total = k; // adaptive methods add steps as they go
        if (elapsed < SHOW_AFTER_NS) return;
        String remaining = k > 1 ? "~" + seconds((double) elapsed / (k - 1) * (total - k + 1)) + " left" : "";
        err.print(line(command, what, k, total, seconds(elapsed), remaining));
        err.flush();
        drawn = true;
    }

    static String line(String command, String what, int k, int total, String elapsed, String remaining) {
        return String.format(Locale.ROOT, "\r%s: %s  %d/%d  %s elapsed  %s\033[K", command, what, k, total, elapsed, remaining);
    }

    private static String seconds(double ns) {
        double s = ns / 1e9;
        return s < 60 ? String.format(Locale.ROOT, "%.0f s", s) : String.format(Locale.ROOT, "%d min %02d s", (long) s / 60, (long) s % 60);
    }

    /** isatty(2): a terminal, not a file, pipe or an MPI launcher's relay. */
    static boolean stderrIsTerminal() {
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle isatty = linker.downcallHandle(linker.defaultLookup().find("isatty").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, JAVA_INT));
            return (int) isatty.invokeExact(2) == 1;
        } catch (Throwable t) {
            return false;
        }
    }
}
