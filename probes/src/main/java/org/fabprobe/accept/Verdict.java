package org.fabprobe.accept;

/**
 * A check's outcome. The measured figure is an interval, value ± its 95 % uncertainty: inside
 * both bounds it passes, wholly beyond one it fails, across one it is inconclusive (the
 * measurement cannot tell). A figure without an uncertainty cannot be told apart from its
 * bounds either: inconclusive. ERROR: the figure could not be measured at all.
 */
public enum Verdict {
    PASS, FAIL, INCONCLUSIVE, ERROR;

    /** The verdict on {@code value} ± {@code ci95} against [lower, upper] (infinite: that side open). */
    public static Verdict judge(double value, double ci95, double lower, double upper) {
        return judge(value, value - Math.abs(ci95), value + Math.abs(ci95), lower, upper);
    }

    /** The verdict on {@code value} with its 95 % interval [low, high] (NaN: none) against [lower, upper]. */
    public static Verdict judge(double value, double low, double high, double lower, double upper) {
        if (Double.isNaN(value)) return ERROR;
        if (Double.isNaN(low) || Double.isNaN(high)) return INCONCLUSIVE;
        if (high < lower || low > upper) return FAIL;
        if (low >= lower && high <= upper) return PASS;
        return INCONCLUSIVE;
    }
}
