package org.fabprobe.report;

import java.util.Locale;
import org.fabprobe.api.BandwidthAnalysis;
import org.fabprobe.result.BandwidthDocument;

/** A streaming-bandwidth sweep as a terminal table, JSON (schema fabprobe.bandwidth/3) and CSV. */
public final class StreamReport {
    private StreamReport() {}

    public static String table(BandwidthAnalysis.Result result) {
        BandwidthDocument run = result.document();
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "fabprobe bandwidth  %s%s (%s %s)  clock %s  host %s%s%n", opLabel(run), run.transport(),
                run.transportFacts().getOrDefault("provider", run.transportFacts().getOrDefault("tls", "")),
                run.transportFacts().getOrDefault("library", ""), run.clock().source(),
                run.host().hostname(), result.headerNote()));
        b.append(String.format(Locale.ROOT, "%10s %7s %7s %14s %14s %12s %14s%n", "size", "window", "windows",
                "min window µs", "med window µs", "MB/s", "msg/s"));
        for (BandwidthDocument.Size p : run.sizes()) {
            b.append(String.format(Locale.ROOT, "%10s %7d %7d %14.3f %14.3f %12.1f %14.0f%s%n",
                    PingPongReport.human(p.sizeBytes()), p.window(), p.windowNs().count(), p.windowNs().min() / 1e3,
                    p.windowNs().median() / 1e3, p.bandwidthMbS(), p.messageRate(), rowNote(p)));
        }
        for (String flag : run.flags()) b.append("flag: ").append(flag).append('\n');
        b.append(String.format(Locale.ROOT, "wall time %.2f s%n", run.header().wallSeconds()));
        return b.toString();
    }

    /** A disturbed or stalled size's row says so, and how often it was measured. */
    private static String rowNote(BandwidthDocument.Size p) {
        String times = p.remeasured() == 0 ? "" : "measured " + (p.remeasured() + 1) + " times";
        if (p.disturbed()) return (p.stalled() ? "  STALL" : "  DISTURBED") + (times.isEmpty() ? "" : ", " + times);
        return times.isEmpty() ? "" : "  " + times + ", the last undisturbed";
    }

    /** "op write  transport " for one-sided runs, nothing for send (the title as it always was). */
    private static String opLabel(BandwidthDocument run) {
        BandwidthDocument.Settings s = run.header().settings();
        return s.op() != null && !s.op().equals("send")
                ? "op " + s.op() + "  transport " : "";
    }

    public static String csv(BandwidthDocument document) {
        StringBuilder b = new StringBuilder("size_bytes,window,windows,min_window_ns,median_window_ns,bandwidth_mb_s,message_rate\n");
        for (BandwidthDocument.Size p : document.sizes()) {
            b.append(String.format(Locale.ROOT, "%d,%d,%d,%.1f,%.1f,%.3f,%.1f%n", p.sizeBytes(), p.window(),
                    p.windowNs().count(), p.windowNs().min(), p.windowNs().median(), p.bandwidthMbS(), p.messageRate()));
        }
        return b.toString();
    }
}
