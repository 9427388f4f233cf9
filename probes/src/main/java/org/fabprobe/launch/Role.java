package org.fabprobe.launch;

/** What this process is in a session: Kielmann's measure and mirror, or a rank with no part in it. */
public enum Role {
    /** Times the pattern and reports. */
    MEASURE,
    /** Echoes what measure sends. */
    MIRROR,
    /** A launcher rank beyond the pair: waits and leaves. */
    IDLE
}
