package org.fabprobe.bindings;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import org.fabprobe.bindings.libc.Libc;

/**
 * fabprobe's own few bytes of x86-64 machine code, run without a C compiler or a shipped
 * library: copied into a fresh anonymous page that is then made read+execute (never writable
 * and executable at once). A page is never unmapped: the handles to it live in static final
 * fields and stay callable until the process exits (if mprotect fails, the 4 KiB stay mapped
 * too, once per process). Used for the clock's rdtsc and for UCP completion callbacks
 * ({@link org.fabprobe.bindings.ucx.UcpCompletion}).
 */
public final class ExecutablePage {
    private static final int PROT_READ = 1, PROT_WRITE = 2, PROT_EXEC = 4, MAP_PRIVATE = 2, MAP_ANONYMOUS = 0x20;
    private static final long LENGTH = 4096; // mmap rounds up to the real page size

    private ExecutablePage() {}

    /** The page holding {@code code} from its first byte, read+execute. */
    public static MemorySegment map(byte[] code) throws Throwable {
        if (code.length > LENGTH) throw new IllegalArgumentException("code longer than a page");
        MemorySegment page = Libc.mmap(MemorySegment.NULL, LENGTH, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L);
        if (page.address() == -1L) throw new IllegalStateException("mmap refused an anonymous page");
        MemorySegment.copy(code, 0, page.reinterpret(LENGTH), JAVA_BYTE, 0, code.length);
        if (Libc.mprotect(page, LENGTH, PROT_READ | PROT_EXEC) != 0) {
            throw new IllegalStateException("mprotect(PROT_READ|PROT_EXEC) refused");
        }
        return page;
    }
}
