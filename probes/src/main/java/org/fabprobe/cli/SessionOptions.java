package org.fabprobe.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.fabprobe.clock.Clock;
import org.fabprobe.launch.SessionSpec;
import org.fabprobe.report.RunFacts;
import org.fabprobe.transport.TransportOptions;
import picocli.CommandLine.Option;

/** Options every measuring subcommand shares: where to measure and where results go. */
final class SessionOptions {
    static final int MAX_REPETITIONS = 10_000_000;

    @Option(names = {"-t", "--transport"}, defaultValue = "ofi:shm",
            description = {"ofi:PROVIDER (ofi:shm, ofi:tcp, ofi:udp, ofi:verbs, ...), ucx:TLS (ucx:tcp, ucx:posix,cma,",
                    "ucx:rc, ...), mpi:IMPL[/SELECTION] (mpi:openmpi/ob1:vader, mpi:openmpi/ucx:tcp, mpi:mpich/ucx:tcp, ...)",
                    "or sim:L=..,os=..,or=..,g=..,G=..[;>SIZE:...] (emulated). Default: ${DEFAULT-VALUE}"})
    String transport;

    @Option(names = "--timeout", defaultValue = "5s",
            description = "Longest wait for the peer before failing (e.g. 500ms, 5s, 1m). Default: ${DEFAULT-VALUE}")
    String timeout;

    @Option(names = "--cpus", split = ",", description = "Pin measure and mirror to these two CPUs, e.g. 0,1.")
    int[] cpus;

    @Option(names = "--src-addr", defaultValue = "127.0.0.1",
            description = "Address network transports bind to (local mode: loopback). Default: ${DEFAULT-VALUE}")
    String sourceAddress;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the full result as JSON (- for stdout, replacing the table).")
    Path json;

    @Option(names = "--csv", paramLabel = "FILE", description = "Also write per-size rows as CSV (- for stdout, replacing the table).")
    Path csv;

    Duration timeoutDuration() {
        return Durations.parse(timeout);
    }

    int measureCpu() {
        return cpus == null ? -1 : cpus[0];
    }

    SessionSpec spec(long largestMessage, int depth, String pattern, Map<String, String> params) {
        if (cpus != null && cpus.length != 2) throw new IllegalArgumentException("--cpus takes two CPUs: measure,mirror");
        TransportOptions options = new TransportOptions(largestMessage, depth, timeoutDuration(), sourceAddress);
        return new SessionSpec(transport, options, cpus == null ? -1 : cpus[1], pattern, params);
    }

    /** The run's facts: the command's own settings plus these options, host and clock. */
    RunFacts runFacts(String command, Map<String, String> transportFacts, Map<String, Object> settings,
                      String startedAt) {
        settings.put("timeout_ms", timeoutDuration().toMillis());
        settings.put("cpus", cpus == null ? "unpinned" : cpus[0] + "," + cpus[1]);
        settings.put("source_address", sourceAddress);
        return new RunFacts("fabprobe " + Main.version(), command, transport, transportFacts, settings,
                HostFacts.collect(), Clock.facts(), startedAt);
    }

    /** Refuses repetition counts that are impossible or would not fit in memory (every sample is kept). */
    static void checkCounts(int repetitions, int warmup) {
        if (repetitions < 1 || repetitions > MAX_REPETITIONS) {
            throw new IllegalArgumentException("--reps must be 1.." + MAX_REPETITIONS + " (every sample is kept)");
        }
        if (warmup < 0) throw new IllegalArgumentException("--warmup must be >= 0");
    }

    /** Prints the table unless JSON or CSV takes standard output, then writes the files. */
    void emit(String table, String jsonText, String csvText) throws IOException {
        boolean machineReadableOnStdout = "-".equals(String.valueOf(json)) || "-".equals(String.valueOf(csv));
        if (!machineReadableOnStdout) System.out.print(table);
        Output.write(json, jsonText);
        Output.write(csv, csvText);
    }
}
