package org.fabprobe.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.fabprobe.api.RunFacts;
import org.fabprobe.model.Summary;
import org.fabprobe.result.BandwidthDocument;

/** A streaming-bandwidth sweep as a terminal table, JSON (schema fabprobe.bandwidth/3) and CSV. */
public final class StreamReport {
    private StreamReport() {}

    /**
     * One size: the time of each window of {@code window} messages.
     *
     * @param bandwidthMBs size * window / median window time, MB/s (10^6 B/s)
     * @param messageRate  window / median window time, messages per second
     * @param disturbed    its timing threads were preempted in too many of its windows
     */
    public record Point(long sizeBytes, int window, Summary windowNs, double bandwidthMBs, double messageRate, boolean disturbed,
                        int remeasured, double gapMs, boolean stalled) {}

    public static String table(RunFacts<?> run, List<Point> points, double wallSeconds) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "fabprobe bandwidth  %s%s (%s %s)  clock %s  host %s%s%n", opLabel(run), run.transport(),
                run.transportFacts().getOrDefault("provider", run.transportFacts().getOrDefault("tls", "")),
                run.transportFacts().getOrDefault("library", ""), run.clock().source(),
                run.host().hostname(), run.headerNote()));
        b.append(String.format(Locale.ROOT, "%10s %7s %7s %14s %14s %12s %14s%n", "size", "window", "windows",
                "min window µs", "med window µs", "MB/s", "msg/s"));
        for (Point p : points) {
            b.append(String.format(Locale.ROOT, "%10s %7d %7d %14.3f %14.3f %12.1f %14.0f%s%n",
                    PingPongReport.human(p.sizeBytes()), p.window(), p.windowNs().count(), p.windowNs().min() / 1e3,
                    p.windowNs().median() / 1e3, p.bandwidthMBs(), p.messageRate(), rowNote(p)));
        }
        for (String flag : flags(run, points)) b.append("flag: ").append(flag).append('\n');
        b.append(String.format(Locale.ROOT, "wall time %.2f s%n", wallSeconds));
        return b.toString();
    }

    /** A disturbed or stalled size's row says so, and how often it was measured. */
    private static String rowNote(Point p) {
        String times = p.remeasured() == 0 ? "" : "measured " + (p.remeasured() + 1) + " times";
        if (p.disturbed()) return (p.stalled() ? "  STALL" : "  DISTURBED") + (times.isEmpty() ? "" : ", " + times);
        return times.isEmpty() ? "" : "  " + times + ", the last undisturbed";
    }

    /** "op write  transport " for one-sided runs, nothing for send (the title as it always was). */
    private static String opLabel(RunFacts<?> run) {
        return run.settings() instanceof BandwidthDocument.Settings s && s.op() != null && !s.op().equals("send")
                ? "op " + s.op() + "  transport " : "";
    }

    public static BandwidthDocument document(RunFacts<BandwidthDocument.Settings> run, List<Point> points, double wallSeconds) {
        List<BandwidthDocument.Size> sizes = new ArrayList<>();
        for (Point p : points) {
            sizes.add(new BandwidthDocument.Size(p.sizeBytes(), p.window(), p.windowNs(), p.bandwidthMBs(), p.messageRate(),
                    p.disturbed(), p.remeasured(), p.gapMs(), p.stalled()));
        }
        return new BandwidthDocument(run.header(BandwidthDocument.SCHEMA, wallSeconds), sizes,
                flags(run, points));
    }

    /** A shared CPU, and the sizes whose windows were disturbed: never printed as if fine. */
    static List<String> flags(RunFacts<?> run, List<Point> points) {
        List<String> flags = new ArrayList<>();
        if (run.sharedCpuFlag() != null) flags.add(run.sharedCpuFlag());
        List<String> stalled = points.stream().filter(p -> p.disturbed() && p.stalled())
                .map(p -> String.format(Locale.ROOT, "%s (%.0f ms unaccounted)", PingPongReport.human(p.sizeBytes()), p.gapMs()))
                .toList();
        if (!stalled.isEmpty()) {
            flags.add("STALL " + String.join(", ", stalled) + ": a window, or wall time no window nor wait for a CPU accounts"
                    + " for, went beyond the stall bound in every measurement (a link outage, a retransmission timeout);"
                    + " bandwidth may read low");
        }
        List<String> disturbed = points.stream().filter(p -> p.disturbed() && !p.stalled())
                .map(p -> PingPongReport.human(p.sizeBytes())).toList();
        if (!disturbed.isEmpty()) {
            flags.add("DISTURBED " + String.join(", ", disturbed) + ": the timing threads were preempted in too many windows"
                    + " (other work on these CPUs, or measure and mirror sharing one); bandwidth may read low");
        }
        return flags;
    }

    public static String csv(List<Point> points) {
        StringBuilder b = new StringBuilder("size_bytes,window,windows,min_window_ns,median_window_ns,bandwidth_mb_s,message_rate\n");
        for (Point p : points) {
            b.append(String.format(Locale.ROOT, "%d,%d,%d,%.1f,%.1f,%.3f,%.1f%n", p.sizeBytes(), p.window(),
                    p.windowNs().count(), p.windowNs().min(), p.windowNs().median(), p.bandwidthMBs(), p.messageRate()));
        }
        return b.toString();
    }
}
