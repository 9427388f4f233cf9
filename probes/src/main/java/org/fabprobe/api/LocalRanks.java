package org.fabprobe.api;

import java.util.ArrayList;
import java.util.List;
import org.fabprobe.Steps;
import org.fabprobe.launch.LocalLauncher;
import org.fabprobe.result.ResultJson;
import org.fabprobe.transport.TransportName;
import org.fabprobe.transport.mpi.MpiSelection;

/**
 * An MPI measurement (every measurement of the API but register) asked of this process outside a launcher: MPI is initialized once per
 * process and a pair needs two, so the request runs as two local ranks of its own command line,
 * and rank 0 hands the typed document back over a loopback socket ({@link LocalLauncher}).
 */
final class LocalRanks {
    private LocalRanks() {}

    /** True when {@code session} names MPI and no launcher started this process. */
    static boolean needed(SessionSettings session) {
        return TransportName.isMpiSelection(session.transport()) && !LocalLauncher.underLauncher();
    }

    /** Runs {@code commandLine} as two ranks and reads rank 0's document; the ranks draw no progress line unless asked. */
    static <D> D measure(List<String> commandLine, String transport, Steps steps, Class<D> type) {
        List<String> args = new ArrayList<>(commandLine);
        if (steps == Steps.NONE) args.add("--quiet");
        String reply = LocalLauncher.runForReply(args.toArray(String[]::new), MpiSelection.parse(transport), 2, System.out,
                System.err);
        return ResultJson.read(reply, type);
    }
}
