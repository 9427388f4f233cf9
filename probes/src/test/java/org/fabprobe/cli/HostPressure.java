package org.fabprobe.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Whether the host kept its CPUs busy with other work while a test ran: the kernel's CPU
 * pressure (/proc/pressure/cpu, "some": the share of wall time in which a runnable task waited
 * for a CPU). A test's own spinning pair on 2 CPUs leaves it low; another pair of busy loops
 * beside it holds it near 100 %. Where the kernel does not report it, the host counts as free.
 */
final class HostPressure {
    /** Above this share of the attempt's wall time with a task waiting for a CPU, the host was busy. */
    static final double BUSY = 0.6;
    private static final Path PSI = Path.of("/proc/pressure/cpu");

    private final long stalledUs, startNs;

    private HostPressure(long stalledUs, long startNs) {
        this.stalledUs = stalledUs;
        this.startNs = startNs;
    }

    static HostPressure start() {
        return new HostPressure(stalledUs(), System.nanoTime());
    }

    /** Null while the host had CPUs for the test since {@link #start}, else how busy it was, in words. */
    String busy() {
        long now = stalledUs();
        if (stalledUs < 0 || now < 0) return null;
        double share = (now - stalledUs) * 1e3 / Math.max(1, System.nanoTime() - startNs);
        return share > BUSY ? String.format(Locale.ROOT, "a task waited for a CPU %.0f %% of the time", 100 * share) : null;
    }

    /** The "some" line's total stall in microseconds, or -1 where the kernel has no pressure file. */
    private static long stalledUs() {
        try {
            String some = Files.readAllLines(PSI).getFirst();
            return Long.parseLong(some.substring(some.indexOf("total=") + 6).trim());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
