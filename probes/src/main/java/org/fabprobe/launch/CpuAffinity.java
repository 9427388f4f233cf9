package org.fabprobe.launch;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.stream.IntStream;

/** Pins the calling thread to one CPU with sched_setaffinity, through FFM. */
public final class CpuAffinity {
    private static final int MASK_BYTES = 128; // cpu_set_t: 1024 CPUs
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle SET = handle("sched_setaffinity");
    private static final MethodHandle GET = handle("sched_getaffinity");
    private static final MethodHandle STRERROR = LINKER.downcallHandle(LINKER.defaultLookup().find("strerror").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, JAVA_INT));

    private CpuAffinity() {}

    private static MethodHandle handle(String name) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), Linker.Option.captureCallState("errno"));
    }

    /** Pins the calling thread (pid 0 = this thread) to {@code cpu}. */
    public static void pinCurrentThread(int cpu) {
        if (cpu < 0 || cpu >= MASK_BYTES * 8) {
            throw new IllegalArgumentException("cannot pin to CPU " + cpu + ": out of range 0.." + (MASK_BYTES * 8 - 1));
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = arena.allocate(CAPTURE);
            MemorySegment mask = arena.allocate(MASK_BYTES);
            mask.set(java.lang.foreign.ValueLayout.JAVA_BYTE, cpu / 8, (byte) (1 << (cpu % 8)));
            int rc = (int) SET.invokeExact(errno, 0, (long) MASK_BYTES, mask);
            if (rc != 0) {
                throw new IllegalArgumentException("cannot pin to CPU " + cpu + ": "
                        + strerror((int) ERRNO.get(errno, 0L)) + " (allowed: " + describe(allowedCpus()) + ")");
            }
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("sched_setaffinity failed", t);
        }
    }

    /** The CPUs this thread may run on. */
    public static int[] allowedCpus() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = arena.allocate(CAPTURE);
            MemorySegment mask = arena.allocate(MASK_BYTES);
            int rc = (int) GET.invokeExact(errno, 0, (long) MASK_BYTES, mask);
            if (rc != 0) throw new IllegalStateException("sched_getaffinity: " + strerror((int) ERRNO.get(errno, 0L)));
            return IntStream.range(0, MASK_BYTES * 8)
                    .filter(cpu -> (mask.get(java.lang.foreign.ValueLayout.JAVA_BYTE, cpu / 8) & (1 << (cpu % 8))) != 0)
                    .toArray();
        } catch (IllegalStateException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("sched_getaffinity failed", t);
        }
    }

    private static String describe(int[] cpus) {
        return String.join(",", IntStream.of(cpus).mapToObj(Integer::toString).toList());
    }

    private static String strerror(int errno) throws Throwable {
        return ((MemorySegment) STRERROR.invokeExact(errno)).reinterpret(256).getString(0);
    }
}
