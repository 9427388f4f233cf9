package org.fabprobe.transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A transport's send and receive buffers, each of {@link TransportOptions#bufferBytes()}:
 * page-aligned, as memory registration wants, and zero-filled, so touched and backed before a
 * library registers them (libfabric's FI_MR_ALLOCATED).
 */
public record Buffers(MemorySegment send, MemorySegment recv) {
    private static final long PAGE_BYTES = 4096;
    /** Never empty: a run of 0-byte messages still registers a buffer and sends from its address. */
    private static final long MIN_BYTES = 64;

    /** Both buffers, allocated in {@code arena}: they live as long as it does. */
    public static Buffers allocate(Arena arena, TransportOptions options) {
        return new Buffers(allocateOne(arena, options), allocateOne(arena, options));
    }

    /** One buffer of {@link #bytes}, allocated in {@code arena}. */
    public static MemorySegment allocateOne(Arena arena, TransportOptions options) {
        return arena.allocate(bytes(options), PAGE_BYTES);
    }

    /** The size of each buffer. */
    public static long bytes(TransportOptions options) {
        return Math.max(options.bufferBytes(), MIN_BYTES);
    }
}
