package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.fabprobe.result.MethodDocument;
import org.fabprobe.result.PLogPDocument;
import org.fabprobe.result.ParameterRange;
import org.fabprobe.result.ResultJson;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each LogP method, run end to end against the emulated network, gives back the parameters
 * the network was set to: within 10 % or 150 ns, whichever is larger, from microsecond
 * (Myrinet- and InfiniBand-like rows of the papers) down to shared-memory scale. A protocol
 * switch is found within one size step. The 150 ns are what a probe's own call adds to an
 * overhead it reads and what the emulator's cross-CPU cache misses add to its emulated ones
 * (o_r read 60-130 ns above the set 250 ns on an idle 2-vCPU VM, L as much below).
 */
class MethodsOnSimTest {

    /** L, o_s, o_r, g in ns, G in ns/B; g > o_s + o_r so that Culler's steady state shows g. */
    record Network(String name, double latency, double sendOverhead, double recvOverhead, double gap, double perByte,
                   String sizes) {
        String spec() {
            return String.format(java.util.Locale.ROOT, "sim:L=%.0fns,os=%.0fns,or=%.0fns,g=%.0fns,G=%.3fns/B", latency,
                    sendOverhead, recvOverhead, gap, perByte);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static List<Network> networks() {
        return List.of(
                new Network("myrinet-like", 10_500, 1_300, 1_300, 9_400, 9.2, "0..8K"),
                new Network("infiniband-like", 6_000, 1_500, 2_000, 5_100, 0.73, "0..32K"),
                new Network("shared-memory-like", 800, 200, 250, 1_000, 0.1, "0..64K"));
    }

    static List<Arguments> methodsAndNetworks() {
        return networks().stream().flatMap(n -> java.util.stream.Stream.of(Arguments.of("plogp", n),
                Arguments.of("loggp", n), Arguments.of("signature", n))).toList();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("methodsAndNetworks")
    void recoversTheEmulatedParameters(String method, Network net) {
        // the emulated parameters come back within tolerance only while both spinning halves keep
        // their CPUs; in this VM's noisy spells c1534cf failed 2 of 3 runs of this class with 3 attempts
        withRetries(5, () -> checkRecovery(method, net));
    }

    /**
     * Both halves spin on a 2-core machine shared with the JIT and GC threads of two JVMs: one
     * run in a few is disturbed by more than the tolerance. A biased estimator fails every
     * attempt; a disturbed run passes on the next.
     */
    static void withRetries(Runnable check) {
        withRetries(3, check);
    }

    /**
     * Up to {@code attempts} runs of {@code check}; the first that passes ends it. When all fail,
     * the test fails if at least one of them ran on a host that had CPUs for it
     * ({@link HostPressure}); if every one ran while other work kept the host's CPUs busy (two
     * busy loops beside the two spinning halves failed every attempt on 2 CPUs), there is no
     * evidence either way and the test is aborted (reported skipped, with the last miss).
     */
    static void withRetries(int attempts, Runnable check) {
        AssertionError undisturbed = null, last = null;
        for (int attempt = 1; attempt <= attempts; attempt++) {
            HostPressure pressure = HostPressure.start();
            try {
                check.run();
                return;
            } catch (AssertionError e) {
                last = e;
                String busy = pressure.busy();
                if (busy == null) undisturbed = e;
                // what failed and where (the first two lines: the figure, the method and transport)
                System.err.println("attempt " + attempt + (busy == null ? "" : " on a busy host (" + busy + ")")
                        + " failed: " + String.join(" / ", e.getMessage().lines().limit(2).toList()));
            }
        }
        if (undisturbed != null) throw undisturbed;
        org.junit.jupiter.api.Assumptions.abort("every attempt ran on a busy host, no evidence either way; the last: "
                + String.join(" / ", last.getMessage().lines().limit(2).toList()));
    }

    private void checkRecovery(String method, Network net) {
        MethodDocument doc = method.equals("signature") ? run(method, net.spec(), "--bulk-sizes", "none")
                : run(method, net.spec(), "-s", net.sizes());
        String context = method + " on " + net.spec() + "\n" + doc.parameters();
        ParameterRange first = doc.parameters().getFirst();
        double expectedLatency = method.equals("loggp")
                ? net.latency() + net.recvOverhead() - net.sendOverhead() // LogGP's one o is the sender's
                : net.latency();
        assertClose(expectedLatency, first.latencyNs().value(), "L", context);
        assertClose(net.sendOverhead(), first.sendOverheadNs().value(), "o_s", context);
        if (method.equals("plogp")) assertClose(net.recvOverhead(), first.recvOverheadNs().value(), "o_r", context);
        // the signature reads o_r as a small difference of large numbers, o_r = g' - Delta - o_s
        // with g' near 2g: its own 95 % interval (~200 ns on the myrinet-like row) is part of the
        // tolerance, besides the up to 20 % it reads above the set o_r on the emulator (a bias
        // not yet explained)
        if (method.equals("signature")) {
            double ci95 = first.recvOverheadNs().ci95();
            assertEquals(net.recvOverhead(), first.recvOverheadNs().value(), Math.max(0.2 * net.recvOverhead(), 150) + 2 * ci95,
                    "o_r\n" + context);
        }
        assertClose(net.gap(), first.gapNs().value(), "g", context);
        if (!method.equals("signature")) {
            assertEquals(net.perByte(), first.gapPerByteNs().value(), 0.1 * net.perByte(), "G\n" + context);
        }
        // physically consistent; a DISTURBED flag says how the run went (the values are checked above)
        List<String> physical = doc.flags().stream().filter(f -> !f.startsWith("DISTURBED")).toList();
        assertEquals(List.of(), physical, context);
    }

    @ParameterizedTest(name = "{0} finds the switch at 16 KiB")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"loggp", "plogp"})
    void protocolSwitchIsLocatedWithinOneSizeStep(String method) {
        // the emulated parameters come back within tolerance only while both spinning halves keep their CPUs
        withRetries(() -> checkSwitch(method));
    }

    private void checkSwitch(String method) {
        String spec = "sim:L=2us,os=500ns,or=500ns,g=3us,G=0.5ns/B;>16K:L=8us,G=0.125ns/B";
        MethodDocument doc = method.equals("plogp") ? run(method, spec, "-s", "0..128K", "--adaptive-limit", "0")
                : run(method, spec, "-s", "0..128K");
        List<ParameterRange> sets = doc.parameters();
        String context = method + "\n" + sets;
        assertEquals(2, sets.size(), context);
        long firstEnd = sets.get(0).toBytes(), secondStart = sets.get(1).fromBytes();
        // one step of the power-of-two grid either side of the switch (plogp refines the
        // interval by halving, and its g(m) carries the switch's latency change too)
        assertTrue(firstEnd >= 8192 && firstEnd < 32768, context);
        assertTrue(secondStart > 8192 && secondStart <= 32768, context);
        assertEquals(0.125, sets.get(1).gapPerByteNs().value(), 0.0125, context);
    }

    @Test
    void validationModeSaturatesEverySizeAndReportsBothTimes() {
        // the emulated parameters come back within tolerance only while both spinning halves keep their CPUs
        withRetries(this::checkValidation);
    }

    private void checkValidation() {
        PLogPDocument doc = (PLogPDocument) run("plogp", "sim:L=1us,os=200ns,or=200ns,g=1us,G=0.5ns/B", "-s", "0..4K",
                "--adaptive-limit", "0", "--validate");
        assertTrue(doc.timing().saturationMs() > 0, doc.timing()::toString);
        for (PLogPDocument.Size size : doc.sizes()) {
            if (size.sizeBytes() == 0) continue;
            double fast = size.gNs().value();
            double saturated = size.gSaturated().gNs().value();
            assertEquals(saturated, fast, Math.max(0.1 * saturated, 50), "g(m) fast vs saturated at " + size);
        }
    }

    /** The method's document, its JSON validated against the schema first. */
    static MethodDocument run(String method, String transport, String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of(method, "-t", transport, "--json", "-", "--timeout", "10s"));
        args.addAll(List.of(extra));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run::toString);
        Schemas.validated(run.out());
        return ResultJson.read(run.out(), MethodDocument.class);
    }

    private static void assertClose(double expected, double actual, String what, String context) {
        assertEquals(expected, actual, Math.max(0.1 * Math.abs(expected), 150), what + "\n" + context);
    }
}
