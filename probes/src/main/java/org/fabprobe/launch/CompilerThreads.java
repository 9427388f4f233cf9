package org.fabprobe.launch;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.fabprobe.IdlePriority;

/**
 * This JVM's JIT compiler threads at the kernel's lowest priority (SCHED_IDLE) while a session
 * measures: a compilation then runs on a CPU that the timing threads leave idle (while they
 * wait on the control channel, or for a compilation they asked for), not on one they spin on.
 * On a 2-CPU machine measure and mirror spin on both CPUs, and the control path's background
 * compilations otherwise preempted them inside timed loops.
 */
public final class CompilerThreads {
    private static final Path TASKS = Path.of("/proc/self/task");

    private CompilerThreads() {}

    /** Compiler threads back at normal priority when closed. */
    public interface Lowered extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Lowers the compiler threads there are now, if this JVM compiles fabprobe's code in the
     * thread that calls it (the launchers' {@code BackgroundCompilation} command): else a
     * timed loop's own compilation would wait for an idle CPU while both spin (a JVM started
     * without the launchers' flags, as the tests' is, read drifting parameters that way).
     * Where the kernel will not, the threads stay as they are.
     */
    public static Lowered lower() {
        if (!ThisJvm.compilesInCallingThread()) return () -> { };
        List<Integer> tids = compilerThreads();
        tids.forEach(IdlePriority::lower);
        return () -> tids.forEach(IdlePriority::restore);
    }

    /**
     * As {@link #lower}, but only where the threads can go back to normal priority afterwards
     * ({@link IdlePriority#restorable}): for a phase of the start, which must not leave the rest
     * of an ordinary user's run compiling at idle priority.
     */
    public static Lowered lowerIfRestorable() {
        return IdlePriority.restorable() ? lower() : () -> { };
    }

    private static List<Integer> compilerThreads() {
        List<Integer> tids = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                String name = Files.readString(task.resolve("comm")).trim();
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
