package org.fabprobe.bindings.libc;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.fabprobe.bindings.Downcalls;

/**
 * Every libc function fabprobe calls, one static method each, so that no other class looks up
 * libc symbols or builds downcall handles of its own. Each handle lives in a holder class of
 * its own and is linked on first use: a process pays only for the calls it makes (the first
 * handle of a process costs milliseconds of FFM set-up). None of these calls is on a timing
 * path, so none is a critical downcall.
 */
public final class Libc {
    private static final Linker LINKER = Linker.nativeLinker();

    private Libc() {}

    private static MethodHandle handle(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor, options);
    }

    // process and environment

    private static final class Exit {
        /** Null where libc has no _exit. */
        static final MethodHandle HANDLE = LINKER.defaultLookup().find("_exit")
                .map(symbol -> LINKER.downcallHandle(symbol, FunctionDescriptor.ofVoid(JAVA_INT)))
                .orElse(null);
    }

    /** Links {@link #_exit} now, for a caller that must not load classes when it needs it. */
    public static void linkExit() {
        MethodHandle ignored = Exit.HANDLE;
    }

    /** _exit(2): ends the process at once. Returns only where libc has no _exit, for the caller's fallback. */
    public static void _exit(int status) {
        if (Exit.HANDLE == null) return;
        try {
            Exit.HANDLE.invokeExact(status);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    private static final class Setenv {
        static final MethodHandle HANDLE = handle("setenv", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
    }

    /** setenv(3) in this process's C environment (not Java's start-up snapshot of it); 0 or -1. */
    public static int setenv(String name, String value, int overwrite) {
        try (Arena arena = Arena.ofConfined()) {
            return (int) Setenv.HANDLE.invokeExact(arena.allocateFrom(name), arena.allocateFrom(value), overwrite);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    private static final class Isatty {
        static final MethodHandle HANDLE = handle("isatty", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    }

    /** isatty(3): 1 if {@code fd} is a terminal, else 0. */
    public static int isatty(int fd) {
        try {
            return (int) Isatty.HANDLE.invokeExact(fd);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    private static final class Dlopen {
        static final MethodHandle HANDLE = handle("dlopen", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
    }

    /** dlopen(3): the library's handle, or NULL. */
    public static MemorySegment dlopen(String filename, int flags) {
        try (Arena arena = Arena.ofConfined()) {
            return (MemorySegment) Dlopen.HANDLE.invokeExact(arena.allocateFrom(filename), flags);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // scheduling and resource usage

    private static final class SchedSetscheduler {
        static final MethodHandle HANDLE = handle("sched_setscheduler", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    }

    /** sched_setscheduler(2) of thread {@code pid} (0: the calling thread); 0 or -1. */
    public static int sched_setscheduler(int pid, int policy, MemorySegment param) {
        try {
            return (int) SchedSetscheduler.HANDLE.invokeExact(pid, policy, param);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Where the affinity calls leave errno. */
    private static final class CallState {
        static final StructLayout LAYOUT = Linker.Option.captureStateLayout();
        static final VarHandle ERRNO = LAYOUT.varHandle(PathElement.groupElement("errno"));
    }

    /** int sched_[sg]etaffinity(pid_t pid, size_t cpusetsize, cpu_set_t *mask), errno captured. */
    private static MethodHandle affinityHandle(String name) {
        return handle(name, FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), Linker.Option.captureCallState("errno"));
    }

    private static final class SchedSetaffinity {
        static final MethodHandle HANDLE = affinityHandle("sched_setaffinity");
    }

    private static final class SchedGetaffinity {
        static final MethodHandle HANDLE = affinityHandle("sched_getaffinity");
    }

    /** sched_setaffinity(2) of thread {@code pid} (0: the calling thread); 0, or the errno of its failure. */
    public static int sched_setaffinity(int pid, long cpusetsize, MemorySegment mask) {
        return affinityCall(SchedSetaffinity.HANDLE, pid, cpusetsize, mask);
    }

    /** sched_getaffinity(2) of thread {@code pid} (0: the calling thread) into {@code mask}; 0, or the errno of its failure. */
    public static int sched_getaffinity(int pid, long cpusetsize, MemorySegment mask) {
        return affinityCall(SchedGetaffinity.HANDLE, pid, cpusetsize, mask);
    }

    private static int affinityCall(MethodHandle affinity, int pid, long cpusetsize, MemorySegment mask) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CallState.LAYOUT);
            int rc = (int) affinity.invokeExact(state, pid, cpusetsize, mask);
            return rc == 0 ? 0 : (int) CallState.ERRNO.get(state, 0L);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    private static final class Getrusage {
        static final MethodHandle HANDLE = handle("getrusage", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    }

    /** getrusage(2) into {@code usage} (a struct rusage); 0 or -1. Allocates nothing: callers read it around timed batches. */
    public static int getrusage(int who, MemorySegment usage) {
        try {
            return (int) Getrusage.HANDLE.invokeExact(who, usage);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // signals

    private static final class Sigaction {
        static final MethodHandle HANDLE = handle("sigaction", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    }

    /** sigaction(2): installs {@code action} unless NULL, saves the old one into {@code oldAction} unless NULL; 0 or -1. */
    public static int sigaction(int signal, MemorySegment action, MemorySegment oldAction) {
        try {
            return (int) Sigaction.HANDLE.invokeExact(signal, action, oldAction);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // memory

    private static final class Mmap {
        static final MethodHandle HANDLE = handle("mmap",
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    }

    /** mmap(2): the mapping, or MAP_FAILED (address -1). */
    public static MemorySegment mmap(MemorySegment addr, long length, int prot, int flags, int fd, long offset) {
        try {
            return (MemorySegment) Mmap.HANDLE.invokeExact(addr, length, prot, flags, fd, offset);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    private static final class Mprotect {
        static final MethodHandle HANDLE = handle("mprotect", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    }

    /** mprotect(2); 0 or -1. */
    public static int mprotect(MemorySegment addr, long length, int prot) {
        try {
            return (int) Mprotect.HANDLE.invokeExact(addr, length, prot);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    private static final class Munmap {
        static final MethodHandle HANDLE = handle("munmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    }

    /** munmap(2); 0 or -1. */
    public static int munmap(MemorySegment addr, long length) {
        try {
            return (int) Munmap.HANDLE.invokeExact(addr, length);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    private static final class Free {
        static final MethodHandle HANDLE = handle("free", FunctionDescriptor.ofVoid(ADDRESS));
    }

    /** free(3). */
    public static void free(MemorySegment ptr) {
        try {
            Free.HANDLE.invokeExact(ptr);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // strings and streams

    private static final class Strdup {
        static final MethodHandle HANDLE = handle("strdup", FunctionDescriptor.of(ADDRESS, ADDRESS));
    }

    /** strdup(3): a malloc'ed copy of {@code s}, owned by whoever frees it. */
    public static MemorySegment strdup(String s) {
        try (Arena arena = Arena.ofConfined()) {
            return (MemorySegment) Strdup.HANDLE.invokeExact(arena.allocateFrom(s));
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    private static final class Strerror {
        static final MethodHandle HANDLE = handle("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    /** strerror(3)'s text for {@code errnum}. */
    public static String strerror(int errnum) {
        try {
            return ((MemorySegment) Strerror.HANDLE.invokeExact(errnum)).reinterpret(Long.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    private static final class OpenMemstream {
        static final MethodHandle HANDLE = handle("open_memstream", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    }

    /** open_memstream(3): a FILE* writing into a buffer that *{@code bufOut} points to after fclose; or NULL. */
    public static MemorySegment open_memstream(MemorySegment bufOut, MemorySegment sizeOut) {
        try {
            return (MemorySegment) OpenMemstream.HANDLE.invokeExact(bufOut, sizeOut);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    private static final class Fclose {
        static final MethodHandle HANDLE = handle("fclose", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    }

    /** fclose(3); 0 or EOF. */
    public static int fclose(MemorySegment stream) {
        try {
            return (int) Fclose.HANDLE.invokeExact(stream);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }
}
