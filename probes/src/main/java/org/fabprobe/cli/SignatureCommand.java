package org.fabprobe.cli;

import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.fabprobe.api.SizeList;
import org.fabprobe.method.Sampler;
import org.fabprobe.method.SignatureMethod;
import org.fabprobe.report.MethodReport;
import org.fabprobe.result.SignatureDocument;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `fabprobe signature`: Culler's LogP signature and the parameters read off it. */
@Command(name = "signature", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"LogP signature (Culler, Liu, Martin, Yoshikawa): average cost per request against burst",
                "length M for Delta = 0, g/2, g, 2g; o_s, o_r, g and L read off; bulk o_s(n), g(n)."})
final class SignatureCommand implements Callable<Integer>, MeetsMirror {
    static final int MAX_BURST = 1 << 16;

    @Mixin
    SessionOptions session;

    @Mixin
    MethodOptions method;

    @Mixin
    CallsOption callsOption;

    @Option(names = "--bursts", defaultValue = "1..256", description = "Burst lengths M (powers of two in a range). Default: ${DEFAULT-VALUE}")
    String bursts;

    @Option(names = "--bulk-sizes", defaultValue = "8,64,512,4K",
            description = "Request sizes for bulk o_s(n) and g(n) ('none' to skip). Default: ${DEFAULT-VALUE}")
    String bulkSizes;

    @Override
    public void check() {
        burstList();
        bulk();
        method.sampler();
        callsOption.calls(session);
    }

    @Override
    public Integer call() throws IOException {
        int[] burstList = burstList();
        long[] bulk = bulk();
        Sampler sampler = method.sampler();
        var calls = callsOption.calls(session);
        String startedAt = Instant.now().toString();
        var steps = session.progress("signature", 4 + bulk.length); // 4 curves (Delta = 0, g/2, g, 2g), then bulk
        var run = MethodOptions.run(session, bulk.length == 0 ? 0 : bulk[bulk.length - 1], calls, steps,
                probe -> new SignatureMethod(probe, sampler, steps).run(new SignatureMethod.Settings(burstList, bulk)));
        var facts = session.runFacts("signature", run.transportFacts(), peer -> new SignatureDocument.Settings(
                Arrays.stream(burstList).boxed().toList(), SizeList.asList(bulk), method.describe(sampler, calls, run), peer), startedAt);
        var context = new MethodReport.Context<>(facts, run.warmupMs(), run.wallSeconds());
        session.emit(MethodReport.table(context, run.result()), MethodReport.document(context, run.result()),
                MethodReport.csv(run.result()));
        return 0;
    }

    private int[] burstList() {
        long[] m = SizeList.parse(bursts);
        if (m[0] != 1 || m.length < 2 || m[m.length - 1] > MAX_BURST) {
            throw new IllegalArgumentException("--bursts must start at 1, have two or more values, and stay <= " + MAX_BURST);
        }
        return java.util.Arrays.stream(m).mapToInt(v -> (int) v).toArray();
    }

    private long[] bulk() {
        return "none".equals(bulkSizes) ? new long[0] : SizeList.parse(bulkSizes);
    }

    @Override
    public SessionOptions session() {
        return session;
    }
}
