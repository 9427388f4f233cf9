package org.fabprobe.pattern;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.fabprobe.bindings.libc.Libc;
import org.fabprobe.runtime.ThreadIds;
import org.fabprobe.transport.Transport;

/**
 * What disturbs a timed batch without showing in its samples' spread: the timing thread
 * preempted (involuntary context switches, getrusage RUSAGE_THREAD's ru_nivcsw, and the time
 * it then waited for a CPU, /proc/thread-self/schedstat's run delay) and the transport's own
 * missed deadlines (the emulator's busy-waits overshooting). Read before and after each
 * batch, never inside one.
 */
public final class Disturbances {
    private static final int RUSAGE_THREAD = 1;
    /** struct rusage: two struct timevals (16 B each), then 14 longs; ru_nivcsw is the last. */
    private static final long RUSAGE_BYTES = 144, NVCSW_OFFSET = 128, NIVCSW_OFFSET = 136;
    private static final Path SCHEDSTAT = Path.of("/proc/thread-self/schedstat");
    /**
     * A batch whose timing threads waited for a CPU longer than this share of its samples'
     * summed time is disturbed. w ns of waiting spread over n samples can move their median by
     * at most 2w/n (half of them delayed by 2w/n each), so 0.5 % bounds the move to 1 % of the
     * median, a fifth of the default confidence target. A few short preemptions (a softirq, a
     * kernel thread, a compiler thread's wake-up: microseconds each, about one per batch on
     * loopback tcp on a 2-CPU VM) stay below it; a CPU shared with a busy process does not.
     */
    public static final double MAX_WAIT_SHARE = 0.005;

    private Disturbances() {}

    /**
     * One side's counters so far, or what they moved by. {@code waitNs} is -1 where the kernel
     * does not say (no schedstat): then every preemption counts.
     */
    public record Reading(long preemptions, long waitNs, long missedDeadlines) {
        public Reading since(Reading before) {
            return new Reading(preemptions - before.preemptions,
                    waitNs < 0 || before.waitNs < 0 ? -1 : waitNs - before.waitNs, missedDeadlines - before.missedDeadlines);
        }

        public long[] fields() {
            return new long[] {preemptions, waitNs, missedDeadlines};
        }

        public static Reading of(long[] f, int from) {
            return new Reading(f[from], f[from + 1], f[from + 2]);
        }

        static final int FIELDS = 3;
    }

    /** The calling thread's counters and its transport's missed deadlines so far. */
    public static Reading read(Transport t) {
        return new Reading(contextSwitches(), cpuWaitNs(), t.missedDeadlines());
    }

    /**
     * Whether a batch whose samples sum to {@code sampledNs} was disturbed, given what the two
     * sides' counters moved by during it: a missed deadline, or more waiting for a CPU than
     * {@link #MAX_WAIT_SHARE} of the sampled time (any preemption where the wait is unknown).
     */
    public static boolean disturbed(Reading mine, Reading peer, double sampledNs) {
        if (mine.missedDeadlines + peer.missedDeadlines > 0) return true;
        if (mine.waitNs < 0 || peer.waitNs < 0) return mine.preemptions + peer.preemptions > 0;
        return mine.waitNs + peer.waitNs > MAX_WAIT_SHARE * sampledNs;
    }

    /** Involuntary context switches of the calling thread so far; 0 if the kernel will not say. */
    public static long contextSwitches() {
        return rusageField(NIVCSW_OFFSET);
    }

    /**
     * Voluntary context switches of the calling thread so far (it blocked: on a JIT compilation
     * it waits for, a safepoint, a lock, a sleeping system call); 0 if the kernel will not say.
     */
    public static long voluntarySwitches() {
        return rusageField(NVCSW_OFFSET);
    }

    private static long rusageField(long offset) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment usage = arena.allocate(RUSAGE_BYTES, 8);
            int rc = Libc.getrusage(RUSAGE_THREAD, usage);
            return rc == 0 ? usage.get(JAVA_LONG, offset) : 0;
        } catch (Throwable e) {
            return 0;
        }
    }

    /** ns the calling thread has spent runnable but waiting for a CPU, or -1 if the kernel will not say. */
    public static long cpuWaitNs() {
        return ThreadIds.runDelayNs(SCHEDSTAT);
    }

    /** This side's disturbances so far, as a count: its thread's preemptions and its transport's missed deadlines. */
    public static long of(Transport t) {
        return contextSwitches() + t.missedDeadlines();
    }
}
