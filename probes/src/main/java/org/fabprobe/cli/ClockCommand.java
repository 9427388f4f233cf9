package org.fabprobe.cli;

import java.util.Locale;
import java.util.concurrent.Callable;
import org.fabprobe.clock.Clock;
import org.fabprobe.clock.ClockFacts;
import org.fabprobe.result.ResultJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** `fabprobe clock`: which clock fabprobe times with, and how good it is (PARKBENCH TICK1/TICK2). */
@Command(name = "clock", mixinStandardHelpOptions = true,
        description = "Shows the clock used for timing (TSC, or the CLOCK_MONOTONIC fallback and why), "
                + "its tick rate, read cost and resolution (TICK1) and drift (TICK2).")
final class ClockCommand implements Callable<Integer> {
    @Option(names = "--json", description = "Print the facts as one JSON object (the \"clock\" object of a report).")
    boolean json;

    @Override
    public Integer call() {
        ClockFacts f = Clock.facts();
        System.out.print(json ? ResultJson.write(f) : table(f));
        return 0;
    }

    private static String table(ClockFacts f) {
        boolean tsc = f.fallbackReason().isEmpty();
        return row("source", f.source(), tsc ? "rdtsc from a mapped page" : f.fallbackReason())
                + row("tick rate", format("%.6f GHz", f.ticksPerNs()), tsc
                        ? format("calibrated against CLOCK_MONOTONIC in %.1f ms", f.calibrationMs())
                        : "System.nanoTime counts ns")
                + row("TSC", f.constantTsc() && f.nonstopTsc() ? "invariant" : "not invariant",
                        format("constant_tsc=%s nonstop_tsc=%s", f.constantTsc(), f.nonstopTsc()))
                + row("read cost", format("%.2f ns", f.readCostNs()), "TICK1: mean step of back-to-back reads, the longest 5 % left out")
                + row("resolution", format("%.2f ns", f.resolutionNs()), "TICK1: the step the clock advances by")
                + row("TICK2", format("%+.1f ppm", f.tick2ErrorPpm()), "0.1 s timed by this clock vs CLOCK_MONOTONIC");
    }

    private static String row(String name, String value, String note) {
        return format("%-11s %-14s %s%n", name, value, note);
    }

    private static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
