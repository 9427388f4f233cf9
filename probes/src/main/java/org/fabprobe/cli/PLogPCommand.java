package org.fabprobe.cli;

import java.io.IOException;
import java.util.concurrent.Callable;
import org.fabprobe.api.MethodAnalysis;
import org.fabprobe.api.PLogPRequest;
import org.fabprobe.api.SizeList;
import org.fabprobe.report.MethodReport;
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
        request();
    }

    @Override
    public Integer call() throws IOException {
        PLogPRequest request = request();
        var outcome = MethodAnalysis.plogp(request, session.progress("plogp", request.steps()));
        session.emit(MethodReport.table(outcome.context(), outcome.result()), outcome.document(),
                MethodReport.csv(outcome.result()));
        return 0;
    }

    private PLogPRequest request() {
        var calls = opOption.calls(session, callsOption);
        return new PLogPRequest(session.settings(), SizeList.parse(sizes), SizeList.size(adaptiveLimit), validate, orderSeed,
                method.sampling(), calls, opOption.op(session));
    }

    @Override
    public SessionOptions session() {
        return session;
    }
}
