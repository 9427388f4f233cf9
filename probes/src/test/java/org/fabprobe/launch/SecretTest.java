package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

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
}
