package org.fabprobe.runtime;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** How to start another fabprobe like this one: a local mirror, or the ranks of a local MPI run. */
public final class ThisJvm {
    private ThisJvm() {}

    /**
     * Whether this JVM compiles fabprobe's methods in the thread that calls them (the
     * launchers' {@code BackgroundCompilation} command): then a timed loop that is still
     * compiling blocks its own thread, and the compiler threads may run at idle priority.
     */
    public static boolean compilesInCallingThread() {
        return hasArgument("BackgroundCompilation,org/fabprobe/");
    }

    /** Whether one of this JVM's arguments contains {@code fragment}. */
    public static boolean hasArgument(String fragment) {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream().anyMatch(a -> a.contains(fragment));
    }

    /** This JVM's own command line up to the main class (same flags, same class path). */
    public static List<String> command() {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.startsWith("-agentlib") && !arg.startsWith("-javaagent")) cmd.add(arg);
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("org.fabprobe.cli.Main");
        return cmd;
    }
}
