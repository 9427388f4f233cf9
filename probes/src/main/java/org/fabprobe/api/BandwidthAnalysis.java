package org.fabprobe.api;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.fabprobe.Steps;
import org.fabprobe.launch.Session;
import org.fabprobe.launch.SessionSpec;
import org.fabprobe.model.Statistics;
import org.fabprobe.model.Summary;
import org.fabprobe.pattern.OneSidedStream;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.pattern.Stream;
import org.fabprobe.result.BandwidthDocument;
import org.fabprobe.transport.OneSided;
import org.fabprobe.transport.Op;

/** A streaming-bandwidth sweep from request to typed document: the session, the statistics per size and the flags. */
public final class BandwidthAnalysis {
    private BandwidthAnalysis() {}

    /** A sweep's document, and the CPU measure and mirror shared (-1: none), which the table's first line names. */
    public record Result(BandwidthDocument document, int sharedCpu) {
        public String headerNote() {
            return RunFacts.headerNote(sharedCpu);
        }
    }

    /** Runs {@code request}, telling {@code steps} before each size, and analyses what it measured. */
    public static Result run(BandwidthRequest request, Steps steps) {
        long[] sizes = request.sizes();
        Op op = request.op();
        Stream stream = new Stream(sizes, request.window(), request.warmup(), request.repetitions());
        OneSidedStream oneSided = op.oneSided()
                ? new OneSidedStream(sizes, request.window(), request.warmup(), request.repetitions(), op) : null;
        SessionSettings session = request.session();
        SessionSpec spec = oneSided == null ? session.spec(sizes[sizes.length - 1], stream.depth(), stream.schedule())
                : session.spec(sizes[sizes.length - 1], oneSided.depth(), oneSided.schedule());
        String[] completion = {"mirror's 0-byte acknowledgement"};

        String startedAt = Instant.now().toString();
        long start = System.nanoTime();
        Map<String, String> transportFacts = new LinkedHashMap<>();
        Session.Facts[] facts = new Session.Facts[1];
        Stream.Samples samples = session.run(spec, (t, await, control) -> {
            transportFacts.putAll(t.facts());
            // the session's facts arrive before the timing: on a shared CPU every attempt is disturbed alike
            int remeasures = facts[0] != null && facts[0].sharedCpu() >= 0 ? 0 : PingPong.MAX_REMEASURES;
            if (oneSided == null) return stream.measure(t, await, control, steps, remeasures);
            if (t instanceof OneSided os) {
                completion[0] = "every operation's completion" + (op == Op.WRITE || os.completesOnlyAtFlush() ? "; flush: " + os.flushing() : "");
            }
            return oneSided.measure(t, await, control, steps, remeasures);
        }, f -> facts[0] = f);
        double wallSeconds = (System.nanoTime() - start) / 1e9;

        List<BandwidthDocument.Size> points = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            double[] windowNs = samples.windowNs()[i];
            Summary s = Statistics.summarize(windowNs, windowNs.length);
            points.add(new BandwidthDocument.Size(sizes[i], request.window(), s,
                    (double) sizes[i] * request.window() / s.median() * 1e3, request.window() / s.median() * 1e9,
                    samples.disturbed()[i], samples.remeasured()[i], samples.gapMs()[i], samples.stalled()[i]));
        }
        RunFacts<BandwidthDocument.Settings> run = session.runFacts("bandwidth", facts[0], transportFacts,
                peer -> new BandwidthDocument.Settings(SizeList.asList(sizes), request.window(), request.warmup(),
                        request.repetitions(), op.label(), completion[0], peer), startedAt);
        BandwidthDocument document = new BandwidthDocument(run.header(BandwidthDocument.SCHEMA, wallSeconds), points,
                flags(run, points));
        return new Result(document, run.sharedCpu());
    }

    /** A shared CPU, and the sizes whose windows were disturbed: never printed as if fine. */
    static List<String> flags(RunFacts<?> run, List<BandwidthDocument.Size> points) {
        List<String> flags = new ArrayList<>();
        if (run.sharedCpuFlag() != null) flags.add(run.sharedCpuFlag());
        List<String> stalled = points.stream().filter(p -> p.disturbed() && p.stalled())
                .map(p -> String.format(Locale.ROOT, "%s (%.0f ms unaccounted)", SizeList.human(p.sizeBytes()), p.gapMs()))
                .toList();
        if (!stalled.isEmpty()) {
            flags.add("STALL " + String.join(", ", stalled) + ": a window, or wall time no window nor wait for a CPU accounts"
                    + " for, went beyond the stall bound in every measurement (a link outage, a retransmission timeout);"
                    + " bandwidth may read low");
        }
        List<String> disturbed = points.stream().filter(p -> p.disturbed() && !p.stalled())
                .map(p -> SizeList.human(p.sizeBytes())).toList();
        if (!disturbed.isEmpty()) {
            flags.add("DISTURBED " + String.join(", ", disturbed) + ": the timing threads were preempted in too many windows"
                    + " (other work on these CPUs, or measure and mirror sharing one); bandwidth may read low");
        }
        return flags;
    }
}
