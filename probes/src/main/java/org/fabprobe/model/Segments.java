package org.fabprobe.model;

import java.util.Arrays;
import java.util.Locale;

/**
 * Straight lines y = intercept + slope x over contiguous size ranges, and the choice of those
 * ranges: how fabprobe finds protocol switches (eager -> rendezvous, inject -> copy) in any
 * series measured over message sizes (Hockney's t(n), LogGP's g + (s-1)G, pLogP's g(m)).
 *
 * <p><b>Weights.</b> Sizes are log-spaced, so fits minimize <em>relative</em> residuals
 * (weights 1/y²); plain least squares would let the largest sizes decide everything.
 *
 * <p><b>Ranges.</b> For 1, 2 and 3 contiguous ranges of at least 3 sizes the split with the
 * least weighted residual is found by trying them all. More ranges are accepted only if they
 * at least halve the one range's residual standard error
 * s = sqrt(RSS / (points - 2 per range - 1 per breakpoint)), and the third range lowers the
 * two ranges' s to 0.65 at most. Splitting pure noise lowers s to 0.94 in the median and 0.64
 * at worst (two ranges; three: 0.89 and 0.58; 300 simulated sweeps of 24 log-spaced sizes at
 * 1-10 % noise), so a straight line is not split, while a switch leaves a systematic misfit
 * that splitting removes. Halving for each added range, as before, was too strict where three
 * steps lie close: pingpong over ucx:posix,cma (short to bcopy after 64 B, rendezvous after
 * 8 KiB, 8-fold) went 0.25 / 0.14 / 0.083 and was printed as one range at 24 % rms. Several
 * series measured at the same sizes can be split together (their residuals add; the split is
 * also taken when it passes in one series whose line misses by more than 2 %), so a switch that
 * shows in any of them is found. A fit already within {@value #QUANTUM_FLOOR} relative is not
 * split: that is the clock's quantum (10 ns on 2 us), and steps of the quantum are no switch.
 *
 * <p><b>A step after the last sizes.</b> A range needs 3 sizes, so a step after the
 * second-to-last size cannot get one, and its misfit can hide every step before it. {@link #split}
 * leaves the last one or two sizes out when that halves the residual standard error, the test
 * an added range must pass; {@link #outsideFitNote} says so, never silently.
 */
public final class Segments {
    static final int MIN_POINTS = 3;
    private static final int MAX_RANGES = 3;
    private static final double REQUIRED_REDUCTION = 0.5;
    private static final double ADDED_RANGE_REDUCTION = 0.65;
    private static final double QUANTUM_FLOOR = 0.005;
    private static final double STEP_FREE_ERROR = 0.02;

    /** A range whose line misses its points by more than this rms relative residual fits poorly. */
    public static final double POOR_FIT = 0.10;
    /** How notes about poorly fitting ranges start; the reports raise a flag for them. */
    public static final String POOR_FIT_NOTE = "poor fit: ";
    /** How notes about sizes left out after the last range start; the reports raise a flag for them. */
    public static final String OUTSIDE_FIT_NOTE = "outside fit: ";
    /** Why sizes after the last range are left out, for every fit that leaves them out. */
    static final String OUTSIDE_FIT_REASON = "a step after the last range (a cache or memory limit, a protocol switch) or"
            + " a disturbed size; too few sizes past it for a range of its own, so left out of the fit";

    private Segments() {}

    /** The rms relative residual of the line over [from, to). */
    public static double rmsRelative(long[] x, double[] y, int from, int to) {
        return Math.sqrt(fit(x, y, from, to).rss() / (to - from));
    }

    /** A note if the line through {@code what} over [from, to) fits poorly, else null. */
    public static String poorFitNote(String what, long[] x, double[] y, int from, int to) {
        if (to - from < MIN_POINTS) return null;
        double rms = rmsRelative(x, y, from, to);
        if (!(rms > POOR_FIT)) return null;
        return String.format(java.util.Locale.ROOT, "%s%s over %d..%d B: the range's line misses by %.1f %% rms"
                + " (a step or curve inside the range, or noise): its parameters describe it badly", POOR_FIT_NOTE,
                what, x[from], x[to - 1], 100 * rms);
    }

    /**
     * Weighted least squares over [from, to). A non-positive slope is clamped to 0 (intercept
     * alone), the constrained optimum: a size range without a visible per-byte cost.
     */
    public record Line(double intercept, double slope, double interceptVariance, double slopeVariance, double rss,
                       int degreesOfFreedom) {
        public double at(double x) {
            return intercept + slope * x;
        }

        /** 95 % half-width of the slope: Student's t for the fit's degrees of freedom (few sizes per range). */
        public double slopeCi95() {
            return Statistics.tQuantile975(degreesOfFreedom) * Math.sqrt(slopeVariance);
        }

        /** 95 % half-width of the intercept. */
        public double interceptCi95() {
            return Statistics.tQuantile975(degreesOfFreedom) * Math.sqrt(interceptVariance);
        }
    }

    public static Line fit(long[] x, double[] y, int from, int to) {
        double sw = 0, swx = 0, swy = 0, swxx = 0, swxy = 0;
        for (int i = from; i < to; i++) {
            double w = weight(y[i]);
            double n = x[i];
            sw += w;
            swx += w * n;
            swy += w * y[i];
            swxx += w * n * n;
            swxy += w * n * y[i];
        }
        int points = to - from;
        double det = sw * swxx - swx * swx;
        double slope = (sw * swxy - swx * swy) / det;
        if (slope > 0) {
            double intercept = (swy - slope * swx) / sw;
            double rss = relativeRss(x, y, from, to, intercept, slope);
            double s2 = points > 2 ? rss / (points - 2) : Double.NaN;
            return new Line(intercept, slope, s2 * swxx / det, s2 * sw / det, rss, points - 2);
        }
        double intercept = swy / sw;
        double rss = relativeRss(x, y, from, to, intercept, 0);
        return new Line(intercept, 0, points > 1 ? rss / (points - 1) / sw : Double.NaN, Double.NaN, rss, points - 1);
    }

    /**
     * Start indices of every range after the first (empty: one range) for series measured at
     * the same sizes {@code x}, strictly increasing.
     */
    public static int[] cuts(long[] x, double[]... series) {
        int[] one = {};
        if (x.length < MIN_POINTS) return one;
        int[] best = one, fewer = one;
        for (int ranges = 2; ranges <= MAX_RANGES; ranges++) {
            int[] more = leastResidualCuts(x, series, ranges);
            if (more == null) break;
            if (describesSteps(x, series, one, fewer, more)) best = more;
            fewer = more;
        }
        return best;
    }

    /**
     * Ranges over the first {@code kept} sizes: the start index of every range after the first.
     * Sizes from {@code kept} on lie outside every range.
     */
    public record Split(int kept, int[] cuts) {
        /** 0, every cut, kept: range i is [bounds[i], bounds[i + 1]). */
        public int[] bounds() {
            int[] bounds = new int[cuts.length + 2];
            System.arraycopy(cuts, 0, bounds, 1, cuts.length);
            bounds[bounds.length - 1] = kept;
            return bounds;
        }
    }

    /** {@link #cuts}, with the last one or two sizes left out when that halves the residual standard error. */
    public static Split split(long[] x, double[]... series) {
        int[] best = cuts(x, series);
        if (x.length <= MIN_POINTS) return new Split(x.length, best);
        double error = standardError(x, series, best);
        for (int tail = 1; tail < MIN_POINTS && x.length - tail >= MIN_POINTS; tail++) {
            int kept = x.length - tail;
            long[] keptX = Arrays.copyOf(x, kept);
            double[][] keptSeries = Arrays.stream(series).map(y -> Arrays.copyOf(y, kept)).toArray(double[][]::new);
            int[] cuts = cuts(keptX, keptSeries);
            if (standardError(keptX, keptSeries, cuts) < error * REQUIRED_REDUCTION) return new Split(kept, cuts);
        }
        return new Split(x.length, best);
    }

    /**
     * A note naming the sizes {@code split} left out and how far {@code what} lies there from the
     * line of the last range, or null if every size is in a range.
     */
    public static String outsideFitNote(String what, long[] x, double[] y, Split split) {
        if (split.kept() >= x.length) return null;
        int[] bounds = split.bounds();
        Line last = fit(x, y, bounds[bounds.length - 2], split.kept());
        StringBuilder sizes = new StringBuilder();
        for (int i = split.kept(); i < x.length; i++) {
            if (!sizes.isEmpty()) sizes.append(", ");
            sizes.append(String.format(Locale.ROOT, "%d B (%+.0f %%)", x[i], 100 * (y[i] / last.at(x[i]) - 1)));
        }
        return OUTSIDE_FIT_NOTE + what + " at " + sizes + " from the line of the range before: " + OUTSIDE_FIT_REASON;
    }

    /**
     * Whether the ranges {@code more} follow steps in the data rather than its noise: together
     * they at least halve the one range's standard error, and the range they add to
     * {@code fewer} lowers it to {@value #ADDED_RANGE_REDUCTION} at most; in all series
     * together or in one of them, so that a step in one series is not lost in another's
     * scatter (loggp over ucx:posix,cma: g+(s-1)G steps 12-fold after 8 KiB while PRTT(1,0,s)
     * scatters by 2x below it; together they fell only to 0.57).
     */
    private static boolean describesSteps(long[] x, double[][] series, int[] one, int[] fewer, int[] more) {
        if (reduces(x, series, one, fewer, more, QUANTUM_FLOOR)) return true;
        if (series.length < 2) return false;
        for (double[] y : series) {
            if (reduces(x, new double[][] {y}, one, fewer, more, STEP_FREE_ERROR)) return true;
        }
        return false;
    }

    /** {@link #describesSteps} for one set of series, whose error before the added range must exceed {@code floor}. */
    private static boolean reduces(long[] x, double[][] series, int[] one, int[] fewer, int[] more, double floor) {
        double oneError = standardError(x, series, one), fewerError = standardError(x, series, fewer);
        if (!(oneError > floor && fewerError > floor)) return false;
        double error = standardError(x, series, more);
        return error < oneError * REQUIRED_REDUCTION && error < fewerError * ADDED_RANGE_REDUCTION;
    }

    private static int[] leastResidualCuts(long[] x, double[][] series, int ranges) {
        int n = x.length;
        if (degreesOfFreedom(n, series.length, ranges) < 1 || n < ranges * MIN_POINTS) return null;
        int[] best = null;
        double bestRss = Double.POSITIVE_INFINITY;
        for (int a = MIN_POINTS; a <= n - (ranges - 1) * MIN_POINTS; a++) {
            if (ranges == 2) {
                double rss = rss(x, series, new int[] {a});
                if (rss < bestRss) {
                    bestRss = rss;
                    best = new int[] {a};
                }
                continue;
            }
            for (int b = a + MIN_POINTS; b <= n - MIN_POINTS; b++) {
                double rss = rss(x, series, new int[] {a, b});
                if (rss < bestRss) {
                    bestRss = rss;
                    best = new int[] {a, b};
                }
            }
        }
        return best;
    }

    private static double rss(long[] x, double[][] series, int[] cuts) {
        double rss = 0;
        for (double[] y : series) {
            int from = 0;
            for (int i = 0; i <= cuts.length; i++) {
                int to = i < cuts.length ? cuts[i] : x.length;
                rss += fit(x, y, from, to).rss();
                from = to;
            }
        }
        return rss;
    }

    private static double standardError(long[] x, double[][] series, int[] cuts) {
        return Math.sqrt(rss(x, series, cuts) / degreesOfFreedom(x.length, series.length, cuts.length + 1));
    }

    /** Two parameters (intercept, slope) per range and series, one per breakpoint. */
    private static int degreesOfFreedom(int points, int seriesCount, int ranges) {
        return seriesCount * (points - 2 * ranges) - (ranges - 1);
    }

    /** 1/y², with |y| of at least 1 ns so that a zero does not take all the weight. */
    private static double weight(double y) {
        double a = Math.max(Math.abs(y), 1);
        return 1 / (a * a);
    }

    private static double relativeRss(long[] x, double[] y, int from, int to, double intercept, double slope) {
        double rss = 0;
        for (int i = from; i < to; i++) {
            double r = (y[i] - intercept - slope * x[i]) * Math.sqrt(weight(y[i]));
            rss += r * r;
        }
        return rss;
    }
}
