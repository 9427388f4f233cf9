package org.fabprobe.runtime;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The kernel's scheduling policy of the JIT compiler threads, read from /proc, in this JVM and in one started as the launchers start fabprobe. */
class CompilerThreadsTest {
    private static final int SCHED_OTHER = 0, SCHED_IDLE = 5;

    @Test
    void aJvmCompilingInTheBackgroundKeepsItsCompilersAtNormalPriority() throws IOException {
        List<Integer> before = policies();
        assertFalse(before.isEmpty(), "no compiler thread found in /proc/self/task");
        try (CompilerThreads.Lowered lowered = CompilerThreads.lower()) {
            assertEquals(before, policies(), "lowered although fabprobe's code compiles in the background here");
        }
    }

    @Test
    void theLaunchersJvmLowersItsCompilersToIdleAndBack() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:CompileCommand=quiet",
                "-XX:CompileCommand=BackgroundCompilation,org/fabprobe/*.*,false",
                "-cp", System.getProperty("java.class.path"), Child.class.getName())
                .redirectErrorStream(true).start();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not finish");
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, child.exitValue(), out);
        String[] lines = out.split("\n");
        assertEquals(3, lines.length, out);
        assertTrue(lines[0].matches("before \\[0(, 0)*\\]"), out);
        assertTrue(lines[1].matches("lowered \\[5(, 5)*\\]"), out);
        assertTrue(lines[2].matches("after \\[0(, 0)*\\]"), out);
    }

    /** Started in a JVM of its own: prints its compiler threads' policies before, while and after they are lowered. */
    static final class Child {
        public static void main(String[] args) throws IOException {
            System.out.println("before " + policies());
            try (CompilerThreads.Lowered lowered = CompilerThreads.lower()) {
                System.out.println("lowered " + policies());
            }
            System.out.println("after " + policies());
        }
    }

    /** The policy (field 41 of /proc/self/task/TID/stat) of each compiler thread. */
    static List<Integer> policies() throws IOException {
        List<Integer> policies = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String stat = Files.readString(task.resolve("stat"));
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                if (!name.startsWith("C1 CompilerThre") && !name.startsWith("C2 CompilerThre")) continue;
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                policies.add(Integer.parseInt(fields[41 - 3]));
            }
        }
        return policies;
    }
}
