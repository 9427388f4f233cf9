package org.fabprobe.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.fabprobe.Progress;
import org.fabprobe.Steps;
import org.fabprobe.api.Durations;
import org.fabprobe.api.SessionSettings;
import org.fabprobe.result.ResultJson;
import org.fabprobe.runtime.CpuAffinity;
import org.fabprobe.transport.TransportName;
import picocli.CommandLine.Option;

/** Options every measuring subcommand shares: what to measure over, where the mirror is, where results go. */
final class SessionOptions {
    @Option(names = {"-t", "--transport"}, defaultValue = "ofi:shm",
            description = {"ofi:PROVIDER (ofi:shm, ofi:tcp, ofi:udp, ofi:verbs, ...), ucx:TLS (ucx:tcp, ucx:posix,cma,",
                    "ucx:rc, ...), mpi:IMPL[/SELECTION] (mpi:openmpi/ob1:vader, mpi:openmpi/ucx:tcp, mpi:mpich/ucx:tcp, ...)",
                    "or sim:L=..,os=..,or=..,g=..,G=..[;>SIZE:...] (emulated). Default: ${DEFAULT-VALUE}"})
    String transport;

    @Option(names = "--peer", paramLabel = "HOST[:PORT]",
            description = "Measure against 'fabprobe mirror --listen' on another host (default port 7470) instead of a local mirror.")
    String peer;

    @Option(names = "--secret-file", paramLabel = "FILE",
            description = "The secret shared with the mirror (from 'fabprobe secret'); else $FABPROBE_SECRET.")
    Path secretFile;

    @Option(names = "--insecure", description = "Accept a mirror that runs without a secret.")
    boolean insecure;

    @Option(names = "--timeout", defaultValue = "5s",
            description = "Longest wait for the peer before failing (e.g. 500ms, 5s, 1m). Default: ${DEFAULT-VALUE}")
    String timeout;

    @Option(names = "--cpus", split = ",", description = "Pin measure and mirror to these two CPUs, e.g. 0,1.")
    int[] cpus;

    @Option(names = "--src-addr", paramLabel = "ADDRESS",
            description = "Address network transports bind to. Default: the interface the mirror is reached"
                    + " through (local mode: 127.0.0.1).")
    String sourceAddress;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the full result as JSON (- for stdout, replacing the table).")
    Path json;

    @Option(names = "--csv", paramLabel = "FILE", description = "Also write per-size rows as CSV (- for stdout, replacing the table).")
    Path csv;

    @Option(names = {"-q", "--quiet"}, description = "No progress line on stderr (it is drawn only on a terminal).")
    boolean quiet;

    @Option(names = "--plot", paramLabel = "FILE", converter = PlotFile.class, description = PlotFile.DESCRIPTION)
    Path plot;

    /** Refuses what is wrong in these options before anything starts: the timeout, --cpus, the transport's family, the output paths. */
    void check() {
        settings();
        // a local mirror inherits this process's CPUs: a CPU outside them is refused here, not by the started mirror
        if (cpus != null) {
            for (int i = 0; i < (peer == null ? 2 : 1); i++) {
                try {
                    CpuAffinity.checkAllowed(cpus[i]);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--cpus: " + e.getMessage());
                }
            }
        }
        TransportName.parse(transport);
        Output.check("--json", json);
        Output.check("--csv", csv);
        Output.check("--plot", plot);
    }

    Duration timeoutDuration() {
        try {
            return Durations.parse(timeout);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--timeout: " + e.getMessage());
        }
    }

    /** These options as the API's settings. */
    SessionSettings settings() {
        return new SessionSettings(transport, peer, secretFile, insecure, timeoutDuration(), cpus, sourceAddress);
    }

    /**
     * Starts the progress line of {@code command} over this transport with {@code steps} steps (a
     * no-op unless stderr is a terminal and not --quiet). Under a launcher only the measure rank
     * reports steps (the mirror half never does), and draws only if its own stderr is a terminal.
     */
    Steps progress(String command, int steps) {
        return Progress.start(command + " " + transport, steps, quiet);
    }

    /**
     * Prints the table unless JSON or CSV takes standard output, then writes the files and the
     * picture; hands only the document over where someone waits for it ({@link Delivery}).
     */
    void emit(String table, Object document, String csvText) throws IOException {
        Progress.end();
        if (Delivery.handOver(document)) return; // a caller in this process or the launching process takes it
        boolean machineReadableOnStdout = "-".equals(String.valueOf(json)) || "-".equals(String.valueOf(csv));
        if (!machineReadableOnStdout) System.out.print(table);
        if (json != null) Output.write(json, ResultJson.write(document)); // no serializer start-up (~15 ms) for nothing
        Output.write(csv, csvText);
        Output.draw(plot, document);
    }
}
