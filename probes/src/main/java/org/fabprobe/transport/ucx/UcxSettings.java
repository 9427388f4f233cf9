package org.fabprobe.transport.ucx;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The UCX configuration fabprobe pins, from one place for raw {@code ucx:TLS} (applied with
 * ucp_config_modify) and for MPI over UCX (applied as UCX_* environment variables before
 * MPI_Init), so that {@code compare} measures both sides on the same devices and protocols.
 * Both sides record what they pinned as facts {@code ucx.KEY}.
 *
 * <p>Pinned: UCX_TLS, and UCX_NET_DEVICES for the interface that owns the source address
 * ({@link NetDevices}: lo on loopback): with another interface present UCX otherwise also
 * uses it, and its rendezvous threshold follows the device set (Open MPI pml ucx over tcp
 * switched at 8 KiB instead of raw UCX's ~16 KiB). Nothing else is pinned: every other
 * UCX_* variable of the user's environment reaches both sides alike.
 */
public final class UcxSettings {
    /** What a fact says for a key UCX chooses itself. */
    public static final String UCX_DEFAULT = "(UCX default)";

    private UcxSettings() {}

    /**
     * @param tls         the UCX_TLS value
     * @param sourceNode  the address the transports bind to, or null if not known (UCX chooses)
     * @return keys without the UCX_ prefix, in the order they are applied
     */
    public static Map<String, String> pinned(String tls, String sourceNode) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("TLS", tls);
        String devices = NetDevices.forAddress(tls, sourceNode);
        if (!devices.isEmpty()) m.put("NET_DEVICES", devices);
        return m;
    }

    /** The facts both sides record: ucx.TLS, ucx.NET_DEVICES (UCX_DEFAULT where not pinned). */
    public static Map<String, String> facts(Map<String, String> pinned) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("ucx.TLS", pinned.get("TLS"));
        f.put("ucx.NET_DEVICES", pinned.getOrDefault("NET_DEVICES", UCX_DEFAULT));
        return f;
    }

    /**
     * Whether UCX over {@code tls} runs one-sided operations as active messages that the
     * target's worker progress serves: over tcp alone UCX 1.13 has no lane that puts, gets or
     * runs atomics by itself.
     */
    public static boolean emulatesOneSided(String tls) {
        return !tls.contains("posix") && !tls.contains("sysv") && !tls.contains("cma") && !tls.contains("rc")
                && !tls.contains("dc") && !tls.contains("xpmem") && !tls.contains("knem") && !tls.contains("all")
                && !tls.contains("sm");
    }
}
