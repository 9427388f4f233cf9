package org.fabprobe.clock;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ClockTest {
    @Test
    void calibratedTicksAgreeWithClockMonotonic() throws InterruptedException {
        Clock.now(); // class initialization (calibration) outside the interval
        long ns0 = System.nanoTime(), t0 = Clock.now();
        Thread.sleep(100);
        long ns1 = System.nanoTime(), t1 = Clock.now();
        double measured = Clock.toNs(t1 - t0), reference = ns1 - ns0;
        assertEquals(reference, measured, reference * 0.01, "clock disagrees with CLOCK_MONOTONIC by > 1 %");
    }

    @Test
    void readsAreMonotonic() {
        long previous = Clock.now();
        for (int i = 0; i < 1_000_000; i++) {
            long t = Clock.now();
            assertTrue(t >= previous);
            previous = t;
        }
    }

    @Test
    void factsAreConsistent() {
        ClockFacts f = Clock.facts();
        assertTrue(f.readCostNs() > 0 && f.resolutionNs() > 0, f::toString);
        assertEquals(f.source().equals("tsc"), f.fallbackReason().isEmpty(), f::toString);
        if (f.source().equals("tsc")) {
            assertTrue(f.constantTsc() && f.nonstopTsc(), f::toString);
            assertTrue(f.ticksPerNs() > 0.3 && f.ticksPerNs() < 10, f::toString);
        }
        assertEquals(1_000_000, Clock.fromNs(Clock.toNs(1_000_000)), 1);
    }

    @Test
    void fallbackIsUsedWhenForcedAndSaysWhy() throws IOException, InterruptedException {
        // the clock is chosen once per process: ask a fresh JVM
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-Dfabprobe.clock=nanotime", "-cp", System.getProperty("java.class.path"),
                "org.fabprobe.cli.Main", "clock", "--json")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("\"source\": \"nanotime\""), out);
        assertTrue(out.contains("forced by fabprobe.clock=nanotime"), out);
        assertTrue(out.contains("\"ticks_per_ns\": 1"), out);
    }
}
