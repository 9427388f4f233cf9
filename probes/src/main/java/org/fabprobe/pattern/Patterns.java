package org.fabprobe.pattern;

import org.fabprobe.transport.Control;
import org.fabprobe.transport.Transport;

/** The shape every mirror half has (see {@link Schedule#mirrorHalf()}). */
public final class Patterns {
    private Patterns() {}

    /** The mirror half of one pattern. */
    public interface MirrorHalf {
        void run(Transport t, Await await, Control control);
    }
}
