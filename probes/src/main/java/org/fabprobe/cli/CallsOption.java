package org.fabprobe.cli;

import org.fabprobe.pattern.PingPong;
import picocli.CommandLine.Option;

/** --calls of the LogP methods: which MPI calls time the messages. */
final class CallsOption {
    @Option(names = "--calls", defaultValue = "auto", description = {
            "blocking: one MPI_Send / MPI_Recv per message, as the papers define o_s (mpi only); nonblocking:",
            "post, then poll progress (MPI_Isend/MPI_Irecv/MPI_Test under mpi). Default: ${DEFAULT-VALUE}",
            "(blocking under mpi, nonblocking elsewhere)"})
    String calls;

    /** The calls for this run's transport. */
    PingPong.Calls calls(SessionOptions session) {
        return PingPongCommand.calls(calls, session.transport);
    }
}
