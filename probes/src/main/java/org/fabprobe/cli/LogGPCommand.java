package org.fabprobe.cli;

import java.io.IOException;
import java.time.Instant;
import java.util.concurrent.Callable;
import org.fabprobe.api.SizeList;
import org.fabprobe.method.LogGPMethod;
import org.fabprobe.method.Sampler;
import org.fabprobe.report.MethodReport;
import org.fabprobe.result.LogGPDocument;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `fabprobe loggp`: LogGP's L, o, g, G per size range from parametrized round trips (Hoefler et al.). */
@Command(name = "loggp", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"LogGP parameters L, o, g, G from PRTT(n,d,s) round trips (Hoefler, Lichei, Rehm),",
                "one parameter set per size range; protocol changes found from the fit's residuals."})
final class LogGPCommand implements Callable<Integer>, MeetsMirror {
    static final int MAX_MESSAGES = 4096;

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
        SizeList.parse(sizes);
        if (messages < 2 || messages > MAX_MESSAGES) throw new IllegalArgumentException("--messages must be 2.." + MAX_MESSAGES);
        method.sampler();
        opOption.calls(session, callsOption);
    }

    @Override
    public Integer call() throws IOException {
        long[] sizeList = SizeList.parse(sizes);
        Sampler sampler = method.sampler();
        var calls = opOption.calls(session, callsOption);
        var op = opOption.op(session);
        String startedAt = Instant.now().toString();
        var steps = session.progress("loggp", sizeList.length);
        var run = MethodOptions.run(session, sizeList[sizeList.length - 1], calls, op, steps,
                probe -> new LogGPMethod(probe, sampler, steps).run(new LogGPMethod.Settings(sizeList, messages)));
        var facts = session.runFacts("loggp", run.transportFacts(), peer -> new LogGPDocument.Settings(SizeList.asList(sizeList),
                messages, op.label(), method.describe(sampler, calls, run), peer), startedAt);
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
