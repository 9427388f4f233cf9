package org.fabprobe.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ThreadLocalRandom;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.launch.LocalLauncher;
import org.fabprobe.plot.Plots;

/**
 * The output files (--json, --csv, --plot, --junit); "-" means standard output. They are
 * checked before anything is measured, and written to a temporary file in the same directory
 * that is then renamed into place, so a failure leaves no half file. Directories are never
 * created nor removed. A device or pipe (/dev/null, /dev/stdout) is written directly.
 */
final class Output {
    private Output() {}

    /** Writes one file's content to {@code target}, a path it may create. */
    interface Writer {
        void to(Path target) throws IOException;
    }

    /** True where this process renders the result; a rank that replies to the launching process or is not rank 0 does not. */
    static boolean writesHere() {
        if (LocalLauncher.replyWanted()) return false;
        for (String rank : new String[] {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"}) {
            String value = System.getenv(rank);
            if (value != null) return value.strip().equals("0");
        }
        return true;
    }

    /**
     * Refuses (exit 2, one line) an output path that cannot be written: its directory is missing
     * or not writable, it is a directory, or it exists but is not a writable file.
     */
    static void check(String option, Path file) {
        if (file == null || isStdout(file) || !writesHere()) return;
        String reason = problem(file);
        if (reason != null) throw new FabprobeException(ExitCode.USAGE, option + " " + file + ": cannot write there (" + reason + ")");
    }

    /** Why {@code file} cannot be written, or null when it can. */
    private static String problem(Path file) {
        if (Files.isDirectory(file)) return "it is a directory";
        if (Files.exists(file)) {
            if (!Files.isWritable(file)) return "not writable";
            if (direct(file)) return null;
        }
        Path dir = directory(real(file));
        if (!Files.exists(dir)) return "no directory " + dir;
        if (!Files.isDirectory(dir)) return dir + " is not a directory";
        // creating the temporary file is the one test that also holds for root, read-only mounts and /proc
        Path probe = temporary(dir, file);
        try {
            Files.createFile(probe);
            Files.delete(probe);
            return null;
        } catch (IOException e) {
            return reason(e);
        }
    }

    /** Writes {@code content} to {@code file} (nothing if null, stdout if "-"). */
    static void write(Path file, String content) {
        if (file == null) return;
        if (isStdout(file)) {
            System.out.print(content);
            return;
        }
        write(file, target -> Files.writeString(target, content, StandardCharsets.UTF_8));
    }

    /** Draws {@code document} to {@code file} (nothing if null). */
    static void draw(Path file, Object document) {
        if (file != null) write(file, target -> Plots.write(document, target));
    }

    /** Lets {@code writer} write a temporary file next to {@code file}, then renames it into place. */
    static void write(Path file, Writer writer) {
        try {
            if (Files.exists(file) && direct(file)) {
                writer.to(file);
                return;
            }
            Path real = real(file);
            Path temp = temporary(directory(real), real);
            try {
                writer.to(temp);
                Files.move(temp, real, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw new FabprobeException(ExitCode.OUTPUT_FAILED, "writing " + file + " failed (" + reason(e) + ")");
        }
    }

    static boolean isStdout(Path file) {
        return file.toString().equals("-");
    }

    /**
     * A device, pipe or /proc entry is written in place: it cannot be replaced, and must not be
     * (/dev/stdout can lead to the file stdout is redirected to).
     */
    private static boolean direct(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        return !Files.isRegularFile(file) || absolute.startsWith("/dev") || absolute.startsWith("/proc");
    }

    /** The file a link leads to: that is what gets replaced, not the link. */
    private static Path real(Path file) {
        try {
            return Files.isRegularFile(file) ? file.toRealPath() : file;
        } catch (IOException e) {
            return file;
        }
    }

    private static Path directory(Path file) {
        Path parent = file.toAbsolutePath().getParent();
        return parent == null ? Path.of("/") : parent;
    }

    /** A hidden name in {@code dir} that ends like {@code file}'s, so its extension still names the format. */
    private static Path temporary(Path dir, Path file) {
        long random = ThreadLocalRandom.current().nextLong() >>> 1;
        return dir.resolve(".fabprobe-" + Long.toString(random, 36) + "-" + file.getFileName());
    }

    /** The operating system's reason, without Java's exception names. */
    private static String reason(IOException e) {
        if (e instanceof AccessDeniedException) return "permission denied";
        if (e instanceof NoSuchFileException) return "no such file or directory";
        if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason();
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
