package org.fabprobe.cli;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.fabprobe.api.MethodAnalysis;
import org.fabprobe.api.SignatureRequest;
import org.fabprobe.api.SizeList;
import org.fabprobe.report.MethodReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `fabprobe signature`: Culler's LogP signature and the parameters read off it. */
@Command(name = "signature", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"LogP signature (Culler, Liu, Martin, Yoshikawa): average cost per request against burst",
                "length M for Delta = 0, g/2, g, 2g; o_s, o_r, g and L read off; bulk o_s(n), g(n)."})
final class SignatureCommand implements Callable<Integer>, MeetsMirror {
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
        request();
    }

    @Override
    public Integer call() throws IOException {
        SignatureRequest request = request();
        var outcome = MethodAnalysis.signature(request, session.progress("signature", request.steps()));
        session.emit(MethodReport.table(outcome.context(), outcome.result()), outcome.document(),
                MethodReport.csv(outcome.result()));
        return 0;
    }

    private SignatureRequest request() {
        // a burst above the largest is refused by the request, in range of an int or not
        int[] burstList = Arrays.stream(SizeList.parse(bursts)).mapToInt(m -> (int) Math.min(m, Integer.MAX_VALUE)).toArray();
        long[] bulk = "none".equals(bulkSizes) ? new long[0] : SizeList.parse(bulkSizes);
        return new SignatureRequest(session.settings(), burstList, bulk, method.sampling(), callsOption.calls(session));
    }

    @Override
    public SessionOptions session() {
        return session;
    }
}
