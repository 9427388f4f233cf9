package org.fabprobe.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/** Tests that stop a peer mid-run: when a child of measure is in its timing loop. */
final class TimingLoops {
    private TimingLoops() {}

    /**
     * Waits until a child of measure has a session thread that spun for 0.3 s of CPU: the
     * transport is open and both halves are in the timing loop (the thread's name is cut to 15
     * characters). Any child counts, not the first seen: measure starts its mirror before it has
     * loaded the command, and replaces that child if it is gone when the session starts.
     */
    static ProcessHandle awaitMirror(ProcessHandle measure, Supplier<String> context) throws Exception {
        for (int i = 0; i < 3000; i++) {
            if (!measure.isAlive()) throw new AssertionError("measure ended before it measured:\n" + context.get());
            for (ProcessHandle child : measure.children().toList()) {
                if (sessionThreadSpun(child)) return child;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no mirror reached its timing loop within 60 s:\n" + context.get());
    }

    private static boolean sessionThreadSpun(ProcessHandle process) {
        Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
        try (var threads = Files.list(tasks)) {
            for (Path task : threads.toList()) {
                try {
                    if (!Files.readString(task.resolve("comm")).strip().equals("fabprobe-mirror")) continue;
                    String stat = Files.readString(task.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    if (Long.parseLong(f[11]) + Long.parseLong(f[12]) >= 30) return true; // utime + stime, 10 ms ticks
                } catch (IOException threadEnded) {
                    // gone between the listing and the read
                }
            }
        } catch (IOException processEnded) {
            // gone since measure listed it
        }
        return false;
    }
}
