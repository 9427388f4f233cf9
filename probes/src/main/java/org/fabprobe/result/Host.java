package org.fabprobe.result;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine a result came from (cpus as text, as the first schema versions wrote it). */
public record Host(String hostname, String os, String arch, String cpuModel, String cpus, String jvm) {

    public static Host here() {
        return new Host(localHostname(), System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("os.arch"), readCpuModel(), Integer.toString(Runtime.getRuntime().availableProcessors()),
                System.getProperty("java.vm.name") + " " + Runtime.version());
    }

    private static String localHostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String readCpuModel() {
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
