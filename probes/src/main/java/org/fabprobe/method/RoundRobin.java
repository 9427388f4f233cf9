package org.fabprobe.method;

/**
 * The all-pairs schedule of {@code fabprobe matrix}: the circle method of round-robin
 * tournaments. Ranks 0..n-2 sit on a circle and rank n-1 in its centre; in round r the centre
 * meets rank r and every other rank x meets the rank at the mirrored place, (2r - x) mod (n-1).
 * Every pair meets exactly once in n-1 rounds, and the pairs of a round are disjoint. An odd n
 * gets an empty seat in the centre: n rounds, and whoever meets it rests.
 *
 * <p>Every rank computes its own partner in O(1) from (n, round, rank): nothing about the
 * schedule is sent, and nothing of size n^2 is held.
 */
public final class RoundRobin {
    private RoundRobin() {}

    /** Rounds for n ranks: n - 1 (n even), n (n odd: one rank rests per round). */
    public static int rounds(int n) {
        if (n < 2) return 0;
        return n % 2 == 0 ? n - 1 : n;
    }

    /** n (n - 1) / 2. */
    public static long pairCount(int n) {
        return (long) n * (n - 1) / 2;
    }

    /** Pairs that meet in each round: floor(n / 2). */
    public static int pairsPerRound(int n) {
        return n / 2;
    }

    /** The rank {@code rank} meets in {@code round}, or -1 when it rests. */
    public static int partner(int n, int round, int rank) {
        if (n < 2 || round < 0 || round >= rounds(n) || rank < 0 || rank >= n) {
            throw new IllegalArgumentException("no round " + round + " / rank " + rank + " for " + n + " ranks");
        }
        int seats = n % 2 == 0 ? n : n + 1; // an odd n gets an empty centre seat
        int centre = seats - 1;
        int p;
        if (rank == centre) p = round;
        else if (rank == round) p = centre;
        else p = Math.floorMod(2 * round - rank, centre);
        return p >= n ? -1 : p;
    }

    /** The pairs of {@code round}, each {lower, higher}, ordered by the lower rank. */
    public static int[][] pairs(int n, int round) {
        int[][] out = new int[pairsPerRound(n)][];
        int k = 0;
        for (int x = 0; x < n; x++) {
            int p = partner(n, round, x);
            if (p > x) out[k++] = new int[] {x, p};
        }
        if (k != out.length) throw new IllegalStateException("round " + round + " of " + n + " has " + k + " pairs");
        return out;
    }

    /** The first round in which {@code rank} meets anyone (0, or 1 when it rests in round 0). */
    public static int firstRound(int n, int rank) {
        return partner(n, 0, rank) < 0 ? 1 : 0;
    }

    /** Index of pair (a, b), a < b, in row-major order of the upper triangle: 0 .. n(n-1)/2 - 1. */
    public static long pairIndex(int n, int a, int b) {
        if (a < 0 || a >= b || b >= n) throw new IllegalArgumentException("not a pair: " + a + ", " + b + " of " + n);
        return (long) a * (2L * n - a - 1) / 2 + (b - a - 1);
    }
}
