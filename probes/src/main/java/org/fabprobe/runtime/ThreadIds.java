package org.fabprobe.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's threads as the kernel sees them (/proc/self/task/TID): ids, states, time waited for a CPU. */
public final class ThreadIds {
    private ThreadIds() {}

    /** The kernel's id of the calling thread, or -1 without /proc. */
    public static int current() {
        try {
            Path self = Files.readSymbolicLink(Path.of("/proc/thread-self")); // "PID/task/TID"
            return Integer.parseInt(self.getFileName().toString());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** ns thread {@code tid} has spent runnable but waiting for a CPU, or -1 if the kernel will not say. */
    public static long runDelayNs(int tid) {
        return runDelayNs(Path.of("/proc/self/task/" + tid + "/schedstat"));
    }

    /** The same of any thread's or process's schedstat file. */
    public static long runDelayNs(Path schedstat) {
        return schedstatField(schedstat, 1);
    }

    /** ns thread {@code tid} has run on a CPU, or -1 if the kernel will not say. */
    public static long runTimeNs(int tid) {
        return schedstatField(Path.of("/proc/self/task/" + tid + "/schedstat"), 0);
    }

    private static long schedstatField(Path schedstat, int field) {
        try {
            String[] fields = new String(Files.readAllBytes(schedstat), StandardCharsets.US_ASCII).trim().split(" ");
            return fields.length > field ? Long.parseLong(fields[field]) : -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * Whether thread {@code tid} is running or waiting only for a CPU (state R), not sleeping:
     * a thread that waits for a JIT compilation, a lock or a socket sleeps. Unknown counts as running.
     */
    public static boolean onCpu(int tid) {
        try {
            String stat = new String(Files.readAllBytes(Path.of("/proc/self/task/" + tid + "/stat")), StandardCharsets.US_ASCII);
            int end = stat.lastIndexOf(')');
            return end < 0 || end + 2 >= stat.length() || stat.charAt(end + 2) == 'R';
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }
}
