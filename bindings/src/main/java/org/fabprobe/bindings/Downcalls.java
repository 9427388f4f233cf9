package org.fabprobe.bindings;

/** Shared by the hot-path classes: what to do with a Throwable from MethodHandle.invokeExact. */
public final class Downcalls {
    private Downcalls() {}

    /** Unchecked exceptions and errors pass through; a checked one (impossible for a downcall) is wrapped. */
    public static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }
}
