package org.fabprobe.clock;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The bracket calls real libc functions: arguments arrive in the right registers, the reads span the call. */
class BracketedCallTest {
    @BeforeEach
    void onlyWhereTheClockReadsTheTsc() {
        assumeTrue(Clock.usesTsc(), "the bracket exists only where Clock reads the TSC");
    }

    private static MemorySegment libc(String name) {
        return Linker.nativeLinker().defaultLookup().find(name).orElseThrow();
    }

    /** memcmp(a, b, n): n is the third argument, the register rdtsc overwrites before the call. */
    @Test
    void passesItsArgumentsAndReturnsTheFunctionsResult() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocateFrom("abcX"), b = arena.allocateFrom("abcY");
            BracketedCall memcmp = BracketedCall.of(libc("memcmp"), new long[] {a.address(), b.address(), 3}, arena)
                    .orElseThrow();
            assertEquals(0, memcmp.call(), "the first 3 bytes are equal");
            memcmp.argument(2, 4);
            assertTrue(memcmp.call() < 0, "'X' < 'Y' in the 4th byte");
            assertTrue(memcmp.endTicks() >= memcmp.startTicks());
        }
    }

    /**
     * pselect(0, NULL, NULL, NULL, &2 ms, NULL) sleeps 2 ms: the timeout is the fifth argument
     * (r8), and the two reads must hold the whole sleep, and not much more.
     */
    @Test
    void theReadsSpanTheCall() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment timeout = arena.allocate(16, 8);
            timeout.set(JAVA_LONG, 0, 0);
            timeout.set(JAVA_LONG, 8, 2_000_000);
            BracketedCall sleep = BracketedCall.of(libc("pselect"), new long[] {0, 0, 0, 0, timeout.address(), 0}, arena)
                    .orElseThrow();
            assertEquals(0, sleep.call(), "pselect timed out");
            double ns = Clock.toNs(sleep.endTicks() - sleep.startTicks());
            assertTrue(ns >= 2_000_000, "the bracket read " + ns + " ns around a 2 ms sleep");
            assertTrue(ns < 2_000_000_000, "the bracket read " + ns + " ns around a 2 ms sleep");
        }
    }

    @Test
    void anEmptyBracketIsMeasuredAndSmall() {
        double empty = BracketedCall.emptyNs();
        assertTrue(empty >= 0 && empty < 1_000, "an empty bracket read " + empty + " ns");
    }
}
