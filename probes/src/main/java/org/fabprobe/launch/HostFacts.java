package org.fabprobe.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The machine a result came from; measure and mirror each send their own to the other. */
public final class HostFacts {
    private HostFacts() {}

    public static Map<String, String> collect() {
        Map<String, String> host = new LinkedHashMap<>();
        host.put("hostname", hostname());
        host.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        host.put("arch", System.getProperty("os.arch"));
        host.put("cpu_model", cpuModel());
        host.put("cpus", Integer.toString(Runtime.getRuntime().availableProcessors()));
        host.put("jvm", System.getProperty("java.vm.name") + " " + Runtime.version());
        return host;
    }

    /** This boot of this machine: two processes with the same id share /dev/shm and pids. */
    public static String bootId() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * The kernel's host name, as {@code hostname} prints it: read from /proc, not through
     * InetAddress.getLocalHost, whose name-service lookup took ~30 ms of each JVM's start here
     * and waits for DNS where the host name is not in /etc/hosts.
     */
    static String hostname() {
        try {
            String name = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            if (!name.isEmpty()) return name;
        } catch (IOException e) {
            // not Linux: ask the name service
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
