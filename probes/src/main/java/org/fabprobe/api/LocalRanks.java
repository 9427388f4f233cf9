package org.fabprobe.api;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.fabprobe.Steps;
import org.fabprobe.launch.LocalLauncher;
import org.fabprobe.result.ResultJson;
import org.fabprobe.transport.TransportName;
import org.fabprobe.transport.mpi.MpiSelection;

/**
 * An MPI measurement (any of the API's but register) asked of this process outside a launcher:
 * MPI is initialized once per process and a pair needs two, so the request runs as two local
 * ranks of its own command line, and rank 0 hands the typed document back over a loopback
 * socket ({@link LocalLauncher}).
 */
final class LocalRanks {
    private LocalRanks() {}

    /**
     * {@code here} where this process can measure; else {@code commandLine} (the request's own,
     * made only then) as two ranks, rank 0's document read as {@code type}. The ranks draw no
     * progress line unless {@code steps} is one.
     */
    static <D> D orHere(SessionSettings session, Supplier<List<String>> commandLine, Steps steps, Class<D> type, Supplier<D> here) {
        if (!TransportName.isMpiSelection(session.transport()) || LocalLauncher.underLauncher()) return here.get();
        List<String> args = new ArrayList<>(commandLine.get());
        if (steps == Steps.NONE) args.add("--quiet");
        String reply = LocalLauncher.runForReply(args.toArray(String[]::new), MpiSelection.parse(session.transport()), 2,
                System.out, System.err);
        return ResultJson.read(reply, type);
    }
}
