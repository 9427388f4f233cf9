package org.fabprobe.transport.ofi;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/** The one libc call the ofi transport needs: strings that libfabric will free(). */
final class Libc {
    private static final MethodHandle STRDUP = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("strdup").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, ADDRESS));

    private Libc() {}

    /** A malloc'ed copy of {@code s}, owned by whoever frees it (fi_freeinfo). */
    static MemorySegment strdup(String s) {
        try (Arena arena = Arena.ofConfined()) {
            return (MemorySegment) STRDUP.invokeExact(arena.allocateFrom(s));
        } catch (Throwable t) {
            throw new IllegalStateException("strdup failed", t);
        }
    }
}
