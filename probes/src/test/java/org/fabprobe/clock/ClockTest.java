package org.fabprobe.clock;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fabprobe.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClockTest {
    private static final Set<String> INVARIANT = Set.of("fpu", "tsc", "constant_tsc", "nonstop_tsc");

    @Test
    void ticksOverASleepAgreeWithClockMonotonicWithinOnePercent() throws InterruptedException {
        long[] start = pair();
        Thread.sleep(50);
        long[] end = pair();
        double reference = end[0] - start[0], measured = Clock.toNs(end[1] - start[1]);
        assertEquals(reference, measured, reference * 0.01, "clock disagrees with CLOCK_MONOTONIC by > 1 %");
    }

    /** {nanoTime, Clock.now()} read close together: retried while a preemption splits them. */
    private static long[] pair() {
        for (int i = 0; ; i++) {
            long before = System.nanoTime(), ticks = Clock.now(), after = System.nanoTime();
            if (after - before < 20_000 || i == 1000) return new long[] {before + (after - before) / 2, ticks};
        }
    }

    @Test
    void readsAreMonotonic() {
        long previous = Clock.now();
        for (int i = 0; i < 1_000_000; i++) {
            long t = Clock.now();
            if (t < previous) fail("clock went back by " + (previous - t) + " ticks at read " + i);
            previous = t;
        }
    }

    /**
     * A VM whose TSC advances {@code quantum} ticks at a time (rounded down to a tick) and keeps
     * reads strictly increasing (a read within the same step reads one tick more), read every
     * {@code costTicks} ticks or so.
     */
    private static long[] coarseReads(double quantum, double costTicks, long seed, int count) {
        java.util.Random random = new java.util.Random(seed);
        long[] reads = new long[count];
        double time = 1000;
        for (int i = 0; i < reads.length; i++) {
            time += costTicks * (0.5 + random.nextDouble());
            long read = (long) (Math.floor(time / quantum) * quantum);
            reads[i] = i > 0 && read <= reads[i - 1] ? reads[i - 1] + 1 : read;
        }
        return reads;
    }

    @Test
    void resolutionIsTheQuantumNotAMonotonicityStep() {
        // C reads every ~23 ticks (a tenth of the steps 1 or 25), compiled Java every ~21 (a third)
        for (double cost : new double[] {23, 21, 15, 12, 40, 300}) assertEquals(26, Clock.quantum(coarseReads(26, cost, 7, 2001)), "cost " + cost);
    }

    @Test
    void aQuantumOfNoWholeNumberOfTicksIsFound() {
        // a 10 ns counter read as a TSC of 2.4454 ticks/ns (this VM: steps of 24 and 25 ticks), in Clock's batches of 256
        // (compiled Java reads every 28 ticks here, interpreted code every 200 to 4000)
        for (double cost : new double[] {28, 40, 300, 1500, 3000}) {
            for (long seed = 1; seed <= 5; seed++) {
                assertEquals(24.454, Clock.quantum(coarseReads(24.454, cost, seed, 256)), 0.05, "cost " + cost + " seed " + seed);
            }
        }
    }

    @Test
    void batchesThatMovedBetweenCpusDoNotHalveTheResolution() {
        // 15 batches: most moved between CPUs whose counters sit half a quantum apart (a 12.25-tick grid)
        double[] quanta = {12.25, 12.25, 24.5, 12.249, 1, 24.499, 12.25, 12.25, 24.501, 12.25, 12.25, 24.5, 12.25, 1, 12.25};
        assertEquals(24.5, Clock.largestAgreed(quanta, 3), 0.002);
        assertEquals(12.25, Clock.largestAgreed(new double[] {12.25, 12.25, 12.25, 24.5, 1}, 3), 0.002, "one batch is no quorum");
        assertEquals(1, Clock.largestAgreed(new double[] {1, 1, 1, 1}, 3));
        assertEquals(26, Clock.largestAgreed(new double[] {26, 26, 26, 13, 13, 13, 13, 13}, 2));
    }

    @Test
    void aCounterThatAdvancesEveryTickHasResolutionOne() {
        java.util.Random random = new java.util.Random(7);
        long[] reads = new long[2001];
        for (int i = 1; i < reads.length; i++) reads[i] = reads[i - 1] + 20 + random.nextInt(11);
        assertEquals(1, Clock.quantum(reads));
        for (int i = 1; i < reads.length; i++) reads[i] = reads[i - 1] + 200 + random.nextInt(3800);
        assertEquals(1, Clock.quantum(reads), "read as slowly as interpreted code reads");
        // a clock that never moved within the reads says nothing finer than one tick
        assertEquals(1, Clock.quantum(new long[100]));
    }

    @Test
    void factsAreConsistent() {
        ClockFacts f = Clock.facts();
        assertSame(f, Clock.facts(), "measured once");
        assertTrue(f.readCostNs() > 0 && f.resolutionNs() > 0, f::toString);
        assertTrue(Double.isFinite(f.tick2ErrorPpm()), f::toString);
        assertEquals(f.source().equals("tsc"), f.fallbackReason().isEmpty(), f::toString);
        assertEquals(1 / f.ticksPerNs(), Clock.nsPerTick(), 1e-12);
        if (f.source().equals("tsc")) {
            assertTrue(f.constantTsc() && f.nonstopTsc(), f::toString);
            assertTrue(f.ticksPerNs() > 0.3 && f.ticksPerNs() < 10, f::toString);
            assertTrue(f.calibrationMs() > 0, f::toString);
        } else {
            assertEquals("nanotime", f.source(), f::toString);
            assertEquals(1.0, f.ticksPerNs());
        }
        assertEquals(1_000_000, Clock.fromNs(Clock.toNs(1_000_000)), 1);
    }

    @Test
    void fallbackReasons() {
        assertEquals("", Clock.tscUnusableReason("", "amd64", "Linux", INVARIANT));
        assertEquals("forced by fabprobe.clock=nanotime", Clock.tscUnusableReason("nanotime", "amd64", "Linux", INVARIANT));
        assertEquals("no x86 TSC on aarch64", Clock.tscUnusableReason("", "aarch64", "Linux", INVARIANT));
        assertTrue(Clock.tscUnusableReason("", "amd64", "Mac OS X", INVARIANT).contains("Linux-only"));
        assertTrue(Clock.tscUnusableReason("", "x86_64", "Linux", Set.of("tsc", "constant_tsc")).contains("not invariant"));
    }

    /** The clock is chosen once per process, so the forced fallback runs in a fresh JVM. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void forcedFallbackGivesCorrectFacts(boolean byProperty) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path")));
        if (byProperty) command.add("-Dfabprobe.clock=nanotime");
        command.addAll(List.of(Main.class.getName(), "clock", "--json"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (!byProperty) builder.environment().put("FABPROBE_CLOCK", "nanotime");
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        org.fabprobe.result.Schemas.validTree(out, "clock.schema.json");
        assertTrue(out.contains("\"source\": \"nanotime\""), out);
        assertTrue(out.contains("\"fallback_reason\": \"forced by fabprobe.clock=nanotime\""), out);
        assertEquals(1.0, number(out, "ticks_per_ns"), out);
        assertEquals(0.0, number(out, "calibration_ms"), out);
        assertTrue(number(out, "read_cost_ns") > 0, out);
        assertTrue(number(out, "resolution_ns") > 0, out);
        // CLOCK_MONOTONIC timed against itself: only the bracketing of the two reads is left
        assertEquals(0, number(out, "tick2_error_ppm"), 100, out);
    }

    private static double number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": (-?[0-9.Ee+-]+)").matcher(json);
        assertTrue(m.find(), key + " missing in " + json);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void clockCommandPrintsATable() {
        PrintStream old = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            code = Main.run("clock");
        } finally {
            System.setOut(old);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, out);
        assertTrue(out.startsWith("source      " + Clock.facts().source()), out);
        assertTrue(out.contains(" GHz ") && out.contains("read cost") && out.contains(" ns ") && out.contains(" ppm "), out);
    }
}
