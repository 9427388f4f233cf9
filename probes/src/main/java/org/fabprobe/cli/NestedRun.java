package org.fabprobe.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Runs a fabprobe command line inside this process, exactly as the command would run on its
 * own ({@link Main#run}: local mirror, MPI relaunch, sessions), and captures what it writes on
 * stdout (its --json document) and the error line it prints. compare and accept run their
 * measurements this way.
 */
final class NestedRun {
    /** Exit code, stdout, and the last "fabprobe: ..." line it printed on stderr (null if none). */
    record Result(int exitCode, String stdout, String error) {}

    private NestedRun() {}

    static synchronized Result run(List<String> args) {
        PrintStream stdout = System.out, stderr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int code;
        try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8);
             PrintStream err = new PrintStream(new Tee(stderr, errors), true, StandardCharsets.UTF_8)) {
            System.setOut(out);
            System.setErr(err); // still shown as it comes, and kept for the error line
            code = Main.run(args.toArray(String[]::new));
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
        String error = null;
        for (String line : errors.toString(StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("fabprobe: ")) error = line.substring("fabprobe: ".length()).strip();
        }
        return new Result(code, captured.toString(StandardCharsets.UTF_8), error);
    }

    /** Writes to the real stderr and to a buffer. */
    private static final class Tee extends OutputStream {
        private final OutputStream a, b;

        Tee(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int c) throws java.io.IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public void write(byte[] bytes, int off, int len) throws java.io.IOException {
            a.write(bytes, off, len);
            b.write(bytes, off, len);
        }

        @Override
        public void flush() throws java.io.IOException {
            a.flush();
        }
    }
}
