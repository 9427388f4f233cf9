package org.fabprobe.transport;

import java.lang.foreign.MemorySegment;
import org.fabprobe.ExitCode;
import org.fabprobe.bindings.libc.Libc;

/**
 * Anonymous memory straight from mmap: pages never touched, so the first registration of them
 * pays whatever faulting in or pinning the library does. munmap on close gives the memory back
 * at once (a 1 GiB size needs 1 GiB only while it is measured, and only if the library touches it).
 */
public final class FreshPages implements AutoCloseable {
    private static final int PROT_READ = 1, PROT_WRITE = 2, MAP_PRIVATE = 2, MAP_ANONYMOUS = 0x20;
    private final MemorySegment pages;

    public FreshPages(long bytes) {
        MemorySegment p = Libc.mmap(MemorySegment.NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L);
        if (p.address() == -1L) throw new TransportException(ExitCode.UNSUPPORTED, "mmap of " + bytes + " bytes refused (memory)");
        pages = p.reinterpret(bytes);
    }

    public MemorySegment segment() {
        return pages;
    }

    @Override
    public void close() {
        Libc.munmap(pages, pages.byteSize());
    }
}
