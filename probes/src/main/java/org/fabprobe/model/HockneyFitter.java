package org.fabprobe.model;

import java.util.ArrayList;
import java.util.List;

/**
 * Fits Hockney's t(n) = t0 + n / r_inf (Santos et al., eq. 1; n_1/2 = t0 r_inf, eq. 2) to a
 * size sweep, one fit per size range.
 *
 * <p><b>Weights.</b> Sweeps are log-spaced (powers of two), so the fit minimizes <em>relative</em>
 * residuals (weights 1/t²); plain least squares lets the megabyte sizes decide t0, the
 * problem Santos et al. report for MPI_Allgather.
 *
 * <p><b>Ranges.</b> A protocol switch (eager -> rendezvous, inject -> copy) shows as a jump or a
 * slope change. For 1, 2 and 3 contiguous ranges of at least 3 sizes, the
 * split with the least weighted residual is found by trying them all. More ranges are accepted
 * only if each added range at least halves the residual standard error
 * s = sqrt(RSS / (points - 2 per range - 1 per breakpoint)). In simulations with 24 log-spaced
 * sizes, splitting pure noise lowers s by about 10 % (40 % at worst), so a straight line is never
 * split, while a switch leaves a systematic misfit that splitting removes: a jump of 10 times the
 * noise is found 95 % of the time, at the right size. With fewer than about 12 sizes, noise is
 * occasionally split (6 % of the time at 6 sizes). A fit already within 1e-6
 * relative is exact up to rounding and is not split.
 *
 * <p><b>Edge cases.</b> Fewer than 3 usable sizes give no fit (an empty list):
 * two points have no residual to judge the model or its errors by. Sizes whose time is not a
 * positive finite number cannot be weighted and are left out ({@code points} counts those used).
 * Bandwidth must be positive, so a range whose fitted slope is not positive (flat: latency
 * bound) is refitted as t(n) = t0 alone and reported with r_inf = n_1/2 = +Infinity and an
 * undefined (NaN) r_inf error: "no bandwidth limit visible in this range", never a negative or
 * NaN bandwidth. t0 is reported as fitted even when it is negative, which can happen in a range
 * far from n = 0 where the intercept is an extrapolation; its error says how far to trust it.
 */
public final class HockneyFitter {
    private static final int MIN_POINTS = 3;
    private static final int MAX_RANGES = 3;
    private static final double REQUIRED_REDUCTION_PER_RANGE = 0.5;
    private static final double ROUNDING_FLOOR = 1e-6;

    private HockneyFitter() {}

    /**
     * @param sizesBytes message sizes, strictly increasing
     * @param timesNs    time per size (a median half round trip, say), ns
     * @return one fit per size range, in size order; empty if fewer than 3 usable sizes
     */
    public static List<HockneyFit> fit(long[] sizesBytes, double[] timesNs) {
        if (sizesBytes.length != timesNs.length) throw new IllegalArgumentException("sizes and times differ in length");
        for (int i = 1; i < sizesBytes.length; i++) {
            if (sizesBytes[i] <= sizesBytes[i - 1]) throw new IllegalArgumentException("sizes must be strictly increasing");
        }
        int usable = 0;
        for (double t : timesNs) if (t > 0 && Double.isFinite(t)) usable++;
        long[] x = new long[usable];
        double[] y = new double[usable];
        for (int i = 0, j = 0; i < timesNs.length; i++) {
            if (timesNs[i] > 0 && Double.isFinite(timesNs[i])) {
                x[j] = sizesBytes[i];
                y[j++] = timesNs[i];
            }
        }
        if (usable < MIN_POINTS) return List.of();

        int[] bestCuts = {};
        double bestError = standardError(x, y, bestCuts);
        for (int ranges = 2; ranges <= MAX_RANGES && bestError > ROUNDING_FLOOR; ranges++) {
            int[] cuts = leastResidualCuts(x, y, ranges);
            if (cuts == null) break;
            double error = standardError(x, y, cuts);
            int added = ranges - 1 - bestCuts.length;
            if (error < bestError * Math.pow(REQUIRED_REDUCTION_PER_RANGE, added)) {
                bestCuts = cuts;
                bestError = error;
            }
        }
        List<HockneyFit> fits = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= bestCuts.length; i++) {
            int to = i < bestCuts.length ? bestCuts[i] : x.length;
            fits.add(toFit(x, from, to, solve(x, y, from, to)));
            from = to;
        }
        return fits;
    }

    /**
     * The cut indices (start of each range after the first) splitting the sweep into
     * {@code ranges} ranges with the least total weighted residual, or null if the sweep is too
     * short for that many ranges with degrees of freedom to spare.
     */
    private static int[] leastResidualCuts(long[] x, double[] y, int ranges) {
        int n = x.length;
        if (degreesOfFreedom(n, ranges) < 1 || n < ranges * MIN_POINTS) return null;
        int[] best = null;
        double bestRss = Double.POSITIVE_INFINITY;
        for (int a = MIN_POINTS; a <= n - (ranges - 1) * MIN_POINTS; a++) {
            if (ranges == 2) {
                double rss = rss(x, y, new int[] {a});
                if (rss < bestRss) {
                    bestRss = rss;
                    best = new int[] {a};
                }
                continue;
            }
            for (int b = a + MIN_POINTS; b <= n - MIN_POINTS; b++) {
                double rss = rss(x, y, new int[] {a, b});
                if (rss < bestRss) {
                    bestRss = rss;
                    best = new int[] {a, b};
                }
            }
        }
        return best;
    }

    private static double rss(long[] x, double[] y, int[] cuts) {
        double rss = 0;
        int from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int to = i < cuts.length ? cuts[i] : x.length;
            rss += solve(x, y, from, to).rss;
            from = to;
        }
        return rss;
    }

    /** Residual standard error of the relative residuals, corrected for the parameters spent. */
    private static double standardError(long[] x, double[] y, int[] cuts) {
        return Math.sqrt(rss(x, y, cuts) / degreesOfFreedom(x.length, cuts.length + 1));
    }

    /** Two parameters (t0, slope) per range and one per breakpoint. */
    private static int degreesOfFreedom(int points, int ranges) {
        return points - 2 * ranges - (ranges - 1);
    }

    /**
     * Weighted least squares of t = t0 + slope n over [from, to), weights 1/t²; slope in ns/byte.
     * A non-positive slope is clamped to 0 (t0 alone), the constrained least-squares optimum.
     */
    private record Solution(double t0, double slope, double t0Variance, double slopeVariance, double rss) {}

    private static Solution solve(long[] x, double[] y, int from, int to) {
        double sw = 0, swx = 0, swy = 0, swxx = 0, swxy = 0;
        for (int i = from; i < to; i++) {
            double w = 1 / (y[i] * y[i]);
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
            double t0 = (swy - slope * swx) / sw;
            double rss = relativeRss(x, y, from, to, t0, slope);
            double s2 = rss / (points - 2);
            return new Solution(t0, slope, s2 * swxx / det, s2 * sw / det, rss);
        }
        double t0 = swy / sw;
        double rss = relativeRss(x, y, from, to, t0, 0);
        return new Solution(t0, 0, rss / (points - 1) / sw, Double.NaN, rss);
    }

    private static double relativeRss(long[] x, double[] y, int from, int to, double t0, double slope) {
        double rss = 0;
        for (int i = from; i < to; i++) {
            double r = (y[i] - t0 - slope * x[i]) / y[i];
            rss += r * r;
        }
        return rss;
    }

    private static HockneyFit toFit(long[] x, int from, int to, Solution s) {
        int points = to - from;
        double rms = Math.sqrt(s.rss / points);
        if (s.slope == 0) {
            return new HockneyFit(x[from], x[to - 1], points, s.t0, Math.sqrt(s.t0Variance),
                    Double.POSITIVE_INFINITY, Double.NaN, Double.POSITIVE_INFINITY, rms);
        }
        // slope is ns per byte; 1 byte/ns = 1000 MB/s, so r_inf = 1000 / slope and, by the delta
        // method, its standard error is 1000 * err(slope) / slope².
        double rInf = 1e3 / s.slope;
        double rInfErr = 1e3 * Math.sqrt(s.slopeVariance) / (s.slope * s.slope);
        return new HockneyFit(x[from], x[to - 1], points, s.t0, Math.sqrt(s.t0Variance), rInf, rInfErr,
                s.t0 / s.slope, rms);
    }
}
