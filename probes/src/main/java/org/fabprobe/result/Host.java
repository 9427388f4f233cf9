package org.fabprobe.result;

import java.util.Map;

/** The machine a result came from (cpus as text, as the first schema versions wrote it). */
public record Host(String hostname, String os, String arch, String cpuModel, String cpus, String jvm) {

    /** The facts launch.HostFacts collects (the mirror sends its own the same way). */
    public static Host of(Map<String, String> facts) {
        return new Host(facts.getOrDefault("hostname", "unknown"), facts.getOrDefault("os", ""),
                facts.getOrDefault("arch", ""), facts.getOrDefault("cpu_model", ""), facts.getOrDefault("cpus", ""),
                facts.getOrDefault("jvm", ""));
    }
}
