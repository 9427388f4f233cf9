package org.fabprobe.result;

import java.util.Map;
import org.fabprobe.clock.ClockFacts;

/**
 * What every measuring command's document starts with (written flat, ahead of the command's own
 * fields): its schema name, the tool, the run's inputs (settings, one record per command), the
 * transport and its facts, both hosts, the clock, and when it started and how long it took.
 * Transport facts and hosts stay maps: each library and host has its own open set of names.
 *
 * @param mirrorHost the mirror's host (empty where the mirror runs this same command line: MPI, collectives)
 */
public record RunHeader<S>(String schema, String tool, String command, String transport, Map<String, String> transportFacts,
                           S settings, Host host, Map<String, String> mirrorHost, ClockFacts clock, String startedAt,
                           double wallSeconds) {}
