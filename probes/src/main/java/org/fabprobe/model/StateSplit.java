package org.fabprobe.model;

import java.util.Arrays;

/**
 * Two steady states of one figure: a round trip that reads one value in some batches or passes
 * and another in others, with nothing between. UCX over tcp at 16 KiB read 22.4-22.7 µs in some
 * runs and 20.0-20.6 µs in others, by the sizes measured before it; a median over both states
 * describes neither, so such a size is flagged, not averaged away.
 */
public final class StateSplit {
    /** Two states lie at least this far apart, relative to the lower one (below it: noise or drift)... */
    static final double MIN_RELATIVE_GAP = 0.05;
    /** ...and at least this far, ns (the clock's and the loop's scatter on sub-µs round trips). */
    static final double MIN_GAP_NS = 50;
    /** The gap between the groups is this many times the spread inside either: two states, not a spread-out one. */
    static final double GAP_TO_SPREAD = 2;

    private StateSplit() {}

    /** The two states, each the median of its values, and how many values read each. */
    public record States(double low, double high, int lowCount, int highCount) {}

    /**
     * Batch medians (of one or more passes) that fall into two groups of at least two each,
     * with a gap between them wider than {@link #MIN_RELATIVE_GAP} (and {@link #MIN_GAP_NS})
     * and {@link #GAP_TO_SPREAD} times the spread inside either group; null if they do not.
     */
    public static States bimodal(double[] values) {
        double[] v = Arrays.stream(values).filter(Double::isFinite).sorted().toArray();
        int n = v.length;
        States best = null;
        double bestGap = 0;
        for (int i = 2; i <= n - 2; i++) {
            double gap = v[i] - v[i - 1];
            double spread = Math.max(v[i - 1] - v[0], v[n - 1] - v[i]);
            if (gap > bestGap && gap > Math.max(MIN_RELATIVE_GAP * v[i - 1], MIN_GAP_NS) && gap > GAP_TO_SPREAD * spread) {
                bestGap = gap;
                best = new States(median(v, 0, i), median(v, i, n), i, n - i);
            }
        }
        return best;
    }

    /**
     * The same quantity measured in two passes (a different history before each) reads two
     * values that differ beyond both uncertainties and {@link #MIN_RELATIVE_GAP}; null if not.
     */
    public static States differ(Estimate first, Estimate repeat) {
        double low = Math.min(first.value(), repeat.value()), high = Math.max(first.value(), repeat.value());
        double ci = ci(first) + ci(repeat);
        if (!(high - low > Math.max(Math.max(MIN_RELATIVE_GAP * low, MIN_GAP_NS), ci))) return null;
        return new States(low, high, 1, 1);
    }

    private static double ci(Estimate e) {
        return Double.isNaN(e.ci95()) ? 0 : e.ci95();
    }

    private static double median(double[] sorted, int from, int to) {
        int n = to - from;
        return n % 2 == 1 ? sorted[from + n / 2] : (sorted[from + n / 2 - 1] + sorted[from + n / 2]) / 2;
    }
}
