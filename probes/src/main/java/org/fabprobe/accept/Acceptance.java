package org.fabprobe.accept;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.result.AcceptDocument;
import org.fabprobe.result.Host;
import org.fabprobe.result.ResultJson;

/**
 * Runs a spec's plan, one measurement after another (or takes it from an earlier accept
 * document), reads every check's figure from its measurement and judges it.
 */
public final class Acceptance {
    /** Runs one fabprobe command line in this process and returns its typed document. */
    public interface Runner {
        Result run(List<String> args);

        /** Exit code, the command's document (null unless it succeeded) and the error line it printed, if any. */
        record Result(int exitCode, Object document, String error) {}
    }

    private Acceptance() {}

    /**
     * @param earlier measurements of an earlier accept document by command line (--from): those are not run again
     * @param log     one line per measurement as it starts (stderr)
     */
    public static AcceptDocument run(Spec spec, String specName, List<Plan.Measurement> plan, Runner runner,
                                     Map<String, JsonNode> earlier, boolean inconclusivePasses, String tool, Host host,
                                     PrintStream log) {
        String startedAt = Instant.now().toString();
        long start = System.nanoTime();
        List<AcceptDocument.Measurement> measured = new ArrayList<>();
        List<AcceptDocument.Check> checks = new ArrayList<>();
        int n = 0;
        for (Plan.Measurement m : plan) {
            n++;
            JsonNode reused = earlier.get(m.commandLine());
            AcceptDocument.Measurement record;
            Object fresh = null; // the typed document of a run made now
            if (reused != null) {
                log.printf(Locale.ROOT, "accept: %d/%d from the earlier run: fabprobe %s%n", n, plan.size(), m.commandLine());
                record = new AcceptDocument.Measurement(m.id(), m.command(), m.transport(), m.args(), 0, null, 0, true, reused);
            } else {
                log.printf(Locale.ROOT, "accept: %d/%d measuring: fabprobe %s%n", n, plan.size(), m.commandLine());
                long t0 = System.nanoTime();
                Runner.Result r = runner.run(m.args());
                if (r.exitCode() == ExitCode.INTERRUPTED) throw new FabprobeException(ExitCode.INTERRUPTED, "interrupted");
                double wall = (System.nanoTime() - t0) / 1e9;
                String error = r.exitCode() == 0 ? null : (r.error() == null ? "exit " + r.exitCode() : r.error());
                if (r.exitCode() == 0 && r.document() == null) error = "no result";
                JsonNode document = error == null ? ResultJson.toTree(r.document()) : null;
                record = new AcceptDocument.Measurement(m.id(), m.command(), m.transport(), m.args(), r.exitCode(), error,
                        wall, false, document);
                fresh = error == null ? Figures.typed(m.command(), r.document(), document) : null;
            }
            measured.add(record);
            Object typed = fresh;
            String problem = record.error();
            if (problem == null && typed == null) {
                try {
                    typed = Figures.parse(m.command(), ResultJson.write(record.document()));
                } catch (RuntimeException e) {
                    problem = "unreadable " + m.command() + " document: " + e.getMessage();
                }
            }
            for (Check c : m.checks()) checks.add(judge(c, m, typed, problem));
        }
        // the checks in the spec's order, not the plan's
        List<String> order = spec.checks().stream().map(Check::name).toList();
        checks.sort(java.util.Comparator.comparingInt(c -> order.indexOf(c.name())));
        int pass = count(checks, Verdict.PASS), fail = count(checks, Verdict.FAIL);
        int inconclusive = count(checks, Verdict.INCONCLUSIVE), error = count(checks, Verdict.ERROR);
        boolean passed = fail == 0 && error == 0 && (inconclusive == 0 || inconclusivePasses);
        return new AcceptDocument(AcceptDocument.SCHEMA, tool, specName, spec.system(), spec.description(), host, startedAt,
                (System.nanoTime() - start) / 1e9, inconclusivePasses ? "pass" : "fail", passed,
                new AcceptDocument.Counts(checks.size(), pass, fail, inconclusive, error), measured, checks);
    }

    private static int count(List<AcceptDocument.Check> checks, Verdict v) {
        return (int) checks.stream().filter(c -> c.verdict().equals(v.name())).count();
    }

    /** One check's verdict; {@code problem}: why its measurement gave nothing to read (an ERROR). */
    static AcceptDocument.Check judge(Check c, Plan.Measurement m, Object document, String problem) {
        Units.Unit u = c.unit();
        double lo = c.lowerBound(), hi = c.upperBound();
        double value = Double.NaN, low = Double.NaN, high = Double.NaN;
        String at = null;
        Verdict verdict;
        String reason;
        if (problem != null) {
            verdict = Verdict.ERROR;
            reason = "not measured: fabprobe " + m.command() + " failed: " + problem;
        } else {
            try {
                Figures.Reading r = Figures.read(c, document);
                value = u.fromBase(r.value());
                low = u.fromBase(r.low());
                high = u.fromBase(r.high());
                at = r.at();
                verdict = Verdict.judge(value, low, high, lo, hi);
                reason = reason(verdict, value, low, high, lo, hi, u.name());
            } catch (Figures.Missing e) {
                verdict = Verdict.ERROR;
                reason = "not measured: " + e.getMessage();
            }
        }
        return new AcceptDocument.Check(c.name(), c.figure().key(), c.transport(), new java.util.TreeMap<>(c.options()),
                m.id(), at, u.name(), c.reference(), c.lower(), c.upper(), lo, hi, value, low, high, verdict.name(), reason);
    }

    static String reason(Verdict v, double value, double low, double high, double lo, double hi, String unit) {
        String measured = Format.measured(value, low, high) + " " + unit;
        return switch (v) {
            case PASS -> measured + " lies within " + Format.bounds(lo, hi) + " " + unit;
            case FAIL -> measured + (high < lo ? " is below the lower bound " + Format.number(lo)
                    : " is above the upper bound " + Format.number(hi)) + " " + unit;
            case INCONCLUSIVE -> Double.isNaN(low) || Double.isNaN(high)
                    ? measured + ": no uncertainty, so no verdict against " + Format.bounds(lo, hi) + " " + unit
                    : measured + " straddles the " + (low < lo && lo <= high ? "lower bound " + Format.number(lo)
                    : "upper bound " + Format.number(hi)) + " " + unit;
            case ERROR -> "not measured";
        };
    }

    /** Numbers as the table, the reasons and the JUnit messages print them. */
    public static final class Format {
        private Format() {}

        public static String number(double v) {
            if (Double.isInfinite(v)) return v > 0 ? "inf" : "-inf";
            if (Double.isNaN(v)) return "–";
            if (v == 0) return "0";
            double a = Math.abs(v);
            if (a >= 1e6 || a < 1e-3) return String.format(Locale.ROOT, "%.4g", v);
            String s = String.format(Locale.ROOT, a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : "%.3f", v);
            return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
        }

        public static String plusMinus(double v, double ci) {
            return Double.isNaN(ci) ? number(v) : number(v) + " ± " + number(ci);
        }

        /** value ± half-width where the interval is symmetric, else value (low .. high). */
        public static String measured(double v, double low, double high) {
            if (Double.isNaN(low) || Double.isNaN(high)) return number(v);
            double below = v - low, above = high - v;
            if (Math.abs(below - above) <= 1e-9 * Math.max(Math.abs(below), Math.abs(above))) return plusMinus(v, above);
            return number(v) + " (" + number(low) + " .. " + number(high) + ")";
        }

        public static String bounds(double lo, double hi) {
            return "[" + (Double.isInfinite(lo) ? "-inf" : number(lo)) + ", " + (Double.isInfinite(hi) ? "inf" : number(hi)) + "]";
        }
    }
}
