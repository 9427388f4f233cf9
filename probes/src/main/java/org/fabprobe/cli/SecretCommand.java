package org.fabprobe.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.Callable;
import org.fabprobe.launch.Secret;
import picocli.CommandLine.Command;

/** `fabprobe secret > F`: a fresh shared secret for mirror and measure. */
@Command(name = "secret", mixinStandardHelpOptions = true,
        description = {"Print a fresh random secret (hex) for 'mirror --secret-file' and '--peer ... --secret-file'.",
                "Redirected to a file, the file is made readable by its owner only (mode 0600) before anything is written:",
                "  fabprobe secret > ~/.fabprobe-secret   # copy it to the other host the same way"})
final class SecretCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        ownerOnly(Path.of("/proc/self/fd/1"));
        System.out.println(Secret.generate().hex());
        return 0;
    }

    /** If standard output is a regular file, chmod 600 it (the shell created it with the umask's mode). */
    private static void ownerOnly(Path stdout) {
        try {
            Path target = stdout.toRealPath();
            if (Files.isRegularFile(target)) Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
        } catch (IOException | UnsupportedOperationException e) {
            // a terminal or a pipe: nothing to protect here
        }
    }
}
