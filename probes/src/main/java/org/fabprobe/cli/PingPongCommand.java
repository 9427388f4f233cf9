package org.fabprobe.cli;

import org.fabprobe.api.SizeList;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.fabprobe.clock.Clock;
import org.fabprobe.launch.SessionSpec;
import org.fabprobe.model.HockneyFitter;
import org.fabprobe.model.MedianCi;
import org.fabprobe.model.Statistics;
import org.fabprobe.model.Summary;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.report.PingPongReport;
import org.fabprobe.report.PingPongResult;
import org.fabprobe.report.RunFacts;
import org.fabprobe.report.SizePoint;
import org.fabprobe.transport.Transports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `fabprobe pingpong`: the half round-trip sweep and its Hockney fit. */
@Command(name = "pingpong", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Ping-pong sweep between a measure and a mirror process: half round-trip time",
                "min/median/p99 and bandwidth per size, and Hockney's t0, r_inf, n_1/2 per size range."})
final class PingPongCommand implements Callable<Integer> {
    @Mixin
    SessionOptions session;

    @Option(names = {"-s", "--sizes"}, defaultValue = "0..4M",
            description = "Message sizes: list and/or power-of-two ranges, e.g. 0..4M or 8,64,1K..1M. Default: ${DEFAULT-VALUE}")
    String sizes;

    @Option(names = {"-n", "--reps"}, defaultValue = "1000", description = "Timed round trips per size. Default: ${DEFAULT-VALUE}")
    int repetitions;

    @Option(names = "--warmup", defaultValue = "100", description = "Untimed round trips before each size. Default: ${DEFAULT-VALUE}")
    int warmup;

    @Option(names = "--calls", defaultValue = "auto", description = {
            "blocking: MPI_Send/MPI_Recv per round trip, as osu_latency (mpi only); nonblocking: post,",
            "then poll progress (MPI_Isend/MPI_Irecv/MPI_Test under mpi). Default: ${DEFAULT-VALUE}",
            "(blocking under mpi, nonblocking elsewhere)"})
    String calls;

    @Override
    public Integer call() throws IOException {
        long[] sizeList = SizeList.parse(sizes);
        SessionOptions.checkCounts(repetitions, warmup);
        PingPong pingPong = new PingPong(sizeList, warmup, repetitions, calls(calls, session.transport));
        SessionSpec spec = session.spec(sizeList[sizeList.length - 1], 4, pingPong.schedule());

        String startedAt = Instant.now().toString();
        long start = System.nanoTime();
        Map<String, String> transportFacts = new LinkedHashMap<>();
        var steps = session.progress("pingpong", sizeList.length);
        PingPong.Samples samples = session.run(spec, (t, await, control) -> {
            transportFacts.putAll(t.facts());
            return pingPong.measure(t, await, control, steps);
        });
        double wallSeconds = (System.nanoTime() - start) / 1e9;

        List<SizePoint> points = new ArrayList<>();
        double[] medians = new double[sizeList.length];
        for (int i = 0; i < sizeList.length; i++) {
            double[] halfRtt = samples.halfRttNs()[i];
            // a half round trip is half a difference of two clock reads: its grid is half the clock's quantum
            Summary s = Statistics.summarize(halfRtt, halfRtt.length, Clock.facts().resolutionNs() / 2);
            medians[i] = s.median();
            points.add(new SizePoint(sizeList[i], s, sizeList[i] / s.median() * 1e3, samples.wallMs()[i],
                    MedianCi.of(halfRtt, halfRtt.length, Clock.facts().resolutionNs()).ci95()));
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("sizes", SizeList.asList(sizeList));
        settings.put("warmup", warmup);
        settings.put("repetitions", repetitions);
        settings.put("calls", pingPong.calls().label());
        settings.put("jit_warmup_round_trips_max", PingPong.JIT_WARMUP);
        RunFacts run = session.runFacts("pingpong", transportFacts, settings, startedAt);
        PingPongResult result = new PingPongResult(run, points, HockneyFitter.fit(sizeList, medians), wallSeconds,
                PingPongReport.driftFlag(sizeList, samples.sentinelNs(), Clock.facts().resolutionNs()),
                PingPongReport.disturbedFlag(sizeList, samples.disturbed(), samples.cpuWaitMs()));

        session.emit(PingPongReport.table(result), PingPongReport.document(result), PingPongReport.csv(result));
        return 0;
    }

    /** The --calls value for this transport: auto means blocking wherever the transport has blocking calls. */
    static PingPong.Calls calls(String option, String transport) {
        boolean blockingAvailable = Transports.hasBlockingCalls(transport);
        return switch (option) {
            case "auto" -> blockingAvailable ? PingPong.Calls.BLOCKING : PingPong.Calls.NONBLOCKING;
            case "nonblocking" -> PingPong.Calls.NONBLOCKING;
            case "blocking" -> {
                if (!blockingAvailable) {
                    throw new IllegalArgumentException("--calls blocking needs a transport with blocking calls (mpi:...); "
                            + transport + " is polled: use --calls nonblocking or auto");
                }
                yield PingPong.Calls.BLOCKING;
            }
            default -> throw new IllegalArgumentException("--calls must be auto, blocking or nonblocking, not '" + option + "'");
        };
    }
}
