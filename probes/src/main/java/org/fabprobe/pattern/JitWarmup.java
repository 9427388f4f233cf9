package org.fabprobe.pattern;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongConsumer;
import org.fabprobe.runtime.ThisJvm;
import org.fabprobe.transport.Control;

/**
 * The JIT warm-up both halves of a pattern run before timing: batches of untimed rounds
 * until a whole batch has passed in which neither JVM compiled the pattern's code
 * ({@link #compiledSince}).
 *
 * <p>A fixed number of rounds is not enough. HotSpot compiles in the background and raises
 * its C2 thresholds while its queue is long, so the loop's methods can still be at tier 3
 * when a fixed warm-up ends; they then reach C2 during the timed rounds, and on a 2-CPU
 * machine whose CPUs both spin in measure and mirror the compiler thread takes a timing
 * thread's CPU for tens of ms. Measured on Open MPI vader: postRecv, isend and measureSize
 * went to C2 during the timed rounds and the mean 8 B half round trip read 0.3-1.3 us
 * against a median of 0.17 us. A batch lasts longer than a C2 compile of the loop (~30 ms
 * here), so a compile in progress at the end of one batch finishes inside the next.
 */
public final class JitWarmup {
    /** Extra batches last at least this long. */
    static final double BATCH_NS = 60e6;
    /** The whole warm-up, first batch included, stops after this even if the JIT never settles. */
    static final double LIMIT_NS = 1.5e9;
    /** Rounds in the first batch at most (see {@link #measureSide}). */
    static final long FIRST_BATCH = 1000;
    private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();
    private static final boolean OBSERVABLE = JIT != null && JIT.isCompilationTimeMonitoringSupported();
    private static final boolean SYNCHRONOUS = ThisJvm.compilesInCallingThread();

    private JitWarmup() {}

    /**
     * Whether the launcher lowered the C2 thresholds of the probes' timed loops (a
     * {@code CompileThresholdScaling} command for {@code org/fabprobe/pattern/Probe}): then a
     * tenth of the calls reaches C2.
     */
    static boolean loopThresholdsLowered() {
        return ThisJvm.hasArgument("CompileThresholdScaling,org/fabprobe/pattern/Probe");
    }

    /** Milliseconds this JVM's compilers have worked so far; moves whenever a compilation finishes. */
    static long compileMs() {
        return OBSERVABLE ? JIT.getTotalCompilationTime() : 0;
    }

    /**
     * Measure half: runs {@code firstRounds}, then batches of {@link #BATCH_NS} worth of
     * rounds (sized from the batch before: cold probe rounds say little about warm ones),
     * until neither side finished a compilation during a batch. The first rounds, too, run in
     * batches, the first of at most {@link #FIRST_BATCH} rounds: where a round trip takes a
     * scheduler time slice (measure and mirror on one CPU of a busy host), 20 000 of them in
     * one batch would have outlasted the {@link #LIMIT_NS} by minutes.
     *
     * @param rounds runs that many untimed rounds of the pattern
     * @return rounds run in all
     */
    public static long measureSide(Control control, long firstRounds, long maxBatchRounds, LongConsumer rounds) {
        long start = System.nanoTime(), total = 0;
        long batch = Math.min(firstRounds, FIRST_BATCH);
        while (true) {
            control.send("jit_rounds", batch);
            long before = compileMs(), waits = Disturbances.voluntarySwitches(), batchStart = System.nanoTime();
            rounds.accept(batch);
            boolean compiled = compiledSince(before, waits);
            double roundNs = (double) (System.nanoTime() - batchStart) / batch;
            total += batch;
            boolean mirrorCompiled = control.receive("jit_compiled") != 0;
            if (System.nanoTime() - start > LIMIT_NS) break;
            long left = firstRounds - total;
            if (left <= 0 && (!OBSERVABLE || !(compiled || mirrorCompiled))) break;
            batch = Math.max(1, Math.min(maxBatchRounds, (long) (BATCH_NS / Math.max(roundNs, 1))));
            if (left > 0) batch = Math.min(batch, left);
        }
        control.send("jit_rounds", 0);
        return total;
    }

    /**
     * Whether the rounds since these readings still compiled their own code. Where fabprobe's
     * methods compile in the thread that calls them (the launchers' flags), a timed loop that
     * compiles blocks its thread: a voluntary context switch, which a spinning loop makes for
     * nothing else. Other compilations (the control path's, run at idle priority between the
     * batches: {@link org.fabprobe.runtime.CompilerThreads}) do not hold the warm-up back. In a
     * JVM that compiles everything in the background, any compilation that finished does.
     */
    private static boolean compiledSince(long compileMsBefore, long waitsBefore) {
        return SYNCHRONOUS ? Disturbances.voluntarySwitches() != waitsBefore : compileMs() != compileMsBefore;
    }

    /** Mirror half: follows the measure side's batches and tells it whether it compiled during each. */
    public static void mirrorSide(Control control, LongConsumer rounds) {
        for (long batch; (batch = control.receive("jit_rounds")) > 0; ) {
            long before = compileMs(), waits = Disturbances.voluntarySwitches();
            rounds.accept(batch);
            control.send("jit_compiled", compiledSince(before, waits) ? 1 : 0);
        }
    }
}
