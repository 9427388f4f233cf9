package org.fabprobe.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes an optional output file; "-" means standard output. */
final class Output {
    private Output() {}

    static void write(Path file, String content) throws IOException {
        if (file == null) return;
        if (file.toString().equals("-")) {
            System.out.print(content);
        } else {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            Files.writeString(file, content);
        }
    }
}
