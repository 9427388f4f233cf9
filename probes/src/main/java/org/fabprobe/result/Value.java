package org.fabprobe.result;

import org.fabprobe.model.Estimate;

/** A quantity and its 95 % uncertainty (either may be NaN: written as null). */
public record Value(double value, double ci95) {
    public static Value of(Estimate e) {
        return new Value(e.value(), e.ci95());
    }

    public Estimate estimate() {
        return new Estimate(value, ci95);
    }
}
