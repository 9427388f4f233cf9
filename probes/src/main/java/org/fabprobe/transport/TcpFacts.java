package org.fabprobe.transport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Host settings that shape what a transport over kernel TCP measures, recorded with its facts. */
public final class TcpFacts {
    private static final Path CONGESTION_CONTROL = Path.of("/proc/sys/net/ipv4/tcp_congestion_control");
    private static final String CONGESTION_CONTROL_FACT = "tcp_congestion_control";

    private TcpFacts() {}

    /** Records the congestion control among a transport's facts. */
    public static void record(Map<String, String> facts) {
        facts.put(CONGESTION_CONTROL_FACT, congestionControl());
    }

    /**
     * The kernel's default congestion control, which the library's sockets get. With bbr the
     * kernel paces a connection by a bandwidth model it learns from that connection's earlier
     * traffic: after the 0 B JIT warm-up and sentinels, 1 MiB round trips over loopback
     * tcp;ofi_rxm were paced to 221-278 us against 134-138 us with cubic.
     */
    public static String congestionControl() {
        try {
            return Files.readString(CONGESTION_CONTROL).strip();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
