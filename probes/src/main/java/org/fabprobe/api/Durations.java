package org.fabprobe.api;

import java.time.Duration;

/** Durations on the command line: 250ms, 5s, 2m (a bare number is seconds). */
public final class Durations {
    private Durations() {}

    public static Duration parse(String text) {
        String s = text.trim().toLowerCase(java.util.Locale.ROOT);
        Duration d;
        try {
            if (s.endsWith("ms")) d = Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
            else if (s.endsWith("s")) d = Duration.ofMillis(Math.round(Double.parseDouble(s.substring(0, s.length() - 1)) * 1000));
            else if (s.endsWith("m")) d = Duration.ofSeconds(Long.parseLong(s.substring(0, s.length() - 1)) * 60);
            else d = Duration.ofMillis(Math.round(Double.parseDouble(s) * 1000));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a duration: '" + text + "' (examples: 500ms, 5s, 1m)");
        }
        if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("a duration must be > 0, not '" + text + "'");
        return d;
    }
}
