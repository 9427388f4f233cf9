package org.fabprobe;

import java.io.PrintStream;
import java.util.Locale;
import org.fabprobe.bindings.libc.Libc;

/**
 * One live progress line on stderr: what is being measured, k of n, elapsed, an estimate of what
 * remains. Only when stderr is a terminal (isatty(2), or a local-mode MPI launch relays it to
 * one: {@link #RELAYED_TO_TERMINAL}) and not --quiet, and only once a run has taken about a
 * second. Drawing is one write to stderr.
 *
 * <p>The command starts the line and hands the {@link Steps} it gets to the measuring code, which
 * reports each step between timed sections. When no line is drawn that is {@link Steps#NONE}.
 */
public final class Progress implements Steps {
    private static final long SHOW_AFTER_NS = 1_000_000_000L;
    /**
     * Set (to 1) by a local-mode MPI launch for its ranks when the launching fabprobe's stderr is a
     * terminal: the ranks' stderr is the launcher's pipe, relayed to that terminal.
     */
    public static final String RELAYED_TO_TERMINAL = "FABPROBE_STDERR_RELAYED_TO_TERMINAL";
    /** The line being drawn, if any, so that the table or an error line can clear it first. */
    private static volatile Progress current;

    private final PrintStream err;
    private final String command;
    private final long start = System.nanoTime();
    private long firstStep;
    private int total;
    private int done;
    private boolean drawn;

    Progress(PrintStream err, String command, int total) {
        this.err = err;
        this.command = command;
        this.total = total;
    }

    /**
     * Starts the line of {@code command} (e.g. "plogp ofi:shm") with {@code total} steps, and returns
     * where to report them: {@link Steps#NONE} unless stderr is a terminal and not {@code quiet}.
     */
    public static Steps start(String command, int total, boolean quiet) {
        boolean terminal = stderrIsTerminal() || "1".equals(System.getenv(RELAYED_TO_TERMINAL));
        Progress p = !quiet && terminal ? new Progress(System.err, command, total) : null;
        current = p;
        return p == null ? Steps.NONE : p;
    }

    /** Ends the line (clears it), before the table or an error line. */
    public static void end() {
        Progress p = current;
        current = null;
        if (p != null) p.clear();
    }

    @Override
    public void next(String what, long bytes) {
        long now = System.nanoTime();
        int k = ++done;
        if (k == 1) firstStep = now;
        if (k > total) total = k;
        if (now - start < SHOW_AFTER_NS) return;
        // the rate of the steps so far (the set-up and JIT warm-up before the first one left out)
        String remaining = k > 1 ? "~" + seconds((double) (now - firstStep) / (k - 1) * (total - k + 1)) + " left" : "";
        String step = bytes < 0 ? what : what + " " + size(bytes);
        draw(line(command, step, k, total, seconds(now - start), remaining));
    }

    private void draw(String line) {
        err.print(line);
        err.flush();
        drawn = true;
    }

    @Override
    public void more(int steps) {
        total += steps;
    }

    @Override
    public void phase(String what) {
        if (System.nanoTime() - start < SHOW_AFTER_NS) return;
        draw(line(command, what, done, total, seconds(System.nanoTime() - start), ""));
    }

    void clear() {
        if (!drawn) return;
        err.print("\r\033[K");
        err.flush();
        drawn = false;
    }

    static String line(String command, String what, int k, int total, String elapsed, String remaining) {
        return String.format(Locale.ROOT, "\r%s: %s  %d/%d  %s elapsed  %s\033[K", command, what, k, total, elapsed, remaining);
    }

    /** 4096 -> "4 KiB", 1536 -> "1536 B": sizes as the tables print them when exact. */
    static String size(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) return (bytes >> 20) + " MiB";
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) return (bytes >> 10) + " KiB";
        return bytes + " B";
    }

    private static String seconds(double ns) {
        double s = ns / 1e9;
        return s < 60 ? String.format(Locale.ROOT, "%.0f s", s) : String.format(Locale.ROOT, "%d min %02d s", (long) s / 60, (long) s % 60);
    }

    /** isatty(2): a terminal, not a file, pipe or an MPI launcher's relay. */
    public static boolean stderrIsTerminal() {
        try {
            return Libc.isatty(2) == 1;
        } catch (Throwable t) {
            return false;
        }
    }
}
