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

    /**
     * A critical downcall (no thread-state transition; the call must not block, call back into
     * Java or take long) on a symbol, every pointer passed as a raw 64-bit address.
     */
    public static java.lang.invoke.MethodHandle critical(java.lang.foreign.MemorySegment symbol,
                                                         java.lang.foreign.FunctionDescriptor descriptor) {
        return java.lang.foreign.Linker.nativeLinker().downcallHandle(symbol, descriptor,
                java.lang.foreign.Linker.Option.critical(false));
    }
}
