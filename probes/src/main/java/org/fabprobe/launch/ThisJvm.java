package org.fabprobe.launch;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** How to start another fabprobe like this one: a local mirror, or the ranks of a local MPI run. */
public final class ThisJvm {
    private ThisJvm() {}

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
