package org.fabprobe.model;

/**
 * A measured or derived quantity with its uncertainty: the half-width of its 95 % confidence
 * interval. Arithmetic assumes independent errors (they add in quadrature).
 */
public record Estimate(double value, double ci95) {

    public static Estimate exact(double value) {
        return new Estimate(value, 0);
    }

    public Estimate plus(Estimate o) {
        return new Estimate(value + o.value, Math.hypot(ci95, o.ci95));
    }

    public Estimate minus(Estimate o) {
        return new Estimate(value - o.value, Math.hypot(ci95, o.ci95));
    }

    public Estimate times(double factor) {
        return new Estimate(value * factor, ci95 * Math.abs(factor));
    }

    /** The same value with an unknown uncertainty counted as none (for terms that are exact by construction). */
    public Estimate withoutNaN() {
        return Double.isNaN(ci95) ? new Estimate(value, 0) : this;
    }

    /** Relative half-width; infinite for a zero value with any spread. */
    public double relativeCi() {
        return ci95 == 0 ? 0 : ci95 / Math.abs(value);
    }

    /** True when this is below {@code o} beyond both uncertainties. */
    public boolean clearlyBelow(Estimate o) {
        return value + ci95 < o.value - o.ci95;
    }
}
