package org.fabprobe.report;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.fabprobe.api.MethodAnalysis;
import org.fabprobe.api.MethodDocuments;
import org.fabprobe.method.LogGPMethod;
import org.fabprobe.method.MethodFlags;
import org.fabprobe.method.PLogPMethod;
import org.fabprobe.method.Sampler.Sampled;
import org.fabprobe.method.SignatureMethod;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.ParameterSet;
import org.fabprobe.result.MethodSettings;

/**
 * The LogP methods' results as a terminal table (µs, 3 decimals: 1 ns) and CSV (one row per
 * size or signature point); their JSON documents are {@link MethodDocuments}'. Every parameter
 * carries its 95 % uncertainty; physically inconsistent parameter sets are listed under "flags".
 */
public final class MethodReport {
    private MethodReport() {}

    // ---- loggp --------------------------------------------------------------------------

    public static String table(MethodAnalysis.Context<?> c, LogGPMethod.Result r) {
        StringBuilder b = header(c, "loggp", "PRTT(n,d,s), n = " + r.messages());
        b.append(String.format(Locale.ROOT, "%10s %20s %20s %20s %20s %9s%n", "size", "PRTT(1,0,s) µs",
                "PRTT(n,0,s) µs", "g+(s-1)G µs", "o µs", "d µs"));
        for (LogGPMethod.SizePrtt p : r.sizes()) {
            b.append(String.format(Locale.ROOT, "%10s %20s %20s %20s %20s %9.3f%n", PingPongReport.human(p.size()),
                    us(p.prtt1().median()), us(p.prttN().median()), us(p.gapAll()), us(p.overhead()), p.delayNs() / 1e3));
        }
        parameters(b, "read".equals(c.run().settings().op())
                ? "LogGP per size range (o is the post's; PRTT(1,0,s) = 2L + o + (s-1)G, so L absorbs half the read's completion):"
                : "LogGP per size range (o is the sender's; L absorbs o_r - o_s):", r.ranges());
        footer(b, c, r.ranges(), r.notes(), MethodDocuments.rangeRtt(r), String.format(Locale.ROOT, "measurement %.1f ms", r.wallMs()));
        return b.toString();
    }

    public static String csv(LogGPMethod.Result r) {
        StringBuilder b = new StringBuilder("size_bytes,prtt_1_0_ns,prtt_n_0_ns,prtt_n_d_ns,delay_ns,gap_all_ns,gap_all_ci95_ns,o_ns,o_ci95_ns\n");
        for (LogGPMethod.SizePrtt p : r.sizes()) {
            row(b, p.size(), p.prtt1().value(), p.prttN().value(), p.prttDelayed().value(), p.delayNs(),
                    p.gapAll().value(), p.gapAll().ci95(), p.overhead().value(), p.overhead().ci95());
        }
        return b.toString();
    }

    // ---- plogp --------------------------------------------------------------------------

    public static String table(MethodAnalysis.Context<?> c, PLogPMethod.Result r) {
        StringBuilder b = header(c, "plogp", "fast parameterized LogP (Kielmann et al.)");
        PLogPMethod.Saturation g0 = r.gap0();
        b.append(String.format(Locale.ROOT, "g(0) %s µs by saturation at n = %d%s;  %s %s%n",
                us(g0.gap()), g0.messages(), g0.saturated() ? "" : " (NOT saturated)", latencyRule(c.run().settings().op()),
                pLogPLatency(r.latency())));
        boolean validated = r.sizes().stream().anyMatch(p -> p.saturatedGap() != null);
        b.append(String.format(Locale.ROOT, "%10s %20s %20s %20s %12s%s %6s  %s%n", "size", "o_s µs", "o_r µs",
                "g(m) µs", "RTT µs", validated ? String.format(Locale.ROOT, " %20s", "g(m) saturated µs") : "",
                "reps", "origin"));
        for (PLogPMethod.SizeParams p : r.sizes()) {
            String saturated = p.saturatedGap() == null ? (validated ? String.format(Locale.ROOT, " %20s", "") : "")
                    : String.format(Locale.ROOT, " %20s", us(p.saturatedGap().gap()));
            b.append(String.format(Locale.ROOT, "%10s %20s %20s %20s %12.3f%s %6d  %s%n", PingPongReport.human(p.size()),
                    us(p.sendOverhead().median()), us(p.recvOverhead().median()), us(p.gap()), p.rtt().value() / 1e3,
                    saturated, p.rtt().summary().count(), p.origin() + (p.stateDependent() ? "  STATE" : "")));
        }
        parameters(b, "read".equals(c.run().settings().op()) ? "LogGP per size range of g(m) (L as above):"
                : "LogGP from parameterized LogP (Table 1), per size range of g(m):", r.loggp());
        double[] ms = r.phasesMs();
        String phases = String.format(Locale.ROOT, "measurement: g(0) %.1f ms, o_s/o_r with implicit g(m) %.1f ms%s",
                ms[0], ms[1], Double.isNaN(ms[2]) ? "" : String.format(Locale.ROOT, ", g(m) by saturation %.1f ms", ms[2]));
        footer(b, c, r.loggp(), r.notes(), range -> r.sizes().getFirst().rtt().value(), phases);
        return b.toString();
    }

    public static String csv(PLogPMethod.Result r) {
        StringBuilder b = new StringBuilder("size_bytes,o_s_ns,o_s_ci95_ns,o_r_ns,o_r_ci95_ns,g_ns,g_ci95_ns,rtt_ns,g_saturated_ns,origin\n");
        for (PLogPMethod.SizeParams p : r.sizes()) {
            row(b, p.size(), p.sendOverhead().value(), p.sendOverhead().median().ci95(), p.recvOverhead().value(),
                    p.recvOverhead().median().ci95(), p.gap().value(), p.gap().ci95(), p.rtt().value(),
                    p.saturatedGap() == null ? Double.NaN : p.saturatedGap().gap().value());
            b.setLength(b.length() - 1);
            b.append(',').append(p.origin()).append('\n');
        }
        return b.toString();
    }

    // ---- signature ----------------------------------------------------------------------

    public static String table(MethodAnalysis.Context<?> c, SignatureMethod.Result r) {
        StringBuilder b = header(c, "signature", "Culler et al.: cost per request vs burst length M, per Delta");
        List<SignatureMethod.Curve> curves = r.curves();
        b.append(String.format(Locale.ROOT, "%8s", "M"));
        for (SignatureMethod.Curve cv : curves) {
            b.append(String.format(Locale.ROOT, " %16s", String.format(Locale.ROOT, "Δ=%.3f µs", cv.delayNs() / 1e3)));
        }
        b.append('\n');
        int[] bursts = curves.getFirst().bursts();
        for (int i = 0; i < bursts.length; i++) {
            b.append(String.format(Locale.ROOT, "%8d", bursts[i]));
            for (SignatureMethod.Curve cv : curves) b.append(String.format(Locale.ROOT, " %16.3f", cv.cost()[i].value() / 1e3));
            b.append('\n');
        }
        b.append(String.format(Locale.ROOT, "%8s", "steady"));
        for (SignatureMethod.Curve cv : curves) b.append(String.format(Locale.ROOT, " %16.3f", cv.steadyState().value() / 1e3));
        b.append(String.format(Locale.ROOT, "%nRTT(0) %s µs%n", us(r.rtt().median())));
        if (!r.bulk().isEmpty()) {
            b.append(String.format(Locale.ROOT, "bulk: %10s %20s %20s%n", "size", "o_s(n) µs", "g(n) µs"));
            for (SignatureMethod.Bulk k : r.bulk()) {
                b.append(String.format(Locale.ROOT, "      %10s %20s %20s%n", PingPongReport.human(k.size()),
                        us(k.sendOverhead().median()), us(k.gap())));
            }
        }
        parameters(b, "LogP read off the signature (0-byte requests):", List.of(r.parameters()));
        footer(b, c, List.of(r.parameters()), r.notes(), range -> r.rtt().value(), String.format(Locale.ROOT, "measurement %.1f ms", r.wallMs()));
        return b.toString();
    }

    public static String csv(SignatureMethod.Result r) {
        StringBuilder b = new StringBuilder("delay_ns,burst,cost_ns,cost_ci95_ns,reps\n");
        for (SignatureMethod.Curve cv : r.curves()) {
            for (int i = 0; i < cv.bursts().length; i++) {
                Sampled s = cv.cost()[i];
                row(b, cv.delayNs(), cv.bursts()[i], s.value(), s.median().ci95(), s.summary().count());
            }
        }
        return b.toString();
    }

    // ---- shared -------------------------------------------------------------------------

    private static StringBuilder header(MethodAnalysis.Context<?> c, String command, String method) {
        var run = c.run();
        String library = run.transportFacts().getOrDefault("library", "");
        MethodSettings settings = run.settings().method();
        String calls = settings.callsDetail();
        if (settings.oSTiming() != null) calls = calls + "; o_s timed by " + settings.oSTiming();
        calls = calls + switch (run.settings().op()) {
            case "write" -> "; op: write (one-sided, write-and-poll: o_s the post call, o_r the target's look until the write is there)";
            case "read" -> "; op: read (one-sided: o_s the post call, o_r completing it once its data has had time to arrive)";
            default -> "";
        };
        return new StringBuilder(String.format(Locale.ROOT, "fabprobe %s  transport %s%s  clock %s  host %s%nmethod: %s; %s%n%s",
                command, run.transport(), library.isEmpty() ? "" : " (" + library + ")", run.clock().source(),
                run.host().hostname() + run.headerNote(), method, settings.sampling(),
                "calls: " + calls + "\n"));
    }

    private static void parameters(StringBuilder b, String title, List<ParameterSet> sets) {
        b.append(title).append('\n');
        b.append(String.format(Locale.ROOT, "  %-21s %18s %18s %18s %18s %20s%n", "range", "L µs", "o_s µs", "o_r µs",
                "g µs", "G ns/B"));
        for (ParameterSet p : sets) {
            String range = p.fromBytes() == p.toBytes() ? PingPongReport.human(p.fromBytes())
                    : PingPongReport.human(p.fromBytes()) + " .. " + PingPongReport.human(p.toBytes());
            b.append(String.format(Locale.ROOT, "  %-21s %18s %18s %18s %18s %20s%n", range, latencyCell(p.latency()),
                    us(p.sendOverhead()), us(p.recvOverhead()), us(p.gap()), perByte(p.gapPerByte())));
        }
        for (ParameterSet p : sets) {
            String overlap = ParameterSet.overlapText(p.latency());
            if (overlap == null) continue;
            b.append(String.format(Locale.ROOT, "  L (overlap) %s .. %s: %s; LogGP's L would read %s µs%n",
                    PingPongReport.human(p.fromBytes()), PingPongReport.human(p.toBytes()), overlap, us(p.latency())));
        }
    }

    /** L in the table: its value, or "– (overlap)" where it is negative and a line below names the overlap. */
    public static String latencyCell(Estimate latency) {
        return ParameterSet.overlapText(latency) == null ? us(latency) : "– (overlap)";
    }

    /** How plogp's L follows from the 0 B probes for {@code op} (null: send): a read's round trip holds no message back. */
    public static String latencyRule(String op) {
        return "read".equals(op) ? "L = (RTT(0) - o_s(0) - o_r(0))/2" : "pLogP L = RTT(0)/2 - g(0)";
    }

    /** pLogP's L = RTT(0)/2 - g(0) with its unit, or where g(0) exceeds RTT(0)/2 what that means. */
    public static String pLogPLatency(Estimate latency) {
        if (!(latency.value() < 0)) return us(latency) + " µs";
        return String.format(Locale.ROOT, "– (g(0) > RTT(0)/2 by %.3f µs: the sender's gap holds the one-way time)",
                -latency.value() / 1e3);
    }

    private static void footer(StringBuilder b, MethodAnalysis.Context<?> c, List<ParameterSet> sets, List<String> notes,
                               ToDoubleFunction<ParameterSet> rttNs,
                               String timing) {
        List<String> flags = MethodDocuments.withSharedCpu(c.run(), MethodFlags.of(sets, notes, rttNs));
        b.append("flags: ").append(flags.isEmpty() ? "none (physically consistent)" : String.join("; ", flags)).append('\n');
        for (String n : notes) b.append("note: ").append(n).append('\n');
        b.append(String.format(Locale.ROOT, "%s; JIT warm-up %.1f ms; wall time %.2f s%n", timing, c.warmupMs(), c.wallSeconds()));
    }

    /** "1.234 ± 0.005" in µs; "-" for a value the method does not measure. */
    private static String us(Estimate e) {
        if (Double.isNaN(e.value())) return "-";
        if (Double.isNaN(e.ci95())) return String.format(Locale.ROOT, "%.3f", e.value() / 1e3);
        return String.format(Locale.ROOT, "%.3f ± %.3f", e.value() / 1e3, e.ci95() / 1e3);
    }

    private static String perByte(Estimate e) {
        if (Double.isNaN(e.value())) return "-";
        if (Double.isNaN(e.ci95())) return String.format(Locale.ROOT, "%.5f", e.value());
        return String.format(Locale.ROOT, "%.5f ± %.5f", e.value(), e.ci95());
    }

    private static void row(StringBuilder b, double... values) {
        for (int i = 0; i < values.length; i++) {
            if (i > 0) b.append(',');
            double v = values[i];
            if (!Double.isFinite(v)) continue;
            b.append(v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v));
        }
        b.append('\n');
    }
}
