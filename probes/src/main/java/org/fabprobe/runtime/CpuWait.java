package org.fabprobe.runtime;

/**
 * How long the timing thread has waited for a CPU lately, so that a timeout can say so: a
 * stall because the host gave this process no CPU is not a dead peer. The watchdog's thread
 * samples the timing thread's run delay (schedstat) twice a second; a timeout asks for the
 * wait over its own span from the samples, without a read on the timing path.
 */
public final class CpuWait {
    private static final int SAMPLES = 128; // 64 s at two a second: longer than any timeout's span
    private static final long[] atNs = new long[SAMPLES], delayNs = new long[SAMPLES];
    private static int next, count;

    private CpuWait() {}

    /** Records thread {@code tid}'s run delay now (called by the one watching thread). */
    public static synchronized void sample(int tid) {
        long delay = ThreadIds.runDelayNs(tid);
        if (delay < 0) return;
        atNs[next] = System.nanoTime();
        delayNs[next] = delay;
        next = (next + 1) % SAMPLES;
        count = Math.min(count + 1, SAMPLES);
    }

    /** Forgets the samples (a new session's timing thread). */
    public static synchronized void reset() {
        next = 0;
        count = 0;
    }

    /** ms the sampled thread waited for a CPU during about the last {@code spanMs}, or 0 if unknown. */
    public static synchronized long lastMs(long spanMs) {
        if (count < 2) return 0;
        int newest = (next - 1 + SAMPLES) % SAMPLES;
        long from = atNs[newest] - spanMs * 1_000_000L;
        int oldest = newest;
        for (int i = 1; i < count; i++) {
            int j = (newest - i + SAMPLES) % SAMPLES;
            if (atNs[j] - from < 0) break;
            oldest = j;
        }
        return (delayNs[newest] - delayNs[oldest]) / 1_000_000L;
    }

    /** The words for a stall that waiting for a CPU explains, or null: more than half of {@code spanMs} spent waiting. */
    public static String explains(long spanMs) {
        long waited = lastMs(spanMs);
        if (waited * 2 < spanMs) return null;
        return "no CPU for " + Math.round(waited / 100.0) / 10.0 + " s of the last " + Math.round(spanMs / 100.0) / 10.0
                + " s: the host is oversubscribed (other work holds its CPUs)";
    }
}
