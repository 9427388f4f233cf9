package org.fabprobe.api;

import org.fabprobe.result.PingPongDocument;

/**
 * A ping-pong sweep: its document, and the one fact the document states only as a flag, the CPU
 * measure and mirror shared (-1: none), which the table's first line names.
 */
public record PingPongResult(PingPongDocument document, int sharedCpu) {
    /** The table's first line ends with this: the shared CPU's note, or nothing. */
    public String headerNote() {
        return RunFacts.headerNote(sharedCpu);
    }
}
