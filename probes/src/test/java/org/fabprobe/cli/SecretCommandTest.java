package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.fabprobe.runtime.ThisJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `fabprobe secret > F` leaves F readable by its owner only, whatever mode the shell created it with. */
class SecretCommandTest {

    @Test
    void aRedirectedSecretIsOwnerOnly(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("secret");
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
        List<String> cmd = new ArrayList<>(ThisJvm.command());
        cmd.add("secret");
        Process p = new ProcessBuilder(cmd).redirectOutput(file.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertEquals(0, p.waitFor());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        String secret = Files.readString(file).strip();
        assertTrue(secret.matches("[0-9a-f]{64}"), secret);
    }
}
