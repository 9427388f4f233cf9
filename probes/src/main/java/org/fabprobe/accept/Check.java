package org.fabprobe.accept;

import java.util.Map;

/**
 * One check of a spec: a figure (where to read it: {@code options}, the figure's own keys as
 * written) against a reference with relative tolerances, ReFrame's way: the bounds are
 * reference + |reference| x lower and reference + |reference| x upper (lower <= 0 <= upper; a
 * missing tolerance leaves that side open). Reference and bounds are in {@code unit}.
 *
 * @param where       where the check starts in its spec (file:line:column), for messages
 * @param valuesWhere where each key's value is written (file:line:column), by key
 */
public record Check(String name, Figure figure, String transport, Map<String, String> options, double reference,
                    Double lower, Double upper, Units.Unit unit, String where, Map<String, String> valuesWhere) {

    /** Where the value of {@code key} is written, or where the check starts if it has no such key. */
    public String whereOf(String key) {
        return valuesWhere.getOrDefault(key, where);
    }

    public double lowerBound() {
        return lower == null ? Double.NEGATIVE_INFINITY : reference + Math.abs(reference) * lower;
    }

    public double upperBound() {
        return upper == null ? Double.POSITIVE_INFINITY : reference + Math.abs(reference) * upper;
    }

    /** The command that measures it: the figure's, or loggp where a LogGP parameter asks for it. */
    public String command() {
        return figure == Figure.PARAMETER ? options.getOrDefault("method", "plogp") : figure.command;
    }
}
