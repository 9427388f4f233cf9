package org.fabprobe.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.fabprobe.runtime.CpuAffinity;

/** Runs the fabprobe command line in-process and captures what it prints. */
record CliRun(int exitCode, String out, String err) {

    static synchronized CliRun of(String... args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int[] cpusBefore = CpuAffinity.allowedCpus();
            int code = Main.run(args);
            // a thread left pinned hands its one CPU to every process it starts: each later test's
            // mirror would share that CPU with the other spinning side (a time slice per round trip)
            int[] cpusAfter = CpuAffinity.allowedCpus();
            if (!Arrays.equals(cpusBefore, cpusAfter)) {
                throw new AssertionError("fabprobe " + String.join(" ", args) + " left the calling thread pinned to CPUs "
                        + Arrays.toString(cpusAfter));
            }
            return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
    }
}
