package org.fabprobe.transport.sim;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class SimParametersTest {
    @Test
    void parsesUnitsAndTheSecondSet() {
        SimParameters p = SimParameters.parse("L=5us,os=1.2us,or=800ns,g=4us,G=1ns/B;>16K:L=20us,G=250ps/B");
        SimParameters.Set small = p.forSize(16 * 1024);
        assertEquals(5000, small.latency(), 1e-9);
        assertEquals(1200, small.sendOverhead(), 1e-9);
        assertEquals(800, small.recvOverhead(), 1e-9);
        assertEquals(4000, small.gap(), 1e-9);
        assertEquals(1, small.gapPerByte(), 1e-12);
        SimParameters.Set large = p.forSize(16 * 1024 + 1);
        assertEquals(20000, large.latency(), 1e-9);
        assertEquals(0.25, large.gapPerByte(), 1e-12);
        assertEquals(1200, large.sendOverhead(), 1e-9, "unnamed values are inherited");
    }

    @Test
    void badSpecsSayWhatIsWrong() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SimParameters.parse("L=5"))
                .getMessage().contains("5us"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SimParameters.parse("Q=5us"))
                .getMessage().contains("unknown parameter 'Q'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SimParameters.parse("G=1ns"))
                .getMessage().contains("ns/B"));
        assertThrows(IllegalArgumentException.class, () -> SimParameters.parse("L=5us;16K:L=1us"));
        assertThrows(IllegalArgumentException.class, () -> SimParameters.parse("L=-5us"));
    }
}
