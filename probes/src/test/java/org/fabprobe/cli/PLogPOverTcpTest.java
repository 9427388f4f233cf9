package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.fabprobe.result.MethodDocument;
import org.fabprobe.result.PLogPDocument;
import org.fabprobe.result.ParameterRange;
import org.fabprobe.result.ResultJson;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On loopback tcp the sender's send() runs the receiver's input path, so LogGP's L by Table 1
 * comes out below zero. plogp prints that overlap by name, in the table and the JSON, and no
 * negative latency. Its sizes are measured in a random order and their round trips again in
 * another: every size has its repeat, and a size with two steady states is flagged STATE.
 */
class PLogPOverTcpTest {
    private static final String NAMED = "the send overhead carries the transfer (o_s + o_r > RTT/2 by ";

    @Test
    void plogpOverUcxTcpNamesTheOverlap(@TempDir Path dir) {
        // the overlap is several µs on loopback tcp; a disturbed run may hide it, the next shows it
        MethodsOnSimTest.withRetries(() -> check(dir.resolve("plogp.json")));
    }

    private static void check(Path json) {
        CliRun run = CliRun.of("plogp", "-t", "ucx:tcp", "-s", "0..1K", "--adaptive-limit", "0", "--timeout", "10s",
                "--json", json.toString());
        assertEquals(0, run.exitCode(), run::toString);
        String text;
        try {
            text = Files.readString(json);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        Schemas.validated(text);
        MethodDocument doc = ResultJson.read(text, MethodDocument.class);
        List<ParameterRange> ranges = doc.parameters();
        String context = "plogp on ucx:tcp\n" + ranges + "\n" + run.out();
        ParameterRange first = ranges.getFirst();
        assertTrue(first.latencyNs().value() < 0, "loopback tcp: L by Table 1 below 0 expected\n" + context);
        // JSON: L_ns as the method defines it, and the overlap beside it
        assertNotNull(first.latencyOverlapNs(), context);
        assertEquals(-first.latencyNs().value(), first.latencyOverlapNs().value(), 1e-9, context);
        // table: the overlap by name, the L column without a number
        assertTrue(run.out().contains(NAMED), context);
        for (String line : run.out().lines().toList()) {
            if (line.startsWith("  ") && line.contains(" .. ") && line.contains(" ± ") && !line.contains("L (overlap)")) {
                String lCell = line.substring(2 + 21).trim();
                assertFalse(lCell.startsWith("-"), "a bare negative L in: " + line + "\n" + context);
            }
        }
        assertFalse(String.join(" ", doc.flags()).contains("negative L"), context);
        assertTrue(run.out().contains("pLogP L = RTT(0)/2 - g(0)"), context);
        checkRepeatPass(text, run.out(), doc.flags(), context);
    }

    /** Every size above 0 measured twice; STATE in the table, the JSON and the flags exactly where a size reads two states. */
    private static void checkRepeatPass(String json, String table, List<String> flags, String context) {
        PLogPDocument plogp = ResultJson.read(json, PLogPDocument.class);
        assertNotNull(plogp.header().settings().orderSeed(), context);
        long states = 0;
        for (PLogPDocument.Size s : plogp.sizes()) {
            if (s.sizeBytes() == 0) continue;
            assertNotNull(s.rttRepeatNs(), "size " + s.sizeBytes() + " without a repeat\n" + context);
            assertTrue(s.rttRepeatNs().median() > 0, context);
            if (s.stateDependent()) states++;
        }
        String stateFlag = "STATE: " + states + " sizes";
        boolean flagged = flags.stream().anyMatch(f -> f.startsWith(stateFlag));
        assertEquals(states > 0, flagged, context);
        assertEquals(states, table.lines().filter(l -> l.endsWith("  STATE")).count(), context);
    }
}
