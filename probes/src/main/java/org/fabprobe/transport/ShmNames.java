package org.fabprobe.transport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Names of the files fabprobe's transports put in /dev/shm: "fabprobe-PID-NS-HEX" (the libfabric
 * shm provider's region, named through fi_setname) and "fabprobe-sim-PID-NS-HEX" (the emulator's
 * inbox). PID is the owner's and NS its PID namespace's inode, so what a killed process left can
 * be told from the rest by a process that sees the same pids.
 */
public final class ShmNames {
    /** Every name this class gives; group 1 is the owner's pid, group 2 its PID namespace. */
    public static final Pattern OURS = Pattern.compile("fabprobe-(?:sim-)?(\\d+)-(\\d+)-[0-9a-f]+");

    private static final String NAMESPACE = pidNamespace(Path.of("/proc/self/ns/pid"));

    private ShmNames() {}

    /** A fresh name for a shared-memory endpoint of this process. */
    public static String next() {
        return named("fabprobe-");
    }

    /** A fresh name for an emulator inbox of this process. */
    public static String nextSim() {
        return named("fabprobe-sim-");
    }

    /** This process's PID namespace, as its names carry it ("0" where the kernel does not say). */
    public static String namespace() {
        return NAMESPACE;
    }

    /** The inode in a namespace link's target, "pid:[4026531836]"; "0" if there is none. */
    public static String pidNamespace(Path link) {
        try {
            String target = Files.readSymbolicLink(link).toString();
            String inode = target.replaceAll("\\D", "");
            return inode.isEmpty() ? "0" : inode;
        } catch (IOException | RuntimeException e) {
            return "0";
        }
    }

    private static String named(String prefix) {
        return prefix + ProcessHandle.current().pid() + "-" + NAMESPACE + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
    }
}
