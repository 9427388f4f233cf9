package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import org.fabprobe.result.LogGPDocument;
import org.fabprobe.result.MethodDocument;
import org.fabprobe.result.PLogPDocument;
import org.fabprobe.result.ParameterRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * plogp and loggp with --op write and --op read: the probes' messages are one-sided writes
 * (write-and-poll) or reads. On the emulator a write costs the target nothing and a read's
 * completion costs its origin nothing, so the set o_s, g, G and L come back and o_r is about 0
 * (a look and a progress call); over the real libraries the figures are sane and the op is recorded.
 */
class OneSidedMethodsTest {
    /** o_r is set but must not show: the emulator's writes cost the target only the call that applies them. */
    private static final double L = 10_000, OS = 3_000, GAP = 12_000, PER_BYTE = 2;
    private static final String SPEC = "sim:L=10us,os=3us,or=1us,g=12us,G=2ns/B";

    /**
     * plogp's L is the set L for both ops (writes: pLogP's L by Table 1; reads: (RTT(0) - o_s - o_r) / 2).
     * loggp's L is RTT/2 - o with one o, the sender's: a write's target adds none, so L - o_s; a
     * read's PRTT(1,0,s) = 2L + o + (s-1)G, and the emulator's completion costs nothing: the set L.
     */
    @ParameterizedTest(name = "{0} --op {1}")
    @CsvSource({"plogp,write", "loggp,write", "plogp,read", "loggp,read"})
    void recoversTheSetParametersOnSimWithin5Percent(String method, String op) {
        boolean plogp = method.equals("plogp");
        recovers(() -> {
            MethodDocument doc = plogp
                    ? MethodsOnSimTest.run("plogp", SPEC, "--op", op, "-s", "0..8K", "--adaptive-limit", "0")
                    : MethodsOnSimTest.run("loggp", SPEC, "--op", op, "-s", "0..8K");
            assertEquals(op, plogp ? ((PLogPDocument) doc).header().settings().op() : ((LogGPDocument) doc).header().settings().op());
            return doc;
        }, plogp || op.equals("read") ? L : L - OS, plogp);
    }

    /**
     * Up to 4 runs: passes on the first within 5 %. A run the probes flagged DISTURBED (a timing
     * thread kept from its CPU: on this 2-CPU host under load every batch can be) is no evidence
     * either way; an undisturbed run outside 5 % fails the test. Where every run was disturbed
     * the test is aborted (reported skipped, with the last run's miss), not passed. A biased
     * estimator fails every undisturbed run.
     */
    private static void recovers(java.util.function.Supplier<MethodDocument> run, double latency, boolean recvOverhead) {
        AssertionError undisturbed = null, last = null;
        for (int attempt = 1; attempt <= 4; attempt++) {
            HostPressure pressure = HostPressure.start();
            MethodDocument doc = run.get();
            try {
                checkRecovery(doc, latency, recvOverhead);
                return;
            } catch (AssertionError e) {
                last = e;
                boolean disturbed = doc.flags().stream().anyMatch(f -> f.startsWith("DISTURBED")) || pressure.busy() != null;
                if (!disturbed) undisturbed = e;
                System.err.println("attempt " + attempt + (disturbed ? " disturbed" : " undisturbed") + ", retrying: "
                        + String.join(" / ", e.getMessage().lines().limit(2).toList()));
            }
        }
        if (undisturbed != null) throw undisturbed;
        // every run flagged DISTURBED: the host gave no run to judge by (load 15-21 here on 2 CPUs)
        org.junit.jupiter.api.Assumptions.abort("every attempt was disturbed, no evidence either way; the last: "
                + String.join(" / ", last.getMessage().lines().limit(2).toList()));
    }

    private static void checkRecovery(MethodDocument doc, double latency, boolean recvOverhead) {
        String context = doc.parameters() + "\n" + doc.notes();
        ParameterRange first = doc.parameters().getFirst();
        assertEquals(latency, first.latencyNs().value(), 0.05 * latency, "L\n" + context);
        assertEquals(OS, first.sendOverheadNs().value(), 0.05 * OS, "o_s\n" + context);
        // the emulator applies a write in the target's progress call at no set cost: o_r is a look and that
        // call (about 150 ns here), far below the set o_r the target would pay for a message
        if (recvOverhead) assertEquals(0, first.recvOverheadNs().value(), 0.1 * OS, "o_r\n" + context);
        assertEquals(GAP, first.gapNs().value(), 0.05 * GAP, "g\n" + context);
        assertEquals(PER_BYTE, first.gapPerByteNs().value(), 0.05 * PER_BYTE, "G\n" + context);
    }

    @ParameterizedTest
    @CsvSource({"ofi:shm,write", "ucx:posix,write", "ofi:shm,read"})
    void plogpOneSidedOverSharedMemory(String transport, String op) {
        MethodDocument doc = MethodsOnSimTest.run("plogp", transport, "--op", op, "-s", "0..4K", "--adaptive-limit", "0");
        PLogPDocument plogp = (PLogPDocument) doc;
        String context = transport + " " + op + "\n" + doc.parameters() + "\n" + doc.notes();
        assertEquals(op, plogp.header().settings().op(), context);
        assertTrue(plogp.header().settings().method().calls().equals("nonblocking"), context);
        for (PLogPDocument.Size size : plogp.sizes()) {
            if (size.sizeBytes() == 0) continue; // RTT(0) and g(0) are the method's base, not a row of its own
            // a size whose batches were all disturbed is no evidence for bounds (at load 20 on 2 CPUs a post
            // waited 6-48 ms for a descheduled peer)
            if (size.oSNs().disturbed() || size.rttNs().disturbed() || size.oRNs().disturbed()) continue;
            double os = size.oSNs().median(), rtt = size.rttNs().median(), or = size.oRNs().median();
            // o_r: from the target's first look until the write is there, which it already is, or the completing
            // of a read whose data has had time to arrive: far below a round trip
            // (a post call takes under 10 ms even preempted for a slice; a 1-byte put can read 0, noted CLAMPED)
            assertTrue(or >= 0 && or < rtt, "o_r at " + size.sizeBytes() + " B: " + size.oRNs() + "\n" + context);
            assertTrue(os >= 0 && os < 10_000_000, "o_s at " + size.sizeBytes() + " B: " + size.oSNs() + "\n" + context);
            assertTrue(rtt > os && rtt < 100_000_000, "RTT at " + size.sizeBytes() + " B: " + size.rttNs() + "\n" + context);
        }
    }

    @Test
    void writesHaveNoBlockingCalls() {
        CliRun run = CliRun.of("plogp", "--op", "write", "--calls", "blocking", "-t", "mpi:openmpi/ucx:posix", "-s", "0..64");
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals(1, run.err().strip().lines().count(), run::toString);
        assertTrue(run.err().contains("--op write"), run::toString);
    }

    @Test
    void anOpTheProbesCannotTimeIsBadInput() {
        CliRun run = CliRun.of("loggp", "--op", "cswap", "-t", "sim:L=1us", "-s", "0..64");
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals(1, run.err().strip().lines().count(), run::toString);
    }
}
