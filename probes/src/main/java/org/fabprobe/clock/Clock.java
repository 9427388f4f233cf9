package org.fabprobe.clock;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.fabprobe.bindings.ExecutablePage;
import org.fabprobe.runtime.IdlePriority;
import org.fabprobe.runtime.ThreadIds;

/**
 * The time source of every timing loop: the CPU's time-stamp counter where it is usable,
 * else System.nanoTime (CLOCK_MONOTONIC). Which one, and why, is in {@link #facts()}.
 *
 * <p>rdtsc is reached without a C compiler or a shipped library: at class initialization ten
 * bytes of machine code are mapped into a page of their own ({@link ExecutablePage}), and a
 * critical downcall handle points at it. The TSC is used only when it is invariant
 * (constant_tsc and nonstop_tsc), the page can be made executable, and the calibration against
 * CLOCK_MONOTONIC gives a plausible rate; otherwise the reason is kept in
 * {@link ClockFacts#fallbackReason()}. {@code -Dfabprobe.clock=nanotime} (or the environment
 * variable {@code FABPROBE_CLOCK=nanotime}) forces the fallback.
 */
public final class Clock {
    /**
     * {@code rdtsc; shl rdx,32; or rax,rdx; ret}. No lfence in front: measured on an AMD EPYC
     * (JDK 25) a read costs 11.4 ns without it and 23.8 ns with it, over the 12 ns budget. A
     * ping-pong interval spans hundreds of ns of dependent memory traffic, so letting rdtsc
     * move a few cycles out of order costs less accuracy than the fence's read cost would.
     */
    private static final byte[] RDTSC_CODE = {0x0F, 0x31, 0x48, (byte) 0xC1, (byte) 0xE2, 0x20, 0x48, 0x09,
            (byte) 0xD0, (byte) 0xC3};
    /** Rates an invariant TSC can have; outside them the calibration went wrong. */
    private static final double MIN_TICKS_PER_NS = 0.3, MAX_TICKS_PER_NS = 10;
    /** 0.1 %: 1 ns on a 1 us latency, less than one clock read. */
    private static final double MAX_CALIBRATION_ERROR = 1e-3;
    private static final long CALIBRATION_START_NS = 8_000_000, CALIBRATION_GAP_NS = 10_000_000,
            CALIBRATION_END_NS = 4_000_000;
    /** facts(): 0.1 s, so TICK1 sees now() compiled by C2 (after about 40 ms on an idle 2-core VM). */
    private static final long FACTS_NS = 100_000_000, PAIR_NS = 2_000_000;
    private static final int TICK1_BATCH = 2_000, MIN_PAIR_SAMPLES = 1_000;
    /**
     * TICK1 takes the cheapest of at least this many batches (and of all within FACTS_NS, at
     * most FACTS_MAX_NS): one batch that held a blocking JIT compilation once read 10 us per
     * read and was the only batch of the window, and every interval shorter than that was
     * then clamped to 0 (plogp read o_s = o_r = 0).
     */
    private static final int MIN_TICK1_BATCHES = 50;
    /** A batch this much (5 %) cheaper than the cheapest so far restarts TICK1's settling time. */
    private static final double TICK1_DROP = 0.05;
    /** Resolution: the share of the reads that must lie on the grid of the clock's quantum. */
    private static final double MIN_QUANTUM_SHARE = 0.75;
    /** No clock worth timing with advances by more than this (1 us at 1 GHz): larger steps are read costs. */
    private static final long MAX_QUANTUM_TICKS = 1000;
    /**
     * Fractional quanta searched: below 12 ticks, steps within 2 ticks of a multiple say nothing
     * (a counter of single ticks has them too); above 64 (26 ns at 2.4 GHz), no TSC seen advances.
     */
    private static final double MIN_FRACTIONAL_QUANTUM = 12, MAX_FRACTIONAL_QUANTUM = 64;
    /** Two reads that each round down to a tick, one of them maybe a tick up to stay monotonic. */
    private static final int STEP_TOLERANCE_TICKS = 2;
    private static final int RESOLUTION_BATCH = 256, RESOLUTION_BATCHES = 15;
    private static final long FACTS_MAX_NS = 1_000_000_000;

    private static final boolean CONSTANT_TSC, NONSTOP_TSC;
    private static final String FALLBACK_REASON;
    private static final boolean USE_TSC;
    /** The mapped rdtsc code, or System.nanoTime in the fallback so that TICK2 times either clock alike. */
    private static final MethodHandle RDTSC;
    private static final double TICKS_PER_NS, NS_PER_TICK, CALIBRATION_MS;

    static {
        Set<String> flags = cpuFlags();
        CONSTANT_TSC = flags.contains("constant_tsc");
        NONSTOP_TSC = flags.contains("nonstop_tsc");
        String forced = System.getProperty("fabprobe.clock", Objects.requireNonNullElse(System.getenv("FABPROBE_CLOCK"), ""));
        String reason = tscUnusableReason(forced, System.getProperty("os.arch"), System.getProperty("os.name"), flags);
        MethodHandle rdtsc = null;
        double ticksPerNs = 1.0, calibrationMs = 0;
        if (reason.isEmpty()) {
            try {
                rdtsc = mapRdtsc();
                long start = System.nanoTime();
                Calibration c = calibrate(rdtsc);
                calibrationMs = (System.nanoTime() - start) / 1e6;
                ticksPerNs = c.ticksPerNs();
                if (!(ticksPerNs > MIN_TICKS_PER_NS && ticksPerNs < MAX_TICKS_PER_NS)) {
                    reason = String.format(Locale.ROOT, "TSC calibration implausible (%.3f GHz)", ticksPerNs);
                } else if (c.maxError() > MAX_CALIBRATION_ERROR) {
                    reason = String.format(Locale.ROOT, "TSC calibration too noisy (up to %.0f ppm)", c.maxError() * 1e6);
                }
            } catch (Throwable t) {
                reason = "cannot run rdtsc from a mapped page: " + t;
            }
        }
        FALLBACK_REASON = reason;
        USE_TSC = reason.isEmpty();
        RDTSC = USE_TSC ? rdtsc : nanoTimeHandle();
        TICKS_PER_NS = USE_TSC ? ticksPerNs : 1.0;
        NS_PER_TICK = 1.0 / TICKS_PER_NS;
        CALIBRATION_MS = calibrationMs;
    }

    private Clock() {}

    /** The time in ticks. Hot path: allocation-free; the branch is folded by the JIT. */
    public static long now() {
        try {
            return USE_TSC ? (long) RDTSC.invokeExact() : System.nanoTime();
        } catch (Throwable t) {
            throw new AssertionError(t); // the mapped code cannot throw
        }
    }

    /** Whether {@link #now} reads the time-stamp counter (else System.nanoTime). */
    static boolean usesTsc() {
        return USE_TSC;
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

    /** TICK1, TICK2 and the rest, measured on first use (about 0.1 s) and then cached. */
    public static ClockFacts facts() {
        // a thread measuring them at idle priority gets no CPU on a busy host: whoever waits
        // for the facts brings it back to normal priority first (or it sees the wait itself)
        ClockFacts known = factsKnown;
        if (known != null) return known;
        factsAwaited = true;
        int helper = factsHelper;
        if (helper > 0) IdlePriority.restore(helper);
        return factsKnown = Facts.FACTS;
    }

    /** The kernel id of the idle-priority thread measuring {@link #facts} now, or 0; and whether a thread waits for them. */
    private static volatile int factsHelper;
    private static volatile boolean factsAwaited;
    private static volatile ClockFacts factsKnown;

    /**
     * Starts measuring {@link #facts} in a daemon thread, for a process that would otherwise
     * wait (measure, while its mirror starts): the 0.1 s then leave the end of the run.
     */
    public static void measureFactsInBackground() {
        Thread.ofPlatform().daemon().name("fabprobe-clock-facts").start(() -> {
            // the measurement takes the cheapest of its batches, so preemption costs it nothing,
            // while its 0.1 s of spinning took a CPU from the mirror's library load (the start's
            // critical path); at idle priority only where facts() can bring it back
            if (IdlePriority.restorable()) {
                factsHelper = ThreadIds.current();
                IdlePriority.lower(0);
                if (factsAwaited) IdlePriority.restore(0);
            }
            try {
                ClockFacts ignored = Facts.FACTS;
            } finally {
                factsHelper = 0;
            }
        });
    }

    /** Starts this class's initialization (mapping rdtsc, calibrating it: ~30 ms) in a daemon thread. */
    public static void initializeInBackground() {
        Thread.ofPlatform().daemon().name("fabprobe-clock-calibration").start(Clock::nsPerTick);
    }

    /** Holder: class initialization makes the measurement lazy and once-only. */
    private static final class Facts {
        static final ClockFacts FACTS = measureFacts();
    }

    /**
     * PARKBENCH TICK1 and TICK2 in one pass of about 0.1 s: TICK2 times the interval in which
     * TICK1 runs, with this clock and with CLOCK_MONOTONIC.
     */
    private static ClockFacts measureFacts() {
        try {
            Pair start = tightestPair(RDTSC, PAIR_NS);
            // TICK1: batches of back-to-back reads. The cheapest batch is the steady state (the
            // first ones run before the JIT has compiled now(), some are hit by interrupts): its
            // mean step is the read cost.
            double readCostNs = Double.MAX_VALUE;
            long end = start.ns() + FACTS_NS, limit = start.ns() + FACTS_MAX_NS, lastDrop = start.ns();
            int batches = 0;
            long[] reads = new long[TICK1_BATCH + 1];
            do {
                double batchNs = tick1Batch(reads);
                long now = System.nanoTime();
                if (batchNs < readCostNs * (1 - TICK1_DROP)) lastDrop = now;
                readCostNs = Math.min(readCostNs, batchNs);
                batches++;
                if (now - limit > 0) break;
                // done once the cheapest batch has held for as long as it took to find: a read cost
                // still falling is now() not yet compiled (the compilers got no CPU on a busy host)
                boolean settled = now - lastDrop >= lastDrop - start.ns();
                if (batches >= MIN_TICK1_BATCHES && now - end >= 0 && settled) break;
            } while (true);
            double quantum = resolutionTicks();
            Pair stop = tightestPair(RDTSC, PAIR_NS);
            double referenceNs = stop.ns() - start.ns();
            double tick2ErrorPpm = (toNs(stop.ticks() - start.ticks()) - referenceNs) / referenceNs * 1e6;
            return new ClockFacts(USE_TSC ? "tsc" : "nanotime", FALLBACK_REASON, TICKS_PER_NS, CONSTANT_TSC,
                    NONSTOP_TSC, readCostNs, quantum * nsPerTick(), tick2ErrorPpm, CALIBRATION_MS);
        } catch (Throwable t) {
            throw new AssertionError(t); // RDTSC already ran during calibration
        }
    }

    /**
     * One TICK1 batch: the mean step of back-to-back reads, in ns, without the largest 5 % of
     * steps: a preemption lengthens the one step it falls in, and on a starved host one batch
     * of plain means read 0.8 ms per read (every o_s of that JVM then clamped to 0).
     */
    private static double tick1Batch(long[] reads) {
        for (int i = 0; i < reads.length; i++) reads[i] = now();
        long[] steps = new long[reads.length - 1];
        for (int i = 0; i < steps.length; i++) steps[i] = reads[i + 1] - reads[i];
        Arrays.sort(steps);
        int kept = steps.length - steps.length / 20;
        long sum = 0;
        for (int i = 0; i < kept; i++) sum += steps[i];
        return toNs(sum) / kept;
    }

    /** Keeps the spacing loop's work alive. */
    private static long spacingSink;

    /**
     * The largest {@link #quantum} that at least a quarter of {@value #RESOLUTION_BATCHES} short
     * batches of spaced reads agree on (within 2 %). One long batch is no good: a thread that
     * moves to the other CPU of this VM reads a counter offset by half a quantum there, and such
     * a batch reads a grid of half the quantum (5 ns where each CPU's is 10). On a busy host
     * many batches move, so the commonest or the median value can be that half.
     */
    private static double resolutionTicks() {
        long[] reads = new long[RESOLUTION_BATCH];
        double[] quanta = new double[RESOLUTION_BATCHES];
        for (int b = 0; b < quanta.length; b++) quanta[b] = quantum(spacedReads(reads));
        return largestAgreed(quanta, RESOLUTION_BATCHES / 4);
    }

    /** The median of the largest cluster (values within 2 % of its top) of at least {@code agree} values; 1 if none. */
    static double largestAgreed(double[] quanta, int agree) {
        double[] sorted = quanta.clone();
        Arrays.sort(sorted);
        for (int top = sorted.length - 1; top >= 0; top--) {
            int from = top;
            while (from > 0 && sorted[from - 1] >= sorted[top] * 0.98) from--;
            if (top - from + 1 >= agree) return sorted[(from + top + 1) / 2];
        }
        return 1;
    }

    /** The commonest of the first {@code n} values (the smallest of equally common ones); sorts them. */
    private static long commonest(long[] values, int n) {
        Arrays.sort(values, 0, n);
        long commonest = values[0];
        for (int i = 0, run, best = 0; i < n; i += run) {
            for (run = 1; i + run < n && values[i + run] == values[i]; run++) { }
            if (run > best) {
                best = run;
                commonest = values[i];
            }
        }
        return commonest;
    }

    /**
     * Reads {@code reads.length} times with a varying amount of work between reads. Back-to-back
     * reads are no use for the resolution: where each read costs the very same number of ticks
     * (often so on bare metal), they lie on a grid of that cost, as a coarse clock's would.
     */
    private static long[] spacedReads(long[] reads) {
        long sink = 0;
        for (int i = 0; i < reads.length; i++) {
            reads[i] = now();
            for (int k = (i * 7) % 13 * 4; k > 0; k--) sink += k ^ i;
        }
        spacingSink = sink;
        return reads;
    }

    /**
     * TICK1's resolution: the quantum the clock advances by, from reads spaced by varying work.
     * That is the largest divisor q of their commonest step (of 2 ticks or more), or of one tick
     * more, such that at least {@link #MIN_QUANTUM_SHARE} of the reads lie on one grid of q
     * ticks, or at most q/8 ticks above it. A VM whose TSC advances 26 ticks at a time keeps
     * its reads strictly increasing: a read within the same 10 ns reads one tick more than the
     * last, so steps of 1 and 25 ticks break the run of 26s. How many depends on how fast the
     * reads come (a tenth of the steps in C, a third in compiled Java), and a rule over the
     * steps flipped between 10 ns and "0.39 ns", a precision that the medians, all multiples of
     * 10 ns, never had. A counter that advances every tick gives 1.
     */
    static double quantum(long[] reads) {
        long[] steps = new long[reads.length - 1];
        int n = 0;
        for (int i = 1; i < reads.length; i++) if (reads[i] - reads[i - 1] >= 2) steps[n++] = reads[i] - reads[i - 1];
        if (n == 0) return 1;
        long commonest = commonest(steps, n);
        // the commonest step may be a quantum less the one tick a monotonic read added before it
        for (long q = Math.min(commonest + 1, MAX_QUANTUM_TICKS); q > 1; q--) {
            boolean candidate = commonest % q == 0 || (commonest + 1) % q == 0;
            if (candidate && onGridShare(reads, q) >= MIN_QUANTUM_SHARE) return q;
        }
        return fractionalQuantum(reads, steps, n); // commonest() sorted the steps
    }

    /**
     * A quantum that is no whole number of ticks: a counter of 10 ns steps read as a TSC of
     * 2.445 ticks/ns advances 24 or 25 ticks at a time. Found from the steps between reads,
     * which then lie near whole multiples of it: the largest q of {@value #MIN_FRACTIONAL_QUANTUM}
     * to {@value #MAX_FRACTIONAL_QUANTUM} ticks that holds {@link #MIN_QUANTUM_SHARE} of the
     * smallest 12 steps within {@value #STEP_TOLERANCE_TICKS} ticks, then refined on the grid the
     * reads lie on; 1 where none does.
     */
    private static double fractionalQuantum(long[] reads, long[] sortedSteps, int n) {
        int few = Math.min(n, 12);
        long[] small = Arrays.copyOf(sortedSteps, few);
        // a relative step of 0.4 / (largest small step) moves no small step by more than 0.4 ticks
        double ratio = 1 + 0.4 / small[few - 1];
        List<double[]> runs = new ArrayList<>(); // runs of fitting values, {from, to}
        for (double q = MIN_FRACTIONAL_QUANTUM; q <= Math.min(MAX_FRACTIONAL_QUANTUM, small[0] + STEP_TOLERANCE_TICKS); q *= ratio) {
            if (stepShare(small, few, q) < MIN_QUANTUM_SHARE) continue;
            if (runs.isEmpty() || q > runs.getLast()[1] * ratio * 1.000001) runs.add(new double[] {q, q});
            runs.getLast()[1] = q;
        }
        // the largest run whose value the reads' grid confirms: a multiple of the quantum can fit a few steps by chance
        for (double[] run : runs.reversed()) {
            double q = onGrid(reads, run[0] / ratio, run[1] * ratio);
            if (q > 1) return q;
        }
        return 1;
    }

    /**
     * The middle of the values in [from, to] that put the most reads on one grid, searched
     * ever finer until a step moves no read by more than 0.4 ticks over the reads' span
     * (hundreds of quanta, which fix the quantum far better than one step does); 1 below
     * {@link #MIN_QUANTUM_SHARE}.
     */
    private static double onGrid(long[] reads, double from, double to) {
        double finest = 0.4 * from / (reads[reads.length - 1] - reads[0]), step = (to - from) / 40, best = 1, bestShare = 0;
        while (true) {
            double bestFrom = 0, bestTo = 0;
            bestShare = 0;
            for (double q = from; q <= to; q += step) {
                double share = gridShare(reads, q);
                if (share > bestShare) {
                    bestShare = share;
                    bestFrom = q;
                }
                if (share == bestShare) bestTo = q;
            }
            best = (bestFrom + bestTo) / 2;
            if (step <= finest) break;
            from = Math.max(from, bestFrom - step);
            to = Math.min(to, bestTo + step);
            step = Math.max(finest, step / 8);
        }
        return bestShare >= MIN_QUANTUM_SHARE ? best : 1;
    }

    /** The share of reads within {@value #STEP_TOLERANCE_TICKS} ticks above one grid of q (not a whole number of) ticks. */
    private static double gridShare(long[] reads, double q) {
        int bins = (int) Math.ceil(q), best = 0;
        int[] residues = new int[bins];
        for (long r : reads) {
            double offset = r - reads[0];
            residues[Math.min(bins - 1, (int) (offset - q * Math.floor(offset / q)))]++;
        }
        for (int grid = 0; grid < bins; grid++) {
            int on = 0;
            for (int d = 0; d <= STEP_TOLERANCE_TICKS; d++) on += residues[(grid + d) % bins];
            best = Math.max(best, on);
        }
        return (double) best / reads.length;
    }

    /** The share of the first {@code n} steps within {@value #STEP_TOLERANCE_TICKS} ticks of a whole multiple of q. */
    private static double stepShare(long[] steps, int n, double q) {
        int on = 0;
        for (int i = 0; i < n; i++) if (Math.abs(steps[i] - q * Math.rint(steps[i] / q)) <= STEP_TOLERANCE_TICKS) on++;
        return (double) on / n;
    }

    /** The share of reads at the commonest residue modulo q, or at most q/8 ticks above it. */
    private static double onGridShare(long[] reads, long q) {
        int[] residues = new int[(int) q];
        for (long r : reads) residues[(int) Math.floorMod(r - reads[0], q)]++;
        int slack = (int) q / 8, best = 0;
        for (int grid = 0; grid < q; grid++) {
            int on = 0;
            for (int d = 0; d <= slack; d++) on += residues[(grid + d) % (int) q];
            best = Math.max(best, on);
        }
        return (double) best / reads.length;
    }

    /** The calibrated rate, and the worst relative error the two brackets' widths allow. */
    private record Calibration(double ticksPerNs, double maxError) {}

    /**
     * Ticks per ns against CLOCK_MONOTONIC, in about 25 ms. The first window also warms up the
     * bracket loop: its tightest pair comes from compiled code, as does the end pair, so the
     * two brackets are alike and their midpoints are off by about the same amount.
     */
    private static Calibration calibrate(MethodHandle rdtsc) throws Throwable {
        // the first call links the handle (milliseconds, kept out of the brackets) and tries the code
        if ((long) rdtsc.invokeExact() <= 0) throw new IllegalStateException("rdtsc read no time");
        Pair start = tightestPair(rdtsc, CALIBRATION_START_NS);
        waitUntil(System.nanoTime() + CALIBRATION_GAP_NS);
        Pair end = tightestPair(rdtsc, CALIBRATION_END_NS);
        double spanNs = end.ns() - start.ns();
        return new Calibration((end.ticks() - start.ticks()) / spanNs, (start.widthNs() + end.widthNs()) / 2.0 / spanNs);
    }

    /** A CLOCK_MONOTONIC instant and the ticks read at it, known to within widthNs. */
    private record Pair(long ns, long ticks, long widthNs) {}

    /**
     * The tightest nanoTime / clock / nanoTime bracket seen in {@code forNs} (and at least
     * {@value #MIN_PAIR_SAMPLES} tries, for a slow or preempted start), read at its midpoint.
     */
    private static Pair tightestPair(MethodHandle clock, long forNs) throws Throwable {
        long bestWidth = Long.MAX_VALUE, bestNs = 0, bestTicks = 0;
        long end = System.nanoTime() + forNs, after;
        int tries = 0;
        do {
            long before = System.nanoTime();
            long ticks = (long) clock.invokeExact();
            after = System.nanoTime();
            if (after - before < bestWidth) {
                bestWidth = after - before;
                bestNs = before + bestWidth / 2;
                bestTicks = ticks;
            }
        } while (++tries < MIN_PAIR_SAMPLES || after - end < 0);
        return new Pair(bestNs, bestTicks, bestWidth);
    }

    /** Sleeps (parkNanos may wake early, hence the loop): idles the CPU instead of spinning on it. */
    private static void waitUntil(long deadlineNs) {
        for (long left; (left = deadlineNs - System.nanoTime()) > 0; ) LockSupport.parkNanos(left);
    }

    /** Why the TSC cannot be used here, or "" if it may be. */
    static String tscUnusableReason(String forced, String arch, String os, Set<String> cpuFlags) {
        if (forced.equals("nanotime")) return "forced by fabprobe.clock=nanotime";
        if (!arch.equals("amd64") && !arch.equals("x86_64")) return "no x86 TSC on " + arch;
        if (!os.equals("Linux")) return "TSC support is Linux-only, not " + os;
        if (!cpuFlags.contains("constant_tsc") || !cpuFlags.contains("nonstop_tsc")) {
            return "TSC not invariant (constant_tsc/nonstop_tsc missing in /proc/cpuinfo)";
        }
        return "";
    }

    /** The flags of the first CPU in /proc/cpuinfo (all CPUs of a machine share them); empty if unreadable. */
    private static Set<String> cpuFlags() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("flags")) return Set.copyOf(Arrays.asList(line.substring(line.indexOf(':') + 1).split(" ")));
            }
        } catch (IOException e) {
            // not Linux, or /proc not mounted: no flags
        }
        return Set.of();
    }

    /** A critical downcall to the rdtsc code in a page of its own (see {@link ExecutablePage}). */
    private static MethodHandle mapRdtsc() throws Throwable {
        return Linker.nativeLinker().downcallHandle(ExecutablePage.map(RDTSC_CODE), FunctionDescriptor.of(JAVA_LONG),
                Linker.Option.critical(false));
    }

    private static MethodHandle nanoTimeHandle() {
        try {
            return MethodHandles.lookup().findStatic(System.class, "nanoTime", MethodType.methodType(long.class));
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
