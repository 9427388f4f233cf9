package org.fabprobe.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * This JVM's JIT compiler threads at the kernel's lowest priority (SCHED_IDLE) for a phase
 * whose own threads spin or initialize a library: a compilation then runs on a CPU those
 * threads leave idle, not on one they use. On a 2-CPU machine measure and mirror spin on
 * both CPUs, and the control path's background compilations otherwise preempted them inside
 * timed loops.
 *
 * <p>A SCHED_IDLE thread gets no CPU at all while other work holds every CPU (a busy node),
 * and fabprobe's methods compile in the thread that calls them: a timing thread asking for a
 * compilation would then wait for as long as the node stays busy. A guard thread therefore
 * watches the phase's thread: once it has been off the CPU (waiting) while a compiler thread
 * sat runnable without a CPU for {@link #STARVED_POLLS} polls in a row, the compilers go back
 * to normal priority for the rest of the phase. The guard's own methods compile in the
 * background (scripts/jit-directives.json), so it never waits on the threads it guards.
 */
public final class CompilerThreads {
    private static final Path TASKS = Path.of("/proc/self/task");
    static final long POLL_MS = 100;
    /** Consecutive polls a compiler must starve while the watched thread waits: 200 ms. */
    static final int STARVED_POLLS = 2;
    /** A compiler is starved in a poll when it waited on a run queue, or ran for less than, this share of it while runnable. */
    private static final double STARVED_SHARE = 0.5;

    private static volatile boolean everStarved;

    private CompilerThreads() {}

    /** Compiler threads back at normal priority when closed. */
    public interface Lowered extends AutoCloseable {
        /** Whether the guard had to restore the compilers: the host gave this JVM's compilers no CPU. */
        boolean starved();

        @Override
        void close();
    }

    private static final Lowered NOT_LOWERED = new Lowered() {
        @Override
        public boolean starved() {
            return false;
        }

        @Override
        public void close() { }
    };

    /**
     * Lowers the compiler threads there are now and guards the calling thread, if this JVM
     * compiles fabprobe's code in the thread that calls it (the launchers' {@code
     * BackgroundCompilation} command: else lowering would only slow compilation down) and if
     * the threads can go back to normal priority afterwards ({@link IdlePriority#restorable}):
     * an ordinary user's thread stays at SCHED_IDLE once there, and the guard could not help.
     */
    public static Lowered lower() {
        return lower(ThreadIds.current());
    }

    /** As {@link #lower()}, guarding thread {@code watchedTid} of this process (whose progress the phase is for). */
    public static Lowered lower(int watchedTid) {
        if (!ThisJvm.compilesInCallingThread() || !IdlePriority.restorable() || watchedTid <= 0) return NOT_LOWERED;
        List<Integer> tids = compilerThreads();
        if (tids.isEmpty()) return NOT_LOWERED;
        tids.forEach(IdlePriority::lower);
        return new Guard(watchedTid, tids);
    }

    /** Whether any guard in this JVM so far found its compilers starved (the host was oversubscribed). */
    public static boolean everStarved() {
        return everStarved;
    }

    /** The guard: a daemon thread that restores the compilers when a waiting thread would wait on them for good. */
    private static final class Guard implements Lowered {
        private final int watched;
        private final List<Integer> compilers;
        private final Thread thread;
        private volatile boolean closed, restored;

        Guard(int watched, List<Integer> compilers) {
            this.watched = watched;
            this.compilers = compilers;
            thread = Thread.ofPlatform().daemon().name("fabprobe-compiler-guard").start(this::watch);
        }

        private void watch() {
            long[] ran = new long[compilers.size()];
            long[] delays = new long[compilers.size()];
            boolean[] runnable = new boolean[compilers.size()];
            for (int i = 0; i < ran.length; i++) {
                ran[i] = ThreadIds.runTimeNs(compilers.get(i));
                delays[i] = ThreadIds.runDelayNs(compilers.get(i));
            }
            int starvedPolls = 0;
            while (!closed) {
                try {
                    Thread.sleep(POLL_MS);
                } catch (InterruptedException e) {
                    return;
                }
                boolean starving = false;
                for (int i = 0; i < ran.length; i++) {
                    int tid = compilers.get(i);
                    long runNow = ThreadIds.runTimeNs(tid), delayNow = ThreadIds.runDelayNs(tid);
                    // the kernel adds a wait to run_delay only once the thread gets a CPU: a compiler
                    // that gets none shows up as runnable through a poll without running, not as a growing delay
                    boolean runnableNow = ThreadIds.onCpu(tid);
                    boolean queued = runNow >= 0 && runnable[i] && runnableNow && runNow - ran[i] < STARVED_SHARE * POLL_MS * 1e6;
                    if (queued || delayNow - delays[i] >= STARVED_SHARE * POLL_MS * 1e6) starving = true;
                    ran[i] = runNow;
                    delays[i] = delayNow;
                    runnable[i] = runnableNow;
                }
                // the watched thread spinning keeps the compilers low: that is what lowering is for
                starvedPolls = starving && !ThreadIds.onCpu(watched) ? starvedPolls + 1 : 0;
                if (starvedPolls >= STARVED_POLLS) {
                    synchronized (this) {
                        if (!closed) {
                            restored = true;
                            everStarved = true;
                            compilers.forEach(IdlePriority::restore);
                        }
                    }
                    return;
                }
            }
        }

        @Override
        public boolean starved() {
            return restored;
        }

        @Override
        public void close() {
            synchronized (this) {
                if (closed) return;
                closed = true;
                if (!restored) compilers.forEach(IdlePriority::restore);
            }
            thread.interrupt();
        }
    }

    private static List<Integer> compilerThreads() {
        List<Integer> tids = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                String name = new String(Files.readAllBytes(task.resolve("comm")), StandardCharsets.US_ASCII).trim();
                if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                    tids.add(Integer.parseInt(task.getFileName().toString()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: nothing to lower
        }
        return tids;
    }
}
