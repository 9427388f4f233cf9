package org.fabprobe.api;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.function.Supplier;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.result.LogGPDocument;
import org.fabprobe.result.MethodDocument;
import org.fabprobe.result.PLogPDocument;
import org.fabprobe.result.ParameterRange;
import org.fabprobe.result.ResultJson;
import org.fabprobe.result.Schemas;
import org.fabprobe.result.SignatureDocument;
import org.fabprobe.transport.Op;
import org.junit.jupiter.api.Test;

/**
 * The LogP methods through the Java API: each request refuses what its command refuses, and a
 * run on the emulator returns the typed document with the parameters it was set to.
 */
class MethodsApiTest {
    private static final String SIM = "sim:L=2us,os=500ns,or=500ns,g=3us,G=0.5ns/B";
    /** Cheap sampling where only the document's shape is checked. */
    private static final Sampling CHEAP = Sampling.defaults().ciPercent(10).maxReps(200);

    @Test
    void badRequestsAreRefusedInTheCommandsWords() {
        assertMessage("--messages must be 2..4096", () -> LogGPRequest.of(SIM).messages(1));
        assertMessage("--bursts must start at 1, have two or more values, and stay <= 65536",
                () -> SignatureRequest.of(SIM).bursts(2, 4));
        assertMessage("--bursts must start at 1, have two or more values, and stay <= 65536",
                () -> SignatureRequest.of(SIM).bursts(1, 1 << 17));
        assertMessage("--op fetch-add: the LogP probes send, write or read", () -> PLogPRequest.of(SIM).op(Op.FETCH_ADD));
        assertMessage("--ci must be a percentage in (0, 100)", () -> Sampling.defaults().ciPercent(0));
        assertMessage("--max-reps must be --batch..10000000", () -> Sampling.defaults().maxReps(5));
        assertMessage("not a duration: 'soon' (examples: 500ms, 5s, 1m)", () -> Sampling.defaults().timeCap("soon"));
        assertMessage("no message sizes", () -> PLogPRequest.of(SIM).sizes(new long[0]));
        PLogPRequest sim = PLogPRequest.of(SIM);
        assertMessage("--calls blocking needs a transport with blocking calls (mpi:...); " + SIM
                + " is polled: use --calls nonblocking or auto", () -> new PLogPRequest(sim.session(), sim.sizes(),
                0, false, null, CHEAP, PingPong.Calls.BLOCKING, Op.SEND));
        LogGPRequest mpi = LogGPRequest.of("mpi:openmpi");
        assertEquals(PingPong.Calls.BLOCKING, mpi.calls(), "blocking calls by default where the transport has them");
        assertEquals(PingPong.Calls.NONBLOCKING, mpi.op(Op.WRITE).calls(), "writes are posted and polled");
        assertMessage("--op write: writes are posted and polled, not --calls blocking", () -> new LogGPRequest(mpi.session(),
                mpi.sizes(), 16, CHEAP, PingPong.Calls.BLOCKING, Op.WRITE));
    }

    @Test
    void plogpOnTheEmulatorReturnsTheSetParameters() {
        // both spinning halves must keep their CPUs for 25 %: a disturbed run on the shared 2-core host is retried
        PLogPDocument doc = recovers(() -> Fabprobe.plogp(PLogPRequest.of(SIM).sizes(0, 64, 1024, 4096).adaptiveLimit(0)),
                d -> assertParameters(d, 2000, 500, 500));
        assertDocument(doc, PLogPDocument.SCHEMA, "plogp");
        assertEquals(List.of(0L, 64L, 1024L, 4096L), doc.header().settings().sizes());
        assertEquals(4096, doc.header().settings().adaptiveLimitBytes(), "the limit is at least the largest size");
        assertNotNull(doc.header().settings().orderSeed(), "a seed is drawn when the request has none");
        assertTrue(doc.sizes().size() >= 4, "the sizes asked for, and those interval halving added: " + doc.sizes().size());
    }

    @Test
    void logGPOnTheEmulatorReturnsTheSetParameters() {
        // both spinning halves must keep their CPUs for 25 %: a disturbed run on the shared 2-core host is retried
        // LogGP's one o is the sender's: its L absorbs o_r - o_s (here 0)
        LogGPDocument doc = recovers(() -> Fabprobe.logGP(LogGPRequest.of(SIM).sizes(0, 64, 1024, 4096).messages(8)),
                d -> assertParameters(d, 2000, 500, Double.NaN));
        assertDocument(doc, LogGPDocument.SCHEMA, "loggp");
        assertEquals(8, doc.header().settings().messages());
        assertEquals(4, doc.sizes().size());
    }

    @Test
    void signatureOnTheEmulatorReturnsItsCurves() {
        SignatureDocument doc = Fabprobe.signature(SignatureRequest.of(SIM).bursts(1, 2, 4, 8, 16, 32).bulkSizes(64)
                .sampling(CHEAP));
        assertDocument(doc, SignatureDocument.SCHEMA, "signature");
        assertEquals(List.of(1, 2, 4, 8, 16, 32), doc.header().settings().bursts());
        assertEquals(4, doc.curves().size(), "Delta = 0, g/2, g, 2g");
        for (SignatureDocument.Curve c : doc.curves()) assertEquals(6, c.points().size(), c.toString());
        assertEquals(1, doc.bulk().size());
        assertTrue(doc.rttNs().median() > 0, doc.rttNs()::toString);
        ParameterRange p = doc.parameters().getFirst();
        assertTrue(p.sendOverheadNs().value() > 0 && p.gapNs().value() > 0, p.toString());
    }

    @Test
    void plogpOverSharedMemoryReturnsItsDocument() {
        PLogPDocument doc = Fabprobe.plogp(PLogPRequest.of("ofi:shm").sizes(0, 64, 1024).adaptiveLimit(0).sampling(CHEAP));
        assertDocument(doc, PLogPDocument.SCHEMA, "plogp");
        assertEquals("ofi:shm", doc.header().transport());
        assertEquals("nonblocking", doc.header().settings().method().calls());
        assertTrue(doc.sizes().size() >= 3, "the sizes asked for, and those interval halving added: " + doc.sizes().size());
        for (PLogPDocument.Size s : doc.sizes()) {
            assertTrue(s.oSNs().median() > 0 && s.rttNs().median() > 0, s.toString());
        }
        assertTrue(doc.parameters().getFirst().sendOverheadNs().value() > 0, doc.parameters()::toString);
    }

    @Test
    void plogpOverMpiRunsAsTwoLocalRanks() {
        // MPI starts once per process: outside a launcher the API starts two ranks of its own and reads rank 0's document
        PLogPDocument doc = Fabprobe.plogp(PLogPRequest.of("mpi:openmpi/ucx:posix,cma").sizes(0, 64, 1024).adaptiveLimit(0)
                .sampling(CHEAP));
        assertDocument(doc, PLogPDocument.SCHEMA, "plogp");
        assertEquals("mpi:openmpi/ucx:posix,cma", doc.header().transport());
        assertEquals("blocking", doc.header().settings().method().calls(), "MPI's default calls");
        assertEquals(List.of(0L, 64L, 1024L), doc.header().settings().sizes());
        for (PLogPDocument.Size s : doc.sizes()) assertTrue(s.oSNs().median() > 0 && s.rttNs().median() > 0, s.toString());
    }

    @Test
    void requestsCrossToRanksAsTheirCommandLines() {
        PLogPRequest plogp = PLogPRequest.of("mpi:mpich/ucx:tcp").sizes(0, 4096).adaptiveLimit(8192).op(Op.WRITE)
                .sampling(Sampling.defaults().maxReps(300));
        assertEquals(List.of("plogp", "-t", "mpi:mpich/ucx:tcp", "--timeout", "5000ms", "-s", "0,4096", "--adaptive-limit",
                "8192", "--calls", "nonblocking", "--op", "write", "--ci", "5.0", "--batch", "20", "--max-reps", "300",
                "--time-cap", "100ms"), plogp.commandLine());
        assertEquals(List.of("loggp", "-t", "mpi:openmpi", "--timeout", "5000ms", "-s", "8", "--messages", "4", "--calls",
                "blocking", "--op", "send", "--ci", "5.0", "--batch", "20", "--max-reps", "1000", "--time-cap", "100ms"),
                LogGPRequest.of("mpi:openmpi").sizes(8).messages(4).commandLine());
    }

    /** The document is what --json writes: it validates against its schema. */
    private static void assertDocument(MethodDocument doc, String schema, String command) {
        assertEquals(schema, doc.schema());
        assertEquals(command, doc.command());
        Schemas.validated(ResultJson.write(doc));
        assertFalse(doc.parameters().isEmpty());
    }

    /** L, o_s, g = 3 µs, G = 0.5 ns/B and (unless NaN) o_r of the first range, within 25 % (150 ns at least). */
    private static void assertParameters(MethodDocument doc, double latency, double sendOverhead, double recvOverhead) {
        ParameterRange p = doc.parameters().getFirst();
        String context = doc.command() + " on " + SIM + "\n" + doc.parameters() + "\n" + doc.flags();
        assertClose(latency, p.latencyNs().value(), "L", context);
        assertClose(sendOverhead, p.sendOverheadNs().value(), "o_s", context);
        if (!Double.isNaN(recvOverhead)) assertClose(recvOverhead, p.recvOverheadNs().value(), "o_r", context);
        assertClose(3000, p.gapNs().value(), "g", context);
        assertEquals(0.5, p.gapPerByteNs().value(), 0.125, "G\n" + context);
    }

    private static void assertClose(double expected, double actual, String what, String context) {
        assertEquals(expected, actual, Math.max(0.25 * expected, 150), what + "\n" + context);
    }

    private static void assertMessage(String message, org.junit.jupiter.api.function.Executable request) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, request).getMessage());
    }

    /**
     * Up to 4 runs, as OneSidedMethodsTest: the first that passes {@code check} is returned. A run the
     * probes flagged DISTURBED (a timing thread kept from its CPU: on this 2-CPU host under load every
     * batch can be) is no evidence either way; an undisturbed miss fails the test. Where every run
     * was disturbed the test is aborted (reported skipped), not passed.
     */
    private static <D extends MethodDocument> D recovers(Supplier<D> run, java.util.function.Consumer<D> check) {
        AssertionError undisturbed = null, last = null;
        for (int attempt = 1; attempt <= 4; attempt++) {
            D doc = run.get();
            try {
                check.accept(doc);
                return doc;
            } catch (AssertionError e) {
                last = e;
                boolean disturbed = doc.flags().stream().anyMatch(f -> f.startsWith("DISTURBED"));
                if (!disturbed) undisturbed = e;
                System.err.println("attempt " + attempt + (disturbed ? " disturbed" : " undisturbed") + ", retrying: "
                        + summary(e));
            }
        }
        if (undisturbed != null) throw undisturbed;
        return org.junit.jupiter.api.Assumptions.abort("every attempt was disturbed, no evidence either way; the last: "
                + summary(last));
    }

    /** The figure and the miss of a failed check: its first line and its last (expected, but was). */
    private static String summary(AssertionError e) {
        List<String> lines = e.getMessage().lines().toList();
        return lines.getFirst() + " / " + lines.getLast();
    }
}
