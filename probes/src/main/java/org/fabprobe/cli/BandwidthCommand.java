package org.fabprobe.cli;

import java.io.IOException;
import java.util.concurrent.Callable;
import org.fabprobe.api.BandwidthAnalysis;
import org.fabprobe.api.BandwidthRequest;
import org.fabprobe.api.SizeList;
import org.fabprobe.report.StreamReport;
import org.fabprobe.transport.Op;
import org.fabprobe.transport.Transports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `fabprobe bandwidth`: streaming bandwidth, windows of back-to-back messages. */
@Command(name = "bandwidth", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Streaming bandwidth: windows of back-to-back messages from measure to mirror,",
                "one 0-byte acknowledgement per window (as osu_bw; ucx_perftest tag_bw streams without windows)."})
final class BandwidthCommand implements Callable<Integer>, MeetsMirror {
    @Mixin
    SessionOptions session;

    @Option(names = {"-s", "--sizes"}, defaultValue = "1K..4M",
            description = "Message sizes: list and/or power-of-two ranges. Default: ${DEFAULT-VALUE}")
    String sizes;

    @Option(names = {"-w", "--window"}, defaultValue = "64", description = "Messages in flight per window. Default: ${DEFAULT-VALUE}")
    int window;

    @Option(names = {"-n", "--reps"}, defaultValue = "100", description = "Timed windows per size. Default: ${DEFAULT-VALUE}")
    int repetitions;

    @Option(names = "--warmup", defaultValue = "10", description = "Untimed windows before each size. Default: ${DEFAULT-VALUE}")
    int warmup;

    @Option(names = "--op", defaultValue = "send", description = {
            "send: two-sided messages; write, read: windows of RDMA writes into (reads from) mirror's",
            "buffer, each window ended by their completions (writes: and a flush). Default: ${DEFAULT-VALUE}"})
    String op;

    @Override
    public void check() {
        request();
    }

    @Override
    public Integer call() throws IOException {
        BandwidthRequest request = request();
        BandwidthAnalysis.Result result = BandwidthAnalysis.run(request, session.progress("bandwidth", request.sizes().length));
        session.emit(StreamReport.table(result), result.document(), StreamReport.csv(result.document()));
        return 0;
    }

    private BandwidthRequest request() {
        var request = new BandwidthRequest(session.settings(), SizeList.parse(sizes), window, repetitions, warmup, Op.parse(op));
        Transports.checkOneSided(session.transport, request.op()); // one line and exit 3 before any mirror starts
        return request;
    }

    @Override
    public SessionOptions session() {
        return session;
    }
}
