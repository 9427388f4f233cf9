package org.fabprobe.api;

import java.util.Map;
import org.fabprobe.clock.Clock;
import org.fabprobe.clock.ClockFacts;
import org.fabprobe.launch.HostFacts;
import org.fabprobe.result.Host;
import org.fabprobe.result.RunHeader;

/**
 * A run's header before it ends, and the one place headers are made: everything but the schema
 * and the wall time, which the document adds ({@link #header}). It also carries the CPU measure
 * and mirror shared, which the document states as a flag rather than a field.
 *
 * @param tool        "fabprobe VERSION"
 * @param command     subcommand, e.g. "pingpong"
 * @param transport   transport name as given, e.g. "ofi:shm"
 * @param transportFacts provider, fabric, domain, mr_mode, inject size, library version, ...
 * @param settings    the command's inputs (its document's Settings record)
 * @param host        hostname, kernel, cpu model, jvm of the measure process
 * @param mirrorHost  the same of the mirror process (empty where the mirror runs this command line: MPI)
 * @param clock       the clock used
 * @param startedAt   ISO-8601 UTC start time
 * @param sharedCpu   the one CPU measure and mirror both ran on, or -1 (see Session.sharedCpu)
 */
public record RunFacts<S>(String tool, String command, String transport, Map<String, String> transportFacts, S settings,
                          Host host, Map<String, String> mirrorHost, ClockFacts clock, String startedAt, int sharedCpu) {
    /** A run of {@code command} by this fabprobe on this host and clock, its mirror on {@code mirrorHost}. */
    public static <S> RunFacts<S> of(String command, String transport, Map<String, String> transportFacts, S settings,
                                     Map<String, String> mirrorHost, String startedAt, int sharedCpu) {
        return new RunFacts<>("fabprobe " + Fabprobe.version(), command, transport, transportFacts, settings,
                Host.of(HostFacts.collect()), mirrorHost, Clock.facts(), startedAt, sharedCpu);
    }

    /** A run whose ranks all run this command line (MPI, collectives): no mirror host of its own, no shared CPU. */
    public static <S> RunFacts<S> of(String command, String transport, Map<String, String> transportFacts, S settings,
                                     String startedAt) {
        return of(command, transport, transportFacts, settings, Map.of(), startedAt, -1);
    }

    /** The document's header: these facts under {@code schema}, with the run's wall time. */
    public RunHeader<S> header(String schema, double wallSeconds) {
        return new RunHeader<>(schema, tool, command, transport, transportFacts, settings, host, mirrorHost, clock, startedAt,
                wallSeconds);
    }

    /** What sharing one CPU does to every time, for the table's first line; null when measure and mirror did not. */
    public String sharedCpuNote() {
        return sharedCpuNote(sharedCpu);
    }

    private static String sharedCpuNote(int sharedCpu) {
        return sharedCpu < 0 ? null : "measure and mirror share CPU " + sharedCpu + ": every message waits for a time slice";
    }

    /** The flag of a run on one CPU, or null. */
    public String sharedCpuFlag() {
        return sharedCpu < 0 ? null : "SHARED CPU: " + sharedCpuNote() + ", so times are the scheduler's, not the transport's";
    }

    /** The table's first line ends with this: the shared CPU's note, or nothing. */
    public String headerNote() {
        return headerNote(sharedCpu);
    }

    static String headerNote(int sharedCpu) {
        return sharedCpu < 0 ? "" : "  " + sharedCpuNote(sharedCpu);
    }
}
