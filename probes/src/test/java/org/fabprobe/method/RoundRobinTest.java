package org.fabprobe.method;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The all-pairs schedule: every pair exactly once, pairs of a round disjoint, for odd and even n up to 1000. */
class RoundRobinTest {

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 5, 6, 7, 8, 16, 17, 100, 101, 999, 1000})
    void everyPairExactlyOnceInDisjointRounds(int n) {
        int rounds = RoundRobin.rounds(n);
        assertEquals(n % 2 == 0 ? n - 1 : n, rounds);
        boolean[] met = new boolean[n * n];
        long pairs = 0;
        for (int round = 0; round < rounds; round++) {
            boolean[] busy = new boolean[n];
            int resting = 0;
            for (int x = 0; x < n; x++) {
                int p = RoundRobin.partner(n, round, x);
                if (p < 0) {
                    resting++;
                    continue;
                }
                assertNotEquals(x, p, "a rank meets itself");
                assertEquals(x, RoundRobin.partner(n, round, p), "partners agree");
                if (x < p) {
                    assertFalse(met[x * n + p], "pair " + x + "-" + p + " twice");
                    met[x * n + p] = true;
                    assertFalse(busy[x] || busy[p], "rank in two pairs of round " + round);
                    busy[x] = busy[p] = true;
                    pairs++;
                }
            }
            assertEquals(n % 2, resting, "one rank rests per round when n is odd, none when even");
            if (n <= 101) {
                int[][] listed = RoundRobin.pairs(n, round);
                assertEquals(RoundRobin.pairsPerRound(n), listed.length);
                for (int[] pr : listed) assertEquals(pr[1], RoundRobin.partner(n, round, pr[0]));
            }
        }
        assertEquals(RoundRobin.pairCount(n), pairs);
        for (int a = 0; a < n; a++) for (int b = a + 1; b < n; b++) assertTrue(met[a * n + b], a + "-" + b + " never met");
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 5, 64})
    void pairIndexNumbersTheUpperTriangle(int n) {
        long expected = 0;
        for (int a = 0; a < n; a++) for (int b = a + 1; b < n; b++) assertEquals(expected++, RoundRobin.pairIndex(n, a, b));
        assertEquals(RoundRobin.pairCount(n), expected);
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 9})
    void firstRoundIsWhereARankFirstMeetsAnyone(int n) {
        for (int x = 0; x < n; x++) {
            int first = RoundRobin.firstRound(n, x);
            assertTrue(RoundRobin.partner(n, first, x) >= 0);
            for (int r = 0; r < first; r++) assertEquals(-1, RoundRobin.partner(n, r, x));
        }
    }
}
