package org.fabprobe.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Median, MAD and the outliers of a set of figures (pairs, ranks, hosts of a matrix): values
 * worse than the median by more than k scaled MADs and by more than a ratio. The ratio floor
 * keeps a very uniform network (a MAD of a few ns) from naming pairs that differ by 3 %.
 * Pure functions.
 */
public final class Robust {
    /** 1.4826 MAD estimates the standard deviation of normal data. */
    public static final double MAD_SCALE = 1.4826;

    private Robust() {}

    public static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int m = v.length;
        if (m == 0) return Double.NaN;
        return m % 2 == 1 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
    }

    /** Median absolute deviation from the median (raw, not scaled). */
    public static double mad(double[] values) {
        double med = median(values);
        double[] d = new double[values.length];
        for (int i = 0; i < values.length; i++) d[i] = Math.abs(values[i] - med);
        return median(d);
    }

    /**
     * One value found worse than its peers.
     *
     * @param index         its position in the values
     * @param ratio         value / median
     * @param deviationMads |value - median| / (1.4826 MAD), infinite when the MAD is 0
     */
    public record Outlier(int index, double value, double median, double ratio, double deviationMads) {}

    /**
     * The values worse than the median by more than {@code k} scaled MADs and by more than
     * {@code minRatio} (higher is worse: value / median > minRatio; lower is worse:
     * median / value > minRatio). Fewer than 3 values have no outliers (with 2 the median is
     * their mean and neither can stand out). NaN values are skipped.
     */
    public static List<Outlier> outliers(double[] values, boolean higherIsWorse, double k, double minRatio) {
        double[] finite = Arrays.stream(values).filter(Double::isFinite).toArray();
        List<Outlier> out = new ArrayList<>();
        if (finite.length < 3) return out;
        double med = median(finite);
        double spread = MAD_SCALE * mad(finite);
        for (int i = 0; i < values.length; i++) {
            double v = values[i];
            if (!Double.isFinite(v)) continue;
            double worse = higherIsWorse ? v - med : med - v;
            double ratio = higherIsWorse ? v / med : med / v;
            if (worse > k * spread && ratio > minRatio) {
                out.add(new Outlier(i, v, med, v / med, spread > 0 ? Math.abs(v - med) / spread : Double.POSITIVE_INFINITY));
            }
        }
        return out;
    }
}
