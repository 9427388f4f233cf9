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

    @Test
    void linkAndRankSetsApplyToTheirMessagesOnly() {
        SimParameters p = SimParameters.parse("L=2us,os=1us,or=1us,g=3us;>64K:G=0.5ns/B;link(3,1):L=20us;rank(2):os=10us,or=12us,L=5us");
        assertEquals(2000, p.between(0, 3).forSize(8).latency(), 1e-9, "other pairs keep the base");
        assertEquals(20000, p.between(1, 3).forSize(8).latency(), 1e-9, "a link holds both ways");
        assertEquals(20000, p.between(3, 1).forSize(1 << 20).latency(), 1e-9, "and at every size");
        assertEquals(0.5, p.between(3, 1).forSize(1 << 20).gapPerByte(), 1e-12);
        SimParameters.Set from2 = p.between(2, 0).forSize(8), to2 = p.between(0, 2).forSize(8);
        assertEquals(10000, from2.sendOverhead(), 1e-9, "a rank's os when it sends");
        assertEquals(1000, from2.recvOverhead(), 1e-9, "not the receiver's or");
        assertEquals(1000, to2.sendOverhead(), 1e-9);
        assertEquals(12000, to2.recvOverhead(), 1e-9, "its or when it receives");
        assertEquals(5000, from2.latency(), 1e-9, "its L both ways");
        assertEquals(5000, to2.latency(), 1e-9);
        assertEquals(2000, p.between(-1, -1).forSize(8).latency(), 1e-9, "unknown ranks: the base");
        assertTrue(p.describe().containsKey("emulated_link(1,3)"), p.describe()::toString);
        assertTrue(p.describe().containsKey("emulated_rank(2)"), p.describe()::toString);
    }

    @Test
    void badLinkAndRankSetsSayWhatIsWrong() {
        for (String bad : new String[] {"L=2us;link(1):L=3us", "L=2us;rank(1,2):L=3us", "L=2us;link(2,2):L=3us",
                "L=2us;node(1):L=3us", "L=2us;rank(x):L=3us", "L=2us;>1K:L=3us;>2K:L=4us", "L=2us;rank(1)"}) {
            var e = assertThrows(IllegalArgumentException.class, () -> SimParameters.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("sim: "), e.getMessage());
        }
    }
}
