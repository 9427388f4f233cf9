package org.fabprobe.launch;

import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.pattern.Await;
import org.fabprobe.pattern.Control;
import org.fabprobe.pattern.Patterns;
import org.fabprobe.transport.mpi.MpiTransport;

/**
 * One measurement as two MPI ranks: every rank runs the same command line (under mpirun,
 * mpiexec or srun; in local mode {@link MpiLauncher} starts mpirun itself). Rank 0 is measure
 * and returns the result to its command; rank 1 is mirror and leaves the process when done,
 * so its command never prints anything.
 */
final class MpiSession {
    private MpiSession() {}

    static <R> R run(SessionSpec spec, int measureCpu, LocalSession.MeasureHalf<R> measureHalf) {
        if (!MpiLauncher.underLauncher()) {
            throw new FabprobeException(ExitCode.USAGE, spec.transport() + ": not running under an MPI launcher");
        }
        long timeoutNs = spec.options().timeout().toNanos();
        long watchdogMs = 2 * spec.options().timeout().toMillis() + 10_000;
        R result = null;
        int rank;
        try (MpiTransport t = MpiTransport.open(spec.transport(), spec.options())) {
            rank = t.rank();
            Control control = t.control();
            if (rank == 0) {
                if (measureCpu >= 0) CpuAffinity.pinCurrentThread(measureCpu);
                try (Watchdog watchdog = Watchdog.start(watchdogMs, "rank 0 (measure)", () -> {})) {
                    result = measureHalf.run(t, new Await(timeoutNs, "rank 1 (mirror)"), control);
                }
            } else {
                if (spec.cpu() >= 0) CpuAffinity.pinCurrentThread(spec.cpu());
                try (Watchdog watchdog = Watchdog.start(watchdogMs, "rank 1 (mirror)", () -> {})) {
                    Patterns.mirrorHalf(spec.pattern(), spec.patternParams())
                            .run(t, new Await(timeoutNs, "rank 0 (measure)"), control);
                }
            }
            t.barrier();
        }
        if (rank != 0) {
            System.out.flush();
            System.exit(ExitCode.OK); // the mirror rank has nothing to report
        }
        return result;
    }
}
