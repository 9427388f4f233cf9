package org.fabprobe.result;

import java.util.Map;
import org.fabprobe.clock.ClockFacts;

/**
 * What every measuring command's document starts with: its schema name, the tool, the run's
 * inputs (settings), the transport and its facts, the host, the clock, and when it started.
 * Settings and transport facts are open sets of names (each command and library has its own),
 * so they stay maps; their schemas list the names each command writes.
 */
public interface RunDocument {
    String schema();

    String tool();

    String command();

    String transport();

    Map<String, String> transportFacts();

    Map<String, Object> settings();

    Host host();

    /** The mirror's host (empty where the mirror runs this same command line: MPI, collectives). */
    Map<String, String> mirrorHost();

    ClockFacts clock();

    String startedAt();

    double wallSeconds();
}
