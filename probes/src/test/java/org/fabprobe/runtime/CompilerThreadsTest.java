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
public class CompilerThreadsTest {
    private static final int SCHED_OTHER = 0, SCHED_IDLE = 5;

    @Test
    void aJvmCompilingInTheBackgroundKeepsItsCompilersAtNormalPriority() throws Exception {
        String out = runChild(BackgroundChild.class, 60, false);
        assertTrue(out.matches("before \\[0(, 0)*\\]\nlowered \\[0(, 0)*\\]"), out);
    }

    @Test
    void theLaunchersJvmLowersItsCompilersToIdleAndBack() throws Exception {
        String out = runChild(Child.class, 60, true);
        if (out.equals("not restorable")) return; // an ordinary user: nothing is lowered
        String[] lines = out.split("\n");
        assertEquals(3, lines.length, out);
        assertTrue(lines[0].matches("before \\[0(, 0)*\\]"), out);
        assertTrue(lines[1].matches("lowered \\[5(, 5)*\\]"), out);
        assertTrue(lines[2].matches("after \\[0(, 0)*\\]"), out);
    }

    /**
     * The stall a busy node caused: a thread waiting for the compilation of its own code while
     * other work holds every CPU. In a JVM with the launchers' flags, spinning threads pinned to
     * every CPU, the main thread makes its methods hot; the guard must see it waiting on a
     * starved compiler and restore the compilers, and the thread must finish.
     */
    @Test
    void theGuardRestoresStarvedCompilersForAWaitingThread() throws Exception {
        String out = runChild(org.fabprobe.pattern.StarvedCompileChild.class, 180, true);
        if (out.contains("not restorable")) return; // an ordinary user: nothing is lowered, nothing to guard
        assertTrue(out.contains("restored true"), out);
        assertTrue(out.matches("(?s).*after \\[0(, 0)*\\].*"), out);
    }

    /**
     * Runs {@code main} in a JVM of its own, with the launchers' compile flag or with the JVM's
     * default (background compilation); its output, once it ended with exit 0.
     */
    private static String runChild(Class<?> main, int seconds, boolean launchersFlag) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:CompileCommand=quiet"));
        if (launchersFlag) {
            // the launchers' compile command and directives: the guard's own methods compile in
            // the background there, so it never waits on the compilers it is to restore
            command.add("-XX:CompileCommand=BackgroundCompilation,org/fabprobe/*.*,false");
            command.addAll(List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:-DisplayVMOutput", "-XX:CompilerDirectivesFile=" + shippedDirectives()));
        }
        // every compiler thread exists before the lowering: one the JVM adds later would run at
        // normal priority, compile what the thread waits for, and the guard would have nothing to do
        command.add("-XX:-UseDynamicNumberOfCompilerThreads");
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        boolean ended = child.waitFor(seconds, TimeUnit.SECONDS);
        if (!ended) child.destroyForcibly().waitFor();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(ended, main.getSimpleName() + " never finished: " + out);
        assertEquals(0, child.exitValue(), out);
        return out;
    }

    /** scripts/jit-directives.json of this checkout, found upwards from the working directory. */
    private static Path shippedDirectives() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path file = dir.resolve("scripts/jit-directives.json");
            if (Files.isRegularFile(file)) return file;
        }
        throw new IllegalStateException("scripts/jit-directives.json not found above " + Path.of("").toAbsolutePath());
    }

    /** Started without the launchers' flag: prints its compiler threads' policies before and while asked to lower them. */
    static final class BackgroundChild {
        public static void main(String[] args) throws IOException {
            System.out.println("before " + policies());
            try (CompilerThreads.Lowered lowered = CompilerThreads.lower()) {
                System.out.println("lowered " + policies());
            }
        }
    }

    /** Started in a JVM of its own: prints its compiler threads' policies before, while and after they are lowered. */
    static final class Child {
        public static void main(String[] args) throws IOException {
            if (!IdlePriority.restorable()) {
                System.out.println("not restorable");
                return;
            }
            System.out.println("before " + policies());
            try (CompilerThreads.Lowered lowered = CompilerThreads.lower()) {
                System.out.println("lowered " + policies());
            }
            System.out.println("after " + policies());
        }
    }

    /** The policy (field 41 of /proc/self/task/TID/stat) of each compiler thread. */
    public static List<Integer> policies() throws IOException {
        List<Integer> policies = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (java.nio.file.NoSuchFileException ended) {
                    continue; // a thread that ended meanwhile (the guard, once its phase is over)
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                if (!name.startsWith("C1 CompilerThre") && !name.startsWith("C2 CompilerThre")) continue;
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                policies.add(Integer.parseInt(fields[41 - 3]));
            }
        }
        return policies;
    }
}
