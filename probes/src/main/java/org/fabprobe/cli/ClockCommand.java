package org.fabprobe.cli;

import java.util.Locale;
import java.util.concurrent.Callable;
import org.fabprobe.clock.Clock;
import org.fabprobe.clock.ClockFacts;
import org.fabprobe.report.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** `fabprobe clock`: which clock fabprobe times with, and how good it is (PARKBENCH TICK1/TICK2). */
@Command(name = "clock", mixinStandardHelpOptions = true,
        description = "Shows the clock used for timing: TSC or fallback, tick rate, read cost, resolution.")
final class ClockCommand implements Callable<Integer> {
    @Option(names = "--json", description = "Print the facts as JSON.")
    boolean json;

    @Override
    public Integer call() {
        ClockFacts f = Clock.facts();
        if (json) {
            System.out.println(Json.write(Json.clock(f)));
            return 0;
        }
        System.out.printf(Locale.ROOT, "source          %s%s%n", f.source(),
                f.fallbackReason().isEmpty() ? "" : " (" + f.fallbackReason() + ")");
        System.out.printf(Locale.ROOT, "tick rate       %.6f GHz (calibrated against CLOCK_MONOTONIC in %.1f ms)%n",
                f.ticksPerNs(), f.calibrationMs());
        System.out.printf(Locale.ROOT, "invariant TSC   constant_tsc=%s nonstop_tsc=%s%n", f.constantTsc(), f.nonstopTsc());
        System.out.printf(Locale.ROOT, "read cost       %.2f ns   (TICK1: mean of back-to-back reads)%n", f.readCostNs());
        System.out.printf(Locale.ROOT, "resolution      %.2f ns   (TICK1: smallest non-zero step)%n", f.resolutionNs());
        System.out.printf(Locale.ROOT, "TICK2           %+.1f ppm against CLOCK_MONOTONIC over 50 ms%n", f.tick2ErrorPpm());
        return 0;
    }
}
