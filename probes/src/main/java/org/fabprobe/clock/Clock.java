package org.fabprobe.clock;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The time source of every timing loop: the CPU's time-stamp counter where it is usable,
 * else System.nanoTime (CLOCK_MONOTONIC). Which one, and why, is in {@link #facts()}.
 *
 * <p>rdtsc is reached without a C compiler or a shipped library: at start-up ten bytes of
 * machine code ({@code rdtsc; shl rdx,32; or rax,rdx; ret}) are written into a page that is
 * then made executable, and a critical downcall handle points at it. The page lives as long
 * as the process. No lfence: a ping-pong interval spans hundreds of ns of dependent memory
 * traffic, so out-of-order skew of a few cycles is below the resolution that matters, and
 * the fence would double the read cost.
 */
public final class Clock {
    /** rdtsc; shl rdx, 32; or rax, rdx; ret */
    private static final byte[] RDTSC_CODE = {0x0F, 0x31, 0x48, (byte) 0xC1, (byte) 0xE2, 0x20, 0x48, 0x09,
            (byte) 0xD0, (byte) 0xC3};

    private static final String FALLBACK_REASON;
    private static final MethodHandle RDTSC;
    private static final boolean USE_TSC;
    private static final double TICKS_PER_NS;
    private static final double NS_PER_TICK;
    private static final double CALIBRATION_MS;
    private static final boolean CONSTANT_TSC;
    private static final boolean NONSTOP_TSC;

    static {
        String flags = cpuFlags();
        CONSTANT_TSC = flags.contains(" constant_tsc ");
        NONSTOP_TSC = flags.contains(" nonstop_tsc ");
        String reason = tscUnusableReason();
        MethodHandle rdtsc = null;
        if (reason.isEmpty()) {
            try {
                rdtsc = executable(RDTSC_CODE);
            } catch (Throwable t) {
                reason = "cannot map executable rdtsc code: " + t.getMessage();
            }
        }
        double ticksPerNs = 1.0;
        long calibrationStart = System.nanoTime();
        if (rdtsc != null) {
            ticksPerNs = calibrate(rdtsc);
            if (!(ticksPerNs > 0.1 && ticksPerNs < 20)) {
                reason = String.format(Locale.ROOT, "TSC calibration implausible (%.3f GHz)", ticksPerNs);
                rdtsc = null;
                ticksPerNs = 1.0;
            }
        }
        CALIBRATION_MS = (System.nanoTime() - calibrationStart) / 1e6;
        FALLBACK_REASON = reason;
        USE_TSC = rdtsc != null;
        RDTSC = rdtsc != null ? rdtsc : nanoTimeHandle();
        TICKS_PER_NS = ticksPerNs;
        NS_PER_TICK = 1.0 / ticksPerNs;
    }

    private static volatile ClockFacts facts;

    private Clock() {}

    /** The time in ticks. Hot path: allocation-free, a few ns on the TSC. */
    public static long now() {
        if (USE_TSC) {
            try {
                return (long) RDTSC.invokeExact();
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }
        return System.nanoTime();
    }

    public static double toNs(long ticks) {
        return ticks * NS_PER_TICK;
    }

    public static long fromNs(double ns) {
        return (long) (ns * TICKS_PER_NS);
    }

    public static double nsPerTick() {
        return NS_PER_TICK;
    }

    public static boolean usesTsc() {
        return USE_TSC;
    }

    /** TICK1 / TICK2 and the rest, measured once on first use (about 60 ms). */
    public static ClockFacts facts() {
        ClockFacts f = facts;
        if (f == null) {
            synchronized (Clock.class) {
                if (facts == null) facts = measureFacts();
                f = facts;
            }
        }
        return f;
    }

    private static ClockFacts measureFacts() {
        // TICK1: read cost = mean of back-to-back reads; resolution = smallest non-zero step
        int reads = 200_000;
        long minStep = Long.MAX_VALUE;
        for (int warm = 0; warm < 3; warm++) {
            long previous = now();
            long start = previous;
            for (int i = 0; i < reads; i++) {
                long t = now();
                long step = t - previous;
                if (step > 0 && step < minStep) minStep = step;
                previous = t;
            }
            if (warm == 2) {
                double readCostNs = toNs(previous - start) / reads;
                double tick2 = tick2ErrorPpm();
                return new ClockFacts(USE_TSC ? "tsc" : "nanotime", FALLBACK_REASON, TICKS_PER_NS, CONSTANT_TSC,
                        NONSTOP_TSC, readCostNs, toNs(minStep), tick2, CALIBRATION_MS);
            }
        }
        throw new AssertionError();
    }

    /** TICK2: an interval timed by this clock and by CLOCK_MONOTONIC, in ppm. */
    private static double tick2ErrorPpm() {
        long ns0 = System.nanoTime(), t0 = now();
        long end = ns0 + 50_000_000L;
        while (System.nanoTime() < end) Thread.onSpinWait();
        long ns1 = System.nanoTime(), t1 = now();
        return (toNs(t1 - t0) - (ns1 - ns0)) / (ns1 - ns0) * 1e6;
    }

    /** Ticks per ns over ~20 ms against CLOCK_MONOTONIC, each end taken at the tightest bracket. */
    private static double calibrate(MethodHandle rdtsc) {
        long[] start = bracket(rdtsc);
        long until = System.nanoTime() + 20_000_000L;
        while (System.nanoTime() < until) Thread.onSpinWait();
        long[] end = bracket(rdtsc);
        return (double) (end[1] - start[1]) / (end[0] - start[0]);
    }

    /** {nanoTime, tsc} read as close together as 50 tries allow. */
    private static long[] bracket(MethodHandle rdtsc) {
        long bestWidth = Long.MAX_VALUE;
        long[] best = new long[2];
        for (int i = 0; i < 50; i++) {
            try {
                long before = System.nanoTime();
                long tsc = (long) rdtsc.invokeExact();
                long after = System.nanoTime();
                if (after - before < bestWidth) {
                    bestWidth = after - before;
                    best[0] = before + (after - before) / 2;
                    best[1] = tsc;
                }
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }
        return best;
    }

    private static String tscUnusableReason() {
        String forced = System.getProperty("fabprobe.clock", System.getenv().getOrDefault("FABPROBE_CLOCK", ""));
        if (forced.equals("nanotime")) return "forced by fabprobe.clock=nanotime";
        String arch = System.getProperty("os.arch");
        if (!arch.equals("amd64") && !arch.equals("x86_64")) return "no x86 TSC on " + arch;
        if (!System.getProperty("os.name").equals("Linux")) return "TSC support is Linux-only";
        if (!CONSTANT_TSC || !NONSTOP_TSC) return "TSC not invariant (constant_tsc/nonstop_tsc missing in /proc/cpuinfo)";
        return "";
    }

    private static String cpuFlags() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("flags"))
                    .findFirst().map(l -> " " + l.substring(l.indexOf(':') + 1).trim() + " ").orElse(" ");
        } catch (IOException e) {
            return " ";
        }
    }

    /** Copies {@code code} into a fresh page, makes it read+execute, and returns a downcall to it. */
    private static MethodHandle executable(byte[] code) throws Throwable {
        Linker linker = Linker.nativeLinker();
        var libc = linker.defaultLookup();
        MethodHandle mmap = linker.downcallHandle(libc.find("mmap").orElseThrow(),
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
        MethodHandle mprotect = linker.downcallHandle(libc.find("mprotect").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
        int protRead = 1, protWrite = 2, protExec = 4, mapPrivate = 2, mapAnonymous = 0x20;
        long pageSize = 4096;
        MemorySegment page = (MemorySegment) mmap.invokeExact(MemorySegment.NULL, pageSize, protRead | protWrite,
                mapPrivate | mapAnonymous, -1, 0L);
        if (page.address() == -1L || page.equals(MemorySegment.NULL)) throw new IllegalStateException("mmap failed");
        MemorySegment.copy(MemorySegment.ofArray(code), 0, page.reinterpret(pageSize), 0, code.length);
        if ((int) mprotect.invokeExact(page, pageSize, protRead | protExec) != 0) {
            throw new IllegalStateException("mprotect(PROT_EXEC) refused");
        }
        return linker.downcallHandle(page, FunctionDescriptor.of(JAVA_LONG), Linker.Option.critical(false));
    }

    private static MethodHandle nanoTimeHandle() {
        try {
            return java.lang.invoke.MethodHandles.lookup().findStatic(System.class, "nanoTime",
                    java.lang.invoke.MethodType.methodType(long.class));
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
