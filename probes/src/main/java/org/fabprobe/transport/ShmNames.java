package org.fabprobe.transport;

import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Names of the files fabprobe's transports put in /dev/shm: "fabprobe-PID-HEX" (the libfabric
 * shm provider's region, named through fi_setname) and "fabprobe-sim-PID-HEX" (the emulator's
 * inbox). The pid is the owner's, so what a killed process left can be told from the rest.
 */
public final class ShmNames {
    /** Every name this class gives; group 1 is the owner's pid. */
    public static final Pattern OURS = Pattern.compile("fabprobe-(?:sim-)?(\\d+)-[0-9a-f]+");

    private ShmNames() {}

    /** A fresh name for a shared-memory endpoint of this process. */
    public static String next() {
        return named("fabprobe-");
    }

    /** A fresh name for an emulator inbox of this process. */
    public static String nextSim() {
        return named("fabprobe-sim-");
    }

    private static String named(String prefix) {
        return prefix + ProcessHandle.current().pid() + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
    }
}
