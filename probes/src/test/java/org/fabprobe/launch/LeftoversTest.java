package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.nio.file.Files;
import java.nio.file.Path;
import org.fabprobe.transport.ShmNames;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Leftovers removes the files of owners that ended, zombies included, and nobody else's. */
class LeftoversTest {
    @Test
    void aZombieOwnersFileIsRemovedALiveOwnersIsKept() throws Exception {
        // sh forks a child that exits at once, then becomes a sleep that never reaps it: a zombie
        Process parent = new ProcessBuilder("sh", "-c", "sleep 0 & echo $!; exec sleep 30").start();
        Path zombieFile = null, liveFile = null;
        try {
            long zombie;
            try (BufferedReader out = new BufferedReader(new InputStreamReader(parent.getInputStream()))) {
                zombie = Long.parseLong(out.readLine().strip());
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (!Leftovers.ended(zombie)) {
                    assertTrue(System.nanoTime() < deadline, "the child never ended");
                    Thread.sleep(10);
                }
                assertTrue(ProcessHandle.of(zombie).isPresent(), "not a zombie: reaped already, the test proves nothing");
                zombieFile = Files.createFile(Path.of("/dev/shm", "fabprobe-" + zombie + "-" + ShmNames.namespace() + "-1"));
                liveFile = Files.createFile(Path.of("/dev/shm", "fabprobe-" + parent.pid() + "-" + ShmNames.namespace() + "-1"));
                assertFalse(Leftovers.ended(parent.pid()));

                Leftovers.removeDead();

                assertFalse(Files.exists(zombieFile), "the zombie's file stayed");
                assertTrue(Files.exists(liveFile), "the live process's file went");
            }
        } finally {
            parent.destroyForcibly().waitFor();
            if (zombieFile != null) Files.deleteIfExists(zombieFile);
            if (liveFile != null) Files.deleteIfExists(liveFile);
        }
    }

    @Test
    void anotherPidNamespacesFilesAreNeverJudged() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        assertTrue(Leftovers.ended(ended.pid()));
        assertTrue(Leftovers.procShowsMyPids());
        String otherNamespace = ShmNames.namespace().equals("1") ? "2" : "1";
        Path mine = Path.of("/dev/shm", "fabprobe-" + ended.pid() + "-" + ShmNames.namespace() + "-2");
        Path theirs = Path.of("/dev/shm", "fabprobe-sim-" + ended.pid() + "-" + otherNamespace + "-2");
        try {
            Files.createFile(mine);
            Files.createFile(theirs);
            Leftovers.removeDead();
            assertFalse(Files.exists(mine), "a dead owner's file of this namespace stayed");
            assertTrue(Files.exists(theirs), "a file of another PID namespace went: its pid names another process");
        } finally {
            Files.deleteIfExists(mine);
            Files.deleteIfExists(theirs);
        }
    }

    /**
     * Open MPI's and UCX's segments carry no pid: one is removed when no process has it open or
     * mapped (its ranks were killed), and kept while one does, or while it is young.
     */
    @Test
    void orphanedLibrarySegmentsGoHeldOrYoungOnesStay() throws Exception {
        Assumptions.assumeTrue(ShmNames.namespace().equals("4026531836"),
                "skipped: not in the initial PID namespace, where /proc shows every process");
        String tag = "fpotest" + ProcessHandle.current().pid();
        Path orphan = Path.of("/dev/shm", "vader_segment." + tag + ".1.0"), open = Path.of("/dev/shm", "vader_segment." + tag + ".1.1");
        Path mapped = Path.of("/dev/shm", "ucx_shm_posix_" + Long.toHexString(ProcessHandle.current().pid()) + "f0");
        Path young = Path.of("/dev/shm", "sm_segment." + tag + ".2.0");
        List<Path> all = List.of(orphan, open, mapped, young);
        Process holder = null;
        try (Arena arena = Arena.ofConfined()) {
            FileTime hourAgo = FileTime.fromMillis(System.currentTimeMillis() - 3_600_000);
            for (Path p : all) {
                Files.write(p, new byte[4096]);
                if (p != young) Files.setLastModifiedTime(p, hourAgo);
            }
            // another process holds one open (fd 3 survives the exec)
            holder = new ProcessBuilder("sh", "-c", "exec 3<" + open + "; echo ready; exec sleep 60").start();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream()))) {
                assertEquals("ready", out.readLine());
            }
            // this process maps one, its descriptor closed: only /proc/PID/maps shows it
            try (FileChannel channel = FileChannel.open(mapped, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                channel.map(FileChannel.MapMode.READ_WRITE, 0, 4096, arena);
            }

            Leftovers.removeOrphanedSegments(1000);

            assertFalse(Files.exists(orphan), "a segment no process holds stayed");
            assertTrue(Files.exists(open), "a segment another process has open went");
            assertTrue(Files.exists(mapped), "a segment this process maps went");
            assertTrue(Files.exists(young), "a young segment went");
        } finally {
            if (holder != null) holder.destroyForcibly().waitFor();
            for (Path p : all) Files.deleteIfExists(p);
        }
    }

    @Test
    void namesCarryThePidAndTheNamespace(@TempDir Path dir) throws Exception {
        var m = ShmNames.OURS.matcher(ShmNames.next());
        assertTrue(m.matches());
        assertEquals(Long.toString(ProcessHandle.current().pid()), m.group(1));
        assertEquals(ShmNames.namespace(), m.group(2));
        assertTrue(ShmNames.OURS.matcher(ShmNames.nextSim()).matches());
        assertFalse(ShmNames.OURS.matcher("fabprobe-123-abc").matches(), "a name without a namespace is not judged");
        Path link = Files.createSymbolicLink(dir.resolve("pid"), Path.of("pid:[4026531836]"));
        assertEquals("4026531836", ShmNames.pidNamespace(link));
        assertEquals("0", ShmNames.pidNamespace(dir.resolve("absent")));
    }
}
