package org.fabprobe.api;

import java.util.Map;
import org.fabprobe.clock.ClockFacts;
import org.fabprobe.result.Host;

/**
 * Everything needed to reproduce and judge a run: inputs, environment, clock.
 *
 * @param tool        "fabprobe VERSION"
 * @param command     subcommand, e.g. "pingpong"
 * @param transport   transport name as given, e.g. "ofi:shm"
 * @param transportFacts provider, fabric, domain, mr_mode, inject size, library version, ...
 * @param settings    the method's inputs: warm-up, repetitions, timeout, cpus, sizes, ...
 * @param host        hostname, kernel, cpu model, jvm of the measure process
 * @param mirrorHost  the same of the mirror process (empty where the mirror runs this command line: MPI)
 * @param clock       the clock used
 * @param startedAt   ISO-8601 UTC start time
 * @param sharedCpu   the one CPU measure and mirror both ran on, or -1 (see Session.sharedCpu)
 */
public record RunFacts(String tool, String command, String transport,
                       Map<String, String> transportFacts, Map<String, Object> settings,
                       Host host, Map<String, String> mirrorHost, ClockFacts clock, String startedAt, int sharedCpu) {
    public RunFacts(String tool, String command, String transport, Map<String, String> transportFacts, Map<String, Object> settings,
                    Host host, Map<String, String> mirrorHost, ClockFacts clock, String startedAt) {
        this(tool, command, transport, transportFacts, settings, host, mirrorHost, clock, startedAt, -1);
    }

    /** What sharing one CPU does to every time, for the table's first line; null when measure and mirror did not. */
    public String sharedCpuNote() {
        return sharedCpu < 0 ? null : "measure and mirror share CPU " + sharedCpu + ": every message waits for a time slice";
    }

    /** The flag of a run on one CPU, or null. */
    public String sharedCpuFlag() {
        return sharedCpu < 0 ? null : "SHARED CPU: " + sharedCpuNote() + ", so times are the scheduler's, not the transport's";
    }

    /** The table's first line ends with this: the shared CPU's note, or nothing. */
    public String headerNote() {
        return sharedCpu < 0 ? "" : "  " + sharedCpuNote();
    }
}
