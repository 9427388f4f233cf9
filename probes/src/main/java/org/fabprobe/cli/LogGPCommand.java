package org.fabprobe.cli;

import java.io.IOException;
import java.util.concurrent.Callable;
import org.fabprobe.api.LogGPRequest;
import org.fabprobe.api.MethodAnalysis;
import org.fabprobe.api.SizeList;
import org.fabprobe.report.MethodReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `fabprobe loggp`: LogGP's L, o, g, G per size range from parametrized round trips (Hoefler et al.). */
@Command(name = "loggp", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"LogGP parameters L, o, g, G from PRTT(n,d,s) round trips (Hoefler, Lichei, Rehm),",
                "one parameter set per size range; protocol changes found from the fit's residuals."})
final class LogGPCommand implements Callable<Integer>, MeetsMirror {
    @Mixin
    SessionOptions session;

    @Mixin
    MethodOptions method;

    @Mixin
    CallsOption callsOption;

    @Mixin
    OpOption opOption;

    @Option(names = {"-s", "--sizes"}, defaultValue = "0..256K", description = "Message sizes s. Default: ${DEFAULT-VALUE}")
    String sizes;

    @Option(names = "--messages", defaultValue = "16", description = "n of PRTT(n,d,s). Default: ${DEFAULT-VALUE}")
    int messages;

    @Override
    public void check() {
        request();
    }

    @Override
    public Integer call() throws IOException {
        LogGPRequest request = request();
        var outcome = MethodAnalysis.logGP(request, session.progress("loggp", request.steps()));
        session.emit(MethodReport.table(outcome.context(), outcome.result()), outcome.document(),
                MethodReport.csv(outcome.result()));
        return 0;
    }

    private LogGPRequest request() {
        long[] sizeList = SizeList.parse(sizes);
        var calls = opOption.calls(session, callsOption);
        return new LogGPRequest(session.settings(), sizeList, messages, method.sampling(), calls, opOption.op(session));
    }

    @Override
    public SessionOptions session() {
        return session;
    }
}
