package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

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
                zombieFile = Files.createFile(Path.of("/dev/shm", "fabprobe-" + zombie + "-1"));
                liveFile = Files.createFile(Path.of("/dev/shm", "fabprobe-" + parent.pid() + "-1"));
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
}
