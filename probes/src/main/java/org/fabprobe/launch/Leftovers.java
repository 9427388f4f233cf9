package org.fabprobe.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /**
     * Removes fabprobe's files in /dev/shm whose owning process no longer exists, and the MPI and
     * UCX segments no process holds any more ({@link #removeOrphanedSegments}); returns how many.
     */
    public static int removeDead() {
        if (!procShowsMyPids()) return 0; // a /proc of another PID namespace would judge the wrong processes
        return removeOf(Leftovers::ended) + removeOrphanedSegments(SEGMENT_MIN_AGE_MS);
    }

    /**
     * The shared-memory segments of the libraries fabprobe runs: Open MPI's vader (4.x) and sm (5.x)
     * BTLs, UCX's posix transport where it keeps the file. Their names carry no pid to judge.
     */
    static final Pattern LIBRARY_SEGMENTS = Pattern.compile("(vader_segment|sm_segment)\\..+|ucx_shm_posix_\\p{XDigit}+");
    /** Younger segments are left alone: one may be between its creation and its first open by a peer. */
    static final long SEGMENT_MIN_AGE_MS = 60_000;
    /** The initial PID namespace's inode (PROC_PID_INIT_INO): only there does /proc show every process. */
    private static final String INITIAL_PID_NAMESPACE = "4026531836";

    /**
     * Removes this user's MPI and UCX segments in /dev/shm ({@link #LIBRARY_SEGMENTS}) older than
     * {@code minAgeMs} that no process has open or mapped: their ranks were killed (kill -9, a time
     * limit) before the library could unlink them. Proven by file identity (device and inode),
     * which holds across mount namespaces, and only in the initial PID namespace, where /proc
     * lists every process of the host; elsewhere nothing is removed. Returns how many were.
     */
    static int removeOrphanedSegments(long minAgeMs) {
        if (!Files.isDirectory(SHM) || !INITIAL_PID_NAMESPACE.equals(ShmNames.namespace())) {
            return 0;
        }
        Map<String, Path> candidates = new HashMap<>(); // "major:minor inode" as /proc/PID/maps writes them
        long now = System.currentTimeMillis();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(SHM)) {
            for (Path file : files) {
                if (!LIBRARY_SEGMENTS.matcher(file.getFileName().toString()).matches() || !Files.isRegularFile(file)
                        || !ownedByMe(file)
                        || now - Files.getLastModifiedTime(file).toMillis() < minAgeMs) continue;
                candidates.put(identity(file), file);
            }
            if (candidates.isEmpty()) return 0;
            dropHeld(candidates);
        } catch (IOException | RuntimeException e) {
            return 0; // clean-up is a courtesy: it never fails a run
        }
        int removed = 0;
        for (Path file : candidates.values()) {
            try {
                if (Files.deleteIfExists(file)) removed++;
            } catch (IOException ignored) {
                // another run removed it first
            }
        }
        return removed;
    }

    /** "major:minor inode" of {@code file}, as /proc/PID/maps names a mapped file (hex device numbers). */
    private static String identity(Path file) throws IOException {
        long dev = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
        long ino = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
        return String.format(java.util.Locale.ROOT, "%02x:%02x %d", major(dev), minor(dev), ino);
    }

    private static long major(long dev) {
        return ((dev >>> 32) & 0xfffff000L) | ((dev >>> 8) & 0xfffL);
    }

    private static long minor(long dev) {
        return ((dev >>> 12) & 0xffffff00L) | (dev & 0xffL);
    }

    /** Drops from {@code candidates} every file some process has mapped or open. */
    private static void dropHeld(Map<String, Path> candidates) throws IOException {
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path proc : procs) {
                try {
                    for (String line : Files.readAllLines(proc.resolve("maps"), StandardCharsets.ISO_8859_1)) {
                        String[] f = line.split("\\s+", 6); // address perms offset dev inode path
                        if (f.length >= 5) candidates.remove(f[3] + " " + f[4]);
                    }
                    try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
                        for (Path fd : fds) {
                            try {
                                candidates.remove(identity(fd)); // follows the link to the open file
                            } catch (IOException closed) {
                                // closed meanwhile, or not a file
                            }
                        }
                    }
                } catch (java.nio.file.NoSuchFileException ended) {
                    // the process ended meanwhile
                } catch (IOException | SecurityException unreadable) {
                    // a process this user may not inspect is not one it started (a user reads its own
                    // processes' maps, unless they made themselves undumpable, which MPI ranks do not);
                    // another user's cannot open this user's 0600 segments
                }
                if (candidates.isEmpty()) return;
            }
        }
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
