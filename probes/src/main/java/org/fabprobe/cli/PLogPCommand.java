package org.fabprobe.cli;

import java.io.IOException;
import java.time.Instant;
import java.util.concurrent.Callable;
import org.fabprobe.api.SizeList;
import org.fabprobe.method.PLogPMethod;
import org.fabprobe.method.Sampler;
import org.fabprobe.report.MethodReport;
import org.fabprobe.result.PLogPDocument;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `fabprobe plogp`: fast parameterized LogP (Kielmann et al.), with LogGP by its Table 1. */
@Command(name = "plogp", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Parameterized LogP o_s(m), o_r(m), g(m), L by the fast method of Kielmann, Bal, Verstoep:",
                "g(0) by saturation, everything else from round trips; adaptive size range and interval",
                "halving; LogGP parameters by the paper's Table 1. --validate also saturates every size."})
final class PLogPCommand implements Callable<Integer>, MeetsMirror {
    @Mixin
    SessionOptions session;

    @Mixin
    MethodOptions method;

    @Mixin
    CallsOption callsOption;

    @Mixin
    OpOption opOption;

    @Option(names = {"-s", "--sizes"}, defaultValue = "0..256K", description = "Initial sizes m. Default: ${DEFAULT-VALUE}")
    String sizes;

    @Option(names = "--adaptive-limit", defaultValue = "1M",
            description = "Largest size the range may grow to while g(m)/m has not settled (0: no growth). Default: ${DEFAULT-VALUE}")
    String adaptiveLimit;

    @Option(names = "--validate", description = "Also measure g(m) by saturation at every size and report both times (Table 2).")
    boolean validate;

    @Option(names = "--order-seed", paramLabel = "N", description = {
            "Seed of the random orders the sizes are measured in, twice (settings.order_seed; default: a new one",
            "per run). Sizes whose round trip differs between the two passes are flagged STATE."})
    Long orderSeed;

    @Override
    public void check() {
        opOption.calls(session, callsOption);
        SizeList.parse(sizes);
        SizeList.size(adaptiveLimit);
        method.sampler();
    }

    @Override
    public Integer call() throws IOException {
        long[] sizeList = SizeList.parse(sizes);
        long limit = Math.max(SizeList.size(adaptiveLimit), sizeList[sizeList.length - 1]);
        Sampler sampler = method.sampler();
        var calls = opOption.calls(session, callsOption);
        var op = opOption.op(session);
        String startedAt = Instant.now().toString();
        long positive = java.util.Arrays.stream(sizeList).filter(m -> m > 0).count();
        var steps = session.progress("plogp", (int) (1 + (validate ? 2 : 1) * positive));
        long seed = orderSeed != null ? orderSeed : new java.util.SplittableRandom().nextLong();
        var run = MethodOptions.run(session, limit, calls, op, steps,
                probe -> new PLogPMethod(probe, sampler, steps).run(new PLogPMethod.Settings(sizeList, limit, validate, seed)));
        var facts = session.runFacts("plogp", run.transportFacts(), peer -> new PLogPDocument.Settings(SizeList.asList(sizeList),
                limit, validate, PLogPMethod.SATURATION_EPS, seed, op.label(), method.describe(sampler, calls, run), peer), startedAt);
        var context = new MethodReport.Context<>(facts, run.warmupMs(), run.wallSeconds());
        session.emit(MethodReport.table(context, run.result()), MethodReport.document(context, run.result()),
                MethodReport.csv(run.result()));
        return 0;
    }

    @Override
    public SessionOptions session() {
        return session;
    }
}
