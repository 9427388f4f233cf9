package org.fabprobe.cli;

/**
 * A command that meets a mirror where its {@link SessionOptions} say. {@link Main} checks such a
 * command right after picocli has parsed it and only then starts its local mirror, so that a bad
 * command line never starts one.
 */
interface MeetsMirror {
    SessionOptions session();

    /**
     * Refuses options the command cannot run with (IllegalArgumentException, FabprobeException):
     * only what is quick to check, nothing native is loaded and nothing opened.
     */
    void check();
}
