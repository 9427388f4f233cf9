package org.fabprobe.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Fits Hockney's t(n) = t0 + n / r_inf (Santos et al., eq. 1; n_1/2 = t0 r_inf, eq. 2) to a
 * size sweep, one fit per size range.
 *
 * <p><b>Weights and ranges</b> are {@link Segments}': relative residuals (weights 1/t²), and
 * a protocol switch (eager -> rendezvous, inject -> copy) starts a new size range only where
 * splitting halves the residual standard error.
 *
 * <p><b>A step at the end of the sweep.</b> A range needs 3 sizes, so a step after the
 * second-to-last size (ofi:shm's 4 MiB ping-pong, past the cache) could not have a range of its
 * own, and its misfit, the largest relative residual of the sweep, hid every other step. The
 * last one or two sizes are therefore left out of the fit when that halves the residual standard
 * error, as a new range must; {@link #leftOutNote} says so, never silently.
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
    private static final int MIN_POINTS = Segments.MIN_POINTS;

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

        Segments.Split split = Segments.split(x, y);
        int[] bestCuts = split.cuts();
        x = Arrays.copyOf(x, split.kept());
        y = Arrays.copyOf(y, split.kept());
        List<HockneyFit> fits = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= bestCuts.length; i++) {
            int to = i < bestCuts.length ? bestCuts[i] : x.length;
            fits.add(toFit(x, from, to, Segments.fit(x, y, from, to)));
            from = to;
        }
        return fits;
    }

    /**
     * A note naming the sizes after the last range (left out by {@link #fit}) and how far they
     * lie from that range's line, or null if the fits cover every size.
     */
    public static String leftOutNote(long[] sizesBytes, double[] timesNs, List<HockneyFit> fits) {
        if (fits.isEmpty()) return null;
        HockneyFit last = fits.getLast();
        StringBuilder sizes = new StringBuilder();
        for (int i = 0; i < sizesBytes.length; i++) {
            if (sizesBytes[i] <= last.toBytes() || !(timesNs[i] > 0)) continue;
            double line = last.t0Ns() + (Double.isInfinite(last.rInfMBs()) ? 0 : sizesBytes[i] * 1e3 / last.rInfMBs());
            if (!sizes.isEmpty()) sizes.append(", ");
            sizes.append(String.format(Locale.ROOT, "%d B (%+.0f %% from the line of the range before)",
                    sizesBytes[i], 100 * (timesNs[i] / line - 1)));
        }
        if (sizes.isEmpty()) return null;
        return "OUTSIDE FIT " + sizes + ": " + Segments.OUTSIDE_FIT_REASON;
    }

    private static HockneyFit toFit(long[] x, int from, int to, Segments.Line s) {
        int points = to - from;
        double rms = Math.sqrt(s.rss() / points);
        if (s.slope() == 0) {
            return new HockneyFit(x[from], x[to - 1], points, s.intercept(), Math.sqrt(s.interceptVariance()),
                    Double.POSITIVE_INFINITY, Double.NaN, Double.POSITIVE_INFINITY, rms);
        }
        // slope is ns per byte; 1 byte/ns = 1000 MB/s, so r_inf = 1000 / slope and, by the delta
        // method, its standard error is 1000 * err(slope) / slope².
        double rInf = 1e3 / s.slope();
        double rInfErr = 1e3 * Math.sqrt(s.slopeVariance()) / (s.slope() * s.slope());
        return new HockneyFit(x[from], x[to - 1], points, s.intercept(), Math.sqrt(s.interceptVariance()), rInf, rInfErr,
                s.intercept() / s.slope(), rms);
    }
}
