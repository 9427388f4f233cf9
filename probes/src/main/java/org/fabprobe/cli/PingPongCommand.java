package org.fabprobe.cli;

import java.io.IOException;
import java.util.concurrent.Callable;
import org.fabprobe.api.PingPongAnalysis;
import org.fabprobe.api.PingPongRequest;
import org.fabprobe.api.PingPongResult;
import org.fabprobe.api.SizeList;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.report.PingPongReport;
import org.fabprobe.transport.Transports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;


/** `fabprobe pingpong`: the half round-trip sweep and its Hockney fit. */
@Command(name = "pingpong", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Ping-pong sweep between a measure and a mirror process: half round-trip time",
                "min/median/p99 and bandwidth per size, and Hockney's t0, r_inf, n_1/2 per size range."})
final class PingPongCommand implements Callable<Integer>, MeetsMirror {
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

    @Option(names = "--op", defaultValue = "send", description = {
            "send: two-sided messages; write: RDMA-write ping-pong, the target polling its memory;",
            "read, fetch-add, cswap: one operation's latency (atomics on 8 B). Default: ${DEFAULT-VALUE}"})
    String op;

    @Option(names = "--target", defaultValue = "active", description = {
            "passive: who must progress the one-sided --op: per size, run it once with the target making",
            "no library call and once with it progressing; says native (no target CPU) or emulated, with",
            "the target's CPU per operation (see docs/methods.md). Default: ${DEFAULT-VALUE}"})
    String target;

    @Override
    public void check() {
        request();
    }

    @Override
    public Integer call() throws IOException {
        PingPongRequest request = request();
        PingPongResult result = PingPongAnalysis.run(request, session.progress("pingpong", request.sizes().length));
        session.emit(PingPongReport.table(result), result.document(), PingPongReport.csv(result.document()));
        return 0;
    }

    private PingPongRequest request() {
        org.fabprobe.transport.Op parsed = org.fabprobe.transport.Op.parse(op);
        Transports.checkOneSided(session.transport, parsed); // one line and exit 3 before any mirror starts
        if (!target.equals("active") && !target.equals("passive")) {
            throw new IllegalArgumentException("--target must be active or passive, not '" + target + "'");
        }
        return new PingPongRequest(session.settings(), SizeList.parse(sizes), repetitions, warmup,
                calls(calls, session.transport), parsed, target.equals("passive"));
    }

    @Override
    public SessionOptions session() {
        return session;
    }

    /** The --calls value for this transport: auto means blocking wherever the transport has blocking calls. */
    static PingPong.Calls calls(String option, String transport) {
        boolean blockingAvailable = Transports.hasBlockingCalls(transport);
        return switch (option) {
            case "auto" -> PingPongRequest.defaultCalls(transport);
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
