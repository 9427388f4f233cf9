package org.fabprobe.transport.ucx;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * UCX_NET_DEVICES for the interface that owns an address: the timed traffic goes where the
 * peer is reached, not over whatever devices UCX would pick. tcp takes the interface itself
 * (lo on loopback); InfiniBand transports (rc, ud, dc) take the HCA port behind an IPoIB
 * interface, as /sys/class/net/IF/device/infiniband/ names it (written to the kernel's sysfs
 * contract; there is no InfiniBand hardware where fabprobe is developed). Shared-memory
 * transports need no device.
 */
final class NetDevices {
    private NetDevices() {}

    /** The NET_DEVICES value for {@code tls} bound to {@code address}, or "" to leave UCX's default. */
    static String forAddress(String tls, String address) {
        if (address == null || address.isEmpty()) return "";
        String ifname = interfaceOf(address);
        if (ifname.isEmpty()) return "";
        List<String> devices = new ArrayList<>();
        List<String> names = List.of(tls.split(","));
        if (names.stream().anyMatch(t -> t.startsWith("tcp"))) devices.add(ifname);
        if (names.stream().anyMatch(t -> t.startsWith("rc") || t.startsWith("ud") || t.startsWith("dc") || t.equals("ib"))) {
            String hca = hcaPortOf(ifname);
            if (!hca.isEmpty()) devices.add(hca);
        }
        return String.join(",", devices);
    }

    /** The name of the interface holding {@code address} ("lo" for loopback), or "". */
    static String interfaceOf(String address) {
        try {
            InetAddress a = InetAddress.getByName(address);
            if (a.isLoopbackAddress()) return "lo";
            NetworkInterface nic = NetworkInterface.getByInetAddress(a);
            return nic == null ? "" : nic.getName();
        } catch (IOException e) {
            return "";
        }
    }

    /** "mlx5_0:1" for an IPoIB interface, "" for any other. */
    private static String hcaPortOf(String ifname) {
        Path dir = Path.of("/sys/class/net", ifname, "device", "infiniband");
        if (!Files.isDirectory(dir)) return "";
        try (DirectoryStream<Path> hcas = Files.newDirectoryStream(dir)) {
            for (Path hca : hcas) {
                int port = 1;
                Path devPort = Path.of("/sys/class/net", ifname, "dev_port");
                if (Files.exists(devPort)) port = Integer.parseInt(Files.readString(devPort).strip()) + 1;
                return hca.getFileName() + ":" + port;
            }
        } catch (IOException | NumberFormatException e) {
            return "";
        }
        return "";
    }
}
