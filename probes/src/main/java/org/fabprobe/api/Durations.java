package org.fabprobe.api;

import java.time.Duration;

/** Durations on the command line: 250ms, 5s, 2m (a bare number is seconds). */
public final class Durations {
    private Durations() {}

    public static Duration parse(String text) {
        String s = text.trim().toLowerCase(java.util.Locale.ROOT);
        try {
            Duration d;
            if (s.endsWith("ms")) d = Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
            else if (s.endsWith("s")) d = Duration.ofMillis(Math.round(Double.parseDouble(s.substring(0, s.length() - 1)) * 1000));
            else if (s.endsWith("m")) d = Duration.ofSeconds(Long.parseLong(s.substring(0, s.length() - 1)) * 60);
            else d = Duration.ofMillis(Math.round(Double.parseDouble(s) * 1000));
            if (d.isNegative() || d.isZero()) throw new NumberFormatException();
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a duration: '" + text + "' (examples: 500ms, 5s, 1m)");
        }
    }
}
