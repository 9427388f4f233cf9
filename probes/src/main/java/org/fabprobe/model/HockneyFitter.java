package org.fabprobe.model;

import java.util.ArrayList;
import java.util.List;

/**
 * Fits Hockney's t(n) = t0 + n / r_inf (Santos et al., eq. 1; n_1/2 = t0 r_inf, eq. 2) to a
 * size sweep, one fit per size range.
 *
 * <p>Sweeps are log-spaced (powers of two), so the fit minimizes <em>relative</em>
 * residuals (weights 1/t²); plain least squares would let the megabyte sizes decide t0.
 * Protocol switches (eager -> rendezvous, inject -> copy) show as jumps or slope changes;
 * the sweep is split into 1 to {@value #MAX_SEGMENTS} contiguous ranges of at least
 * {@value #MIN_POINTS} sizes, choosing the split with the lowest BIC, and a split is kept
 * only if it also cuts the rms relative residual by at least a third, and only while
 * that residual is above 0.1 %: a clean line stays one range. A range whose slope is not positive has no finite r_inf: it is reported as
 * +Infinity (JSON null) rather than as a negative bandwidth.
 */
public final class HockneyFitter {
    static final int MAX_SEGMENTS = 3;
    static final int MIN_POINTS = 3;
    private static final double REQUIRED_IMPROVEMENT = 2.0 / 3.0;
    /** Below 0.1 % rms relative residual a single range already fits as well as timings can. */
    private static final double GOOD_ENOUGH_RMS = 1e-3;

    private HockneyFitter() {}

    public static List<HockneyFit> fit(long[] sizesBytes, double[] timesNs) {
        int n = sizesBytes.length;
        if (n != timesNs.length) throw new IllegalArgumentException("sizes and times differ in length");
        if (n < 2) return List.of();
        List<int[]> best = List.of(new int[] {0, n});
        double bestBic = bic(sizesBytes, timesNs, best);
        double bestRms = rms(sizesBytes, timesNs, best);
        for (int segments = 2; segments <= MAX_SEGMENTS && bestRms > GOOD_ENOUGH_RMS; segments++) {
            List<int[]> candidate = bestSplit(sizesBytes, timesNs, segments);
            if (candidate == null) break;
            double candidateBic = bic(sizesBytes, timesNs, candidate);
            double candidateRms = rms(sizesBytes, timesNs, candidate);
            if (candidateBic < bestBic && candidateRms < REQUIRED_IMPROVEMENT * bestRms) {
                best = candidate;
                bestBic = candidateBic;
                bestRms = candidateRms;
            }
        }
        List<HockneyFit> fits = new ArrayList<>();
        for (int[] range : best) fits.add(fitRange(sizesBytes, timesNs, range[0], range[1]));
        return fits;
    }

    /** The split into {@code segments} ranges with the least weighted residual, or null if too few points. */
    private static List<int[]> bestSplit(long[] x, double[] y, int segments) {
        int n = x.length;
        if (n < segments * MIN_POINTS) return null;
        List<int[]> best = null;
        double bestRss = Double.POSITIVE_INFINITY;
        for (int a = MIN_POINTS; a <= n - (segments - 1) * MIN_POINTS; a++) {
            if (segments == 2) {
                List<int[]> c = List.of(new int[] {0, a}, new int[] {a, n});
                double rss = rss(x, y, c);
                if (rss < bestRss) {
                    bestRss = rss;
                    best = c;
                }
                continue;
            }
            for (int b = a + MIN_POINTS; b <= n - MIN_POINTS; b++) {
                List<int[]> c = List.of(new int[] {0, a}, new int[] {a, b}, new int[] {b, n});
                double rss = rss(x, y, c);
                if (rss < bestRss) {
                    bestRss = rss;
                    best = c;
                }
            }
        }
        return best;
    }

    private static double rss(long[] x, double[] y, List<int[]> ranges) {
        double rss = 0;
        for (int[] r : ranges) rss += solve(x, y, r[0], r[1]).rss;
        return rss;
    }

    private static double rms(long[] x, double[] y, List<int[]> ranges) {
        return Math.sqrt(rss(x, y, ranges) / x.length);
    }

    /** Bayesian information criterion: 2 parameters per range plus one per breakpoint. */
    private static double bic(long[] x, double[] y, List<int[]> ranges) {
        int n = x.length;
        int parameters = 3 * ranges.size() - 1;
        double rss = Math.max(rss(x, y, ranges), 1e-300);
        return n * Math.log(rss / n) + parameters * Math.log(n);
    }

    /** Weighted least squares of t = t0 + k n over [from, to), weights 1/t². */
    private record Solution(double t0, double k, double varT0, double varK, double rss) {}

    private static Solution solve(long[] x, double[] y, int from, int to) {
        double sw = 0, swx = 0, swy = 0, swxx = 0, swxy = 0;
        for (int i = from; i < to; i++) {
            double w = 1 / (y[i] * y[i]);
            sw += w;
            swx += w * x[i];
            swy += w * y[i];
            swxx += w * x[i] * (double) x[i];
            swxy += w * x[i] * y[i];
        }
        double det = sw * swxx - swx * swx;
        double k = det == 0 ? 0 : (sw * swxy - swx * swy) / det;
        double t0 = det == 0 ? swy / sw : (swy - k * swx) / sw;
        double rss = 0;
        for (int i = from; i < to; i++) {
            double r = (y[i] - t0 - k * x[i]) / y[i];
            rss += r * r;
        }
        int dof = to - from - 2;
        double s2 = dof > 0 ? rss / dof : 0;
        double varT0 = det == 0 ? 0 : s2 * swxx / det;
        double varK = det == 0 ? 0 : s2 * sw / det;
        return new Solution(t0, k, varT0, varK, rss);
    }

    private static HockneyFit fitRange(long[] x, double[] y, int from, int to) {
        Solution s = solve(x, y, from, to);
        // k is ns per byte; r_inf in MB/s = 1e3 / k
        double rInf = s.k > 0 ? 1e3 / s.k : Double.POSITIVE_INFINITY;
        double rInfErr = s.k > 0 ? 1e3 * Math.sqrt(s.varK) / (s.k * s.k) : Double.NaN;
        double nHalf = s.k > 0 ? s.t0 / s.k : Double.POSITIVE_INFINITY;
        return new HockneyFit(x[from], x[to - 1], to - from, s.t0, Math.sqrt(s.varT0), rInf, rInfErr, nHalf,
                Math.sqrt(s.rss / (to - from)));
    }
}
