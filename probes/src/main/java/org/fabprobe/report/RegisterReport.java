package org.fabprobe.report;

import java.util.Locale;
import org.fabprobe.result.RegisterDocument;

/** `fabprobe register`'s table, JSON document and CSV. */
public final class RegisterReport {
    private RegisterReport() {}

    public static String table(RegisterDocument run) {
        RegisterDocument.Cache cache = run.registrationCache();
        int repetitions = run.header().settings().repetitions();
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "fabprobe register  %s (%s %s)  clock %s  host %s%n",
                run.transport(), run.transportFacts().getOrDefault("provider", run.transportFacts().getOrDefault("tls", "")),
                run.transportFacts().getOrDefault("library", ""), run.clock().source(), run.host().hostname()));
        b.append("registration cache: ").append(cache.active() ? "active" : "none").append(" (").append(cache.reason()).append(")\n");
        b.append(String.format(Locale.ROOT, "%10s %5s %14s %14s %14s %14s %10s%n", "size", "reps", "first reg µs",
                "re-reg µs", "first dereg µs", "dereg µs", "re-reg p99"));
        for (RegisterDocument.Size s : run.sizes()) {
            b.append(String.format(Locale.ROOT, "%10s %5d %14.2f %14.2f %14.2f %14.2f %10.2f%n",
                    PingPongReport.human(s.sizeBytes()), repetitions, s.firstRegisterNs().median() / 1e3,
                    s.registerNs().median() / 1e3, s.firstDeregisterNs().median() / 1e3, s.deregisterNs().median() / 1e3,
                    s.registerNs().p99() / 1e3));
        }
        b.append(String.format(Locale.ROOT, "medians of %d repetitions; first: fresh never-touched pages (mmap), "
                + "re-reg: the same buffer again; %.1f s%n", repetitions, run.wallSeconds()));
        return b.toString();
    }

    public static String csv(RegisterDocument document) {
        StringBuilder b = new StringBuilder("size_bytes,median_first_register_ns,median_register_ns,median_first_deregister_ns,"
                + "median_deregister_ns,p99_register_ns\n");
        for (RegisterDocument.Size s : document.sizes()) {
            b.append(String.format(Locale.ROOT, "%d,%.1f,%.1f,%.1f,%.1f,%.1f%n", s.sizeBytes(), s.firstRegisterNs().median(),
                    s.registerNs().median(), s.firstDeregisterNs().median(), s.deregisterNs().median(), s.registerNs().p99()));
        }
        return b.toString();
    }
}
