package org.fabprobe;

/**
 * Where measuring code says that its next step begins, for the progress line ({@link Progress}).
 * Called between timed sections only (before a size, a curve, a launch), from the methods that
 * loop over steps, never from the methods that time: those stay small, so the JIT compiles
 * them alike with or without a line.
 */
public interface Steps {
    /** No line: every call returns at once, nothing allocated. */
    Steps NONE = new Steps() {
        @Override
        public void next(String what, long bytes) {}

        @Override
        public void more(int steps) {}

        @Override
        public void phase(String what) {}
    };

    /**
     * The next step begins: {@code what} (a constant text, e.g. "o_s, o_r, g(m) at"), at
     * {@code bytes} (shown as a size; -1 for none). Nothing is formatted unless it is drawn.
     */
    void next(String what, long bytes);

    /** {@code steps} more than announced will follow (adaptive methods add sizes as they go). */
    void more(int steps);

    /** Something before the first step (the JIT warm-up), not counted as one. */
    void phase(String what);
}
