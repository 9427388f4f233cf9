package org.fabprobe.cli;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.fabprobe.api.SessionSettings;
import org.fabprobe.api.SizeList;
import org.fabprobe.launch.SessionSpec;
import org.fabprobe.model.Statistics;
import org.fabprobe.model.Summary;
import org.fabprobe.pattern.OneSidedStream;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.pattern.Stream;
import org.fabprobe.report.StreamReport;
import org.fabprobe.result.BandwidthDocument;
import org.fabprobe.transport.OneSided;
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
    static final int MAX_WINDOW = 1024;

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
        Op parsed = parsedOp();
        if (parsed.oneSided() && SizeList.parse(sizes)[0] < 1) {
            throw new IllegalArgumentException("bandwidth --op " + op + ": sizes start at 1 B");
        }
        if (window < 1 || window > MAX_WINDOW) throw new IllegalArgumentException("--window must be 1.." + MAX_WINDOW);
        SessionSettings.checkCounts(repetitions, warmup);
    }

    /** The op, refused in one line where bandwidth or the transport cannot do it. */
    private Op parsedOp() {
        Op parsed = Op.parse(op);
        if (parsed.atomic()) throw new IllegalArgumentException("bandwidth --op: send, write or read (atomics: pingpong --op)");
        Transports.checkOneSided(session.transport, parsed); // one line and exit 3 before any mirror starts
        return parsed;
    }

    @Override
    public Integer call() throws IOException {
        long[] sizeList = SizeList.parse(sizes);
        Op parsed = parsedOp();
        Stream stream = new Stream(sizeList, window, warmup, repetitions);
        OneSidedStream oneSided = parsed.oneSided() ? new OneSidedStream(sizeList, window, warmup, repetitions, parsed) : null;
        SessionSpec spec = oneSided == null ? session.spec(sizeList[sizeList.length - 1], stream.depth(), stream.schedule())
                : session.spec(sizeList[sizeList.length - 1], oneSided.depth(), oneSided.schedule());
        String[] completion = {"mirror's 0-byte acknowledgement"};

        String startedAt = Instant.now().toString();
        long start = System.nanoTime();
        Map<String, String> transportFacts = new LinkedHashMap<>();
        var steps = session.progress("bandwidth", sizeList.length);
        Stream.Samples samples = session.run(spec, (t, await, control) -> {
            transportFacts.putAll(t.facts());
            // on a CPU measure and mirror share every attempt is disturbed alike: none again
            int remeasures = session.sharedCpu() ? 0 : PingPong.MAX_REMEASURES;
            if (oneSided == null) return stream.measure(t, await, control, steps, remeasures);
            if (t instanceof OneSided os) {
                completion[0] = "every operation's completion" + (parsed == Op.WRITE ? "; flush: " + os.flushing() : "");
            }
            return oneSided.measure(t, await, control, steps, remeasures);
        });
        double wallSeconds = (System.nanoTime() - start) / 1e9;

        List<StreamReport.Point> points = new ArrayList<>();
        for (int i = 0; i < sizeList.length; i++) {
            double[] windowNs = samples.windowNs()[i];
            Summary s = Statistics.summarize(windowNs, windowNs.length);
            points.add(new StreamReport.Point(sizeList[i], window, s, (double) sizeList[i] * window / s.median() * 1e3,
                    window / s.median() * 1e9, samples.disturbed()[i], samples.remeasured()[i], samples.gapMs()[i],
                    samples.stalled()[i]));
        }
        var run = session.runFacts("bandwidth", transportFacts, peer -> new BandwidthDocument.Settings(SizeList.asList(sizeList),
                window, warmup, repetitions, parsed.label(), completion[0], peer), startedAt);
        session.emit(StreamReport.table(run, points, wallSeconds), StreamReport.document(run, points, wallSeconds),
                StreamReport.csv(points));
        return 0;
    }

    @Override
    public SessionOptions session() {
        return session;
    }
}
