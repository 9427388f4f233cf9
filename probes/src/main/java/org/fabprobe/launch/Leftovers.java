package org.fabprobe.launch;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongPredicate;
import java.util.regex.Matcher;
import org.fabprobe.transport.ShmNames;

/**
 * Shared-memory files a killed fabprobe left behind (kill -9, a batch scheduler's time
 * limit): fabprobe names every one it makes after its pid and PID namespace ({@link ShmNames}),
 * so a later run, or the surviving peer, can remove exactly those whose owner is dead and
 * nothing else.
 */
public final class Leftovers {
    private static final Path SHM = Path.of("/dev/shm");

    private Leftovers() {}

    /** Removes fabprobe's files in /dev/shm whose owning process no longer exists; returns how many. */
    public static int removeDead() {
        if (!procShowsMyPids()) return 0; // a /proc of another PID namespace would judge the wrong processes
        return removeOf(Leftovers::ended);
    }

    /** True when /proc numbers processes as getpid() does (not so after unshare -p without a /proc of its own). */
    static boolean procShowsMyPids() {
        try {
            return Path.of("/proc/self").toRealPath().getFileName().toString()
                    .equals(Long.toString(ProcessHandle.current().pid()));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Whether process {@code pid} has ended: it no longer exists, or it is a zombie. A killed
     * measure process closes its sockets as it dies, so its mirror can look while the kernel
     * still keeps it as a zombie for its parent to reap; Java counts a zombie as alive.
     */
    static boolean ended(long pid) {
        if (ProcessHandle.of(pid).isEmpty()) return true;
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int name = stat.lastIndexOf(')'); // the state follows the command name, which may hold anything
            char state = name > 0 && name + 2 < stat.length() ? stat.charAt(name + 2) : '?';
            return state == 'Z' || state == 'X';
        } catch (IOException e) {
            return true; // reaped between the two looks
        }
    }

    /**
     * Removes this process's own files in /dev/shm: the last resort of a process that exits
     * while a thread is still inside the transport library that would have removed them.
     */
    public static void removeMine() {
        long me = ProcessHandle.current().pid();
        removeOf(pid -> pid == me);
    }

    /**
     * Removes this user's fabprobe files in /dev/shm of this PID namespace whose owner pid
     * {@code remove} accepts; returns how many.
     */
    private static int removeOf(LongPredicate remove) {
        if (!Files.isDirectory(SHM)) return 0;
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(SHM, "fabprobe-*")) {
            for (Path file : files) {
                Matcher m = ShmNames.OURS.matcher(file.getFileName().toString());
                // pids mean something only within their own PID namespace: other namespaces' files are never judged
                if (!m.matches() || !m.group(2).equals(ShmNames.namespace()) || !Files.isRegularFile(file) || !ownedByMe(file)) {
                    continue;
                }
                if (!remove.test(Long.parseLong(m.group(1)))) continue;
                try {
                    if (Files.deleteIfExists(file)) removed++;
                } catch (IOException ignored) {
                    // another run removed it first
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // clean-up is a courtesy: it never fails a run
        }
        return removed;
    }

    private static boolean ownedByMe(Path file) {
        try {
            Object uid = Files.getAttribute(file, "unix:uid");
            Object mine = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            return uid.equals(mine);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }
}
