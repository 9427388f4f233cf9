package org.fabprobe.transport;

import java.time.Duration;

/**
 * How to open a transport.
 *
 * @param bufferBytes  size of each registered buffer: the largest message the run will send
 * @param depth        how many sends (and receives) a pattern may have outstanding
 * @param timeout      how long any wait for the peer may take before the run fails
 * @param sourceNode   address the endpoint binds to for socket-based providers ("" = provider default)
 */
public record TransportOptions(long bufferBytes, int depth, Duration timeout, String sourceNode) {
    public TransportOptions {
        if (bufferBytes < 0) throw new IllegalArgumentException("buffer size must be >= 0");
        if (depth < 1) throw new IllegalArgumentException("depth must be >= 1");
    }
}
