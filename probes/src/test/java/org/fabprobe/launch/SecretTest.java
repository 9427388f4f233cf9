package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;

import java.util.HashSet;
import java.util.Set;
import org.fabprobe.FabprobeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Secrets and nonces come from the kernel's random source: full length, never repeated. */
class SecretTest {

    @Test
    void noncesHaveTheLengthAskedForAndDoNotRepeat() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            byte[] n = Secret.nonce(32);
            assertEquals(32, n.length);
            assertTrue(seen.add(java.util.HexFormat.of().formatHex(n)), "a nonce came twice");
        }
    }

    @Test
    void aGeneratedSecretIs32BytesOfHexAndNewEachTime() {
        String a = Secret.generate().hex(), b = Secret.generate().hex();
        assertTrue(a.matches("[0-9a-f]{64}"), a);
        assertNotEquals(a, b);
    }

    @Test
    void aDirectoryOrAMissingFileIsNamedForWhatItIs(@TempDir java.nio.file.Path dir) {
        FabprobeException directory = assertThrows(FabprobeException.class, () -> Secret.fromFile(dir));
        assertTrue(directory.getMessage().endsWith("is a directory"), directory.getMessage());
        FabprobeException missing = assertThrows(FabprobeException.class, () -> Secret.fromFile(dir.resolve("absent")));
        assertTrue(missing.getMessage().endsWith(": no such file"), missing.getMessage());
    }
}
