package org.fabprobe.launch;

/** What this process is in a session: Kielmann's measure and mirror (a launcher's ranks beyond the pair have no part and no role). */
public enum Role {
    /** Times the pattern and reports. */
    MEASURE,
    /** Echoes what measure sends. */
    MIRROR
}
