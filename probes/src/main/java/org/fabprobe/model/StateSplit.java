package org.fabprobe.model;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Two steady states of one figure: a round trip that reads one value in some batches or passes
 * and another in others, with nothing between. UCX over tcp at 16 KiB read 22.4-22.7 µs in some
 * runs and 20.0-20.6 µs in others, by the sizes measured before it; a median over both states
 * describes neither, so such a size is flagged, not averaged away.
 *
 * <p>A virtual machine's round trips also move between two passes a few seconds apart, every
 * size by its own few per cent (an idle run over ucx:tcp: 12 of 40 sizes 6-18 % apart). So a
 * size's two passes are judged against the run's own pass-to-pass scatter, the spread of all
 * sizes' shifts, not against a fixed bound: a state is a size that stands out of that scatter.
 */
public final class StateSplit {
    /** Two states lie at least this far apart, relative to the lower one (below it: noise or drift)... */
    static final double MIN_RELATIVE_GAP = 0.05;
    /** ...and at least this far, ns (the clock's and the loop's scatter on sub-µs round trips). */
    static final double MIN_GAP_NS = 50;
    /** The gap between the groups is this many times the spread inside either: two states, not a spread-out one. */
    static final double GAP_TO_SPREAD = 2;
    /** Each of two groups of batch medians holds at least this many of them... */
    static final int MIN_PER_STATE = 3;
    /** ...and this share: a state, not an outlier (four batches at load 6 fell into two pairs 7 % apart by chance). */
    static final double MIN_SHARE = 0.25;
    /** A size's shift between the passes lies this many robust standard deviations out of the run's shifts. */
    static final double SHIFT_SIGMAS = 5;
    /**
     * All sizes moved between the passes by more than this (their median shift): the host changed
     * speed (a loaded VM moved every round trip by +3.5 µs), and a size that moved less only looks
     * like a state; the passes are then not compared.
     */
    static final double MAX_COMMON_SHIFT = 0.05;
    /** Fewer sizes than this give no scatter to judge a shift against: the passes are then not compared. */
    static final int MIN_SIZES = 6;

    private StateSplit() {}

    /** The two states, each the median of its values, and how many values read each. */
    public record States(double low, double high, int lowCount, int highCount) {}

    /**
     * One size's batch medians (the kept, undisturbed batches) in the first pass and in the
     * repeat; {@code judged}: no batch of either pass was disturbed. Every size's shift counts
     * in the run's scatter, only judged sizes can be flagged (a pass that was disturbed differs
     * by the disturbance, flagged as such).
     */
    public record Passes(long size, double[] first, double[] repeat, boolean judged) {}

    /** A size with two states: between its passes ({@code betweenPasses}), or across one pass's batches. */
    public record Verdict(States states, boolean betweenPasses) {}

    /**
     * A run's sizes with two states ({@code states}, by size), the run's median shift between the
     * passes and the robust standard deviation of the sizes' shifts around it (ln units, NaN with
     * fewer than {@link #MIN_SIZES} sizes); {@code compared}: the passes were compared (enough
     * sizes, and no common shift beyond {@link #MAX_COMMON_SHIFT}).
     */
    public record Judgement(Map<Long, Verdict> states, double commonShift, double scatter, boolean compared) {}

    /**
     * The sizes of one run with two states, by size. A size's shift, ln(repeat / first) of the
     * two passes' medians, counts as a state when it lies {@link #SHIFT_SIGMAS} robust standard
     * deviations (1.4826 MAD) from the run's median shift, and at least {@link #MIN_RELATIVE_GAP}
     * and {@link #MIN_GAP_NS} from it; with fewer than {@link #MIN_SIZES} sizes, or a median
     * shift beyond {@link #MAX_COMMON_SHIFT}, the passes are not compared. Otherwise a pass
     * whose batch medians are {@link #bimodal} is one.
     */
    public static Judgement judge(List<Passes> run) {
        double[] shifts = run.stream().mapToDouble(StateSplit::shift).filter(Double::isFinite).toArray();
        double center = shifts.length > 0 ? median(shifts) : Double.NaN;
        double sigma = shifts.length >= MIN_SIZES ? 1.4826 * mad(shifts, center) : Double.NaN;
        boolean compared = !Double.isNaN(sigma) && Math.abs(center) <= Math.log1p(MAX_COMMON_SHIFT);
        Map<Long, Verdict> out = new LinkedHashMap<>();
        for (Passes p : run) {
            if (!p.judged()) continue;
            States between = compared ? differ(p, center, sigma) : null;
            if (between != null) {
                out.put(p.size(), new Verdict(between, true));
                continue;
            }
            States split = bimodal(p.first());
            if (split == null) split = bimodal(p.repeat());
            if (split != null) out.put(p.size(), new Verdict(split, false));
        }
        return new Judgement(out, center, sigma, compared);
    }

    /** The two passes' medians if the shift between them stands out of the run's ({@code center}, {@code sigma}); else null. */
    static States differ(Passes p, double center, double sigma) {
        if (p.first().length == 0 || p.repeat().length == 0) return null;
        double first = median(p.first()), repeat = median(p.repeat());
        double shift = Math.log(repeat / first) - center;
        double low = Math.min(first, repeat), high = Math.max(first, repeat);
        boolean out = Math.abs(shift) > Math.max(SHIFT_SIGMAS * sigma, Math.log1p(MIN_RELATIVE_GAP))
                && high - low > MIN_GAP_NS;
        return out ? new States(low, high, first <= repeat ? p.first().length : p.repeat().length,
                first <= repeat ? p.repeat().length : p.first().length) : null;
    }

    /**
     * Batch medians (of one pass) that fall into two groups, each at least {@link #MIN_PER_STATE}
     * and {@link #MIN_SHARE} of them, with a gap between them wider than {@link #MIN_RELATIVE_GAP}
     * (and {@link #MIN_GAP_NS}) and {@link #GAP_TO_SPREAD} times the spread inside either
     * group; null if they do not.
     */
    public static States bimodal(double[] values) {
        double[] v = Arrays.stream(values).filter(Double::isFinite).sorted().toArray();
        int n = v.length;
        int least = Math.max(MIN_PER_STATE, (int) Math.ceil(MIN_SHARE * n));
        States best = null;
        double bestGap = 0;
        for (int i = least; i <= n - least; i++) {
            double gap = v[i] - v[i - 1];
            double spread = Math.max(v[i - 1] - v[0], v[n - 1] - v[i]);
            if (gap > bestGap && gap > Math.max(MIN_RELATIVE_GAP * v[i - 1], MIN_GAP_NS) && gap > GAP_TO_SPREAD * spread) {
                bestGap = gap;
                best = new States(median(v, 0, i), median(v, i, n), i, n - i);
            }
        }
        return best;
    }

    private static double shift(Passes p) {
        if (p.first().length == 0 || p.repeat().length == 0) return Double.NaN;
        return Math.log(median(p.repeat()) / median(p.first()));
    }

    private static double mad(double[] values, double center) {
        return median(Arrays.stream(values).map(x -> Math.abs(x - center)).toArray());
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return median(v, 0, v.length);
    }

    private static double median(double[] sorted, int from, int to) {
        int n = to - from;
        return n % 2 == 1 ? sorted[from + n / 2] : (sorted[from + n / 2 - 1] + sorted[from + n / 2]) / 2;
    }
}
