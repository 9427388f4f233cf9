package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fabprobe.ExitCode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A native library that cannot be loaded ends with exit 7 and one line naming it. The library is
 * made unloadable for real: a child JVM finds a file that is not a shared object under the
 * library's name first on LD_LIBRARY_PATH, so dlopen fails as it would on a machine without it.
 */
class MissingLibraryTest {

    @ParameterizedTest
    @CsvSource({"libfabric.so.1, providers, '', libfabric1",
            "libfabric.so.1, pingpong, ofi:shm, libfabric1",
            "libucp.so.0, pingpong, ucx:tcp, libucx0"})
    void missingNativeLibraryExitsSeven(String library, String command, String transport, String packageName,
                                        @TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(library), "not a shared object\n");
        Path log = dir.resolve("out.log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> args = new java.util.ArrayList<>(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), "org.fabprobe.cli.Main", command));
        if (!transport.isEmpty()) args.addAll(List.of("-t", transport, "-s", "8", "-n", "10"));
        ProcessBuilder builder = new ProcessBuilder(args).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("LD_LIBRARY_PATH", dir.toString());
        Process process = builder.start();
        try {
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "did not end");
            String out = Files.readString(log);
            assertEquals(ExitCode.MISSING_DEPENDENCY, process.exitValue(), out);
            String error = out.lines().filter(l -> l.startsWith("fabprobe:")).findFirst().orElse("");
            assertTrue(error.contains("native library missing") && error.contains(library) && error.contains(packageName), out);
            assertFalse(out.contains("\tat "), () -> "stack trace printed:\n" + out);
        } finally {
            process.destroyForcibly();
        }
    }
}
