package org.fabprobe.accept;

import java.util.Locale;
import org.fabprobe.accept.Acceptance.Format;
import org.fabprobe.result.AcceptDocument;

/** The verdict table: per check the measured figure ± its 95 % uncertainty, the reference and its bounds, the verdict. */
public final class AcceptReport {
    private AcceptReport() {}

    public static String table(AcceptDocument d) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "fabprobe accept  %s  (%s)  host %s%n", d.system(), d.spec(), d.host().hostname()));
        if (d.description() != null && !d.description().isBlank()) b.append(d.description().strip()).append('\n');
        int width = Math.max(5, d.checks().stream().mapToInt(c -> c.name().length()).max().orElse(5));
        String row = "%-" + width + "s  %-34s  %-28s  %s%n";
        b.append(String.format(Locale.ROOT, row, "check", "measured ± 95 % (or its interval)", "reference [bounds]", "verdict"));
        for (AcceptDocument.Check c : d.checks()) {
            String measured = Double.isNaN(c.measured()) ? "–" : Format.measured(c.measured(), c.measuredLow(), c.measuredHigh()) + " " + c.unit();
            String reference = Format.number(c.reference()) + " " + c.unit() + " " + Format.bounds(c.lowerBound(), c.upperBound());
            b.append(String.format(Locale.ROOT, row, c.name(), measured, reference, c.verdict()));
        }
        b.append('\n');
        for (AcceptDocument.Check c : d.checks()) {
            if (c.verdict().equals("PASS")) continue;
            b.append(c.verdict()).append(' ').append(c.name()).append(": ").append(c.reason())
                    .append(c.at() == null ? "" : " (" + c.at() + ")").append('\n');
        }
        AcceptDocument.Counts n = d.counts();
        b.append(String.format(Locale.ROOT, "%d checks: %d pass, %d fail, %d inconclusive%s, %d error; %s (%.1f s)%n",
                n.checks(), n.pass(), n.fail(), n.inconclusive(),
                d.inconclusive().equals("pass") ? " (counted as pass)" : "", n.error(),
                d.passed() ? "ACCEPTED" : "NOT ACCEPTED", d.wallSeconds()));
        return b.toString();
    }

    /** The plan (--plan): what would run, which checks each measurement feeds, and the transports not available here. */
    public static String plan(String system, java.util.List<org.fabprobe.accept.Plan.Measurement> plan,
                              java.util.List<Availability.Absent> absent) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "fabprobe accept  %s: %d measurements%n", system, plan.size()));
        for (var m : plan) {
            b.append(String.format(Locale.ROOT, "%s  fabprobe %s%n", m.id(), m.commandLine()));
            for (var c : m.checks()) b.append("      ").append(c.name()).append(" (").append(c.figure().key()).append(")\n");
        }
        if (!absent.isEmpty()) b.append("not available here, so accept refuses the spec:\n");
        for (var a : absent) b.append("  ").append(a.where()).append(": ").append(a.message()).append('\n');
        return b.toString();
    }
}
