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
 */
public record RunFacts(String tool, String command, String transport,
                       Map<String, String> transportFacts, Map<String, Object> settings,
                       Host host, Map<String, String> mirrorHost, ClockFacts clock, String startedAt) {
}
