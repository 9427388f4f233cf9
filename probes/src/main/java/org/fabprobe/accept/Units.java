package org.fabprobe.accept;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The units a spec may give its references in, per dimension, and their factor to fabprobe's own
 * unit of that dimension (ns; MB/s = 10^6 B/s; ns/B; a plain number).
 */
public final class Units {
    /** What a figure measures; each figure has one, and a spec's unit must have the same. */
    public enum Dimension {
        TIME("ns"), BANDWIDTH("MB/s"), PER_BYTE("ns/B"), RATIO("ratio"), COUNT("count");

        /** fabprobe's own unit of the dimension: every measured figure is in it. */
        public final String base;

        Dimension(String base) {
            this.base = base;
        }

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        }
    }

    /** A unit: its name as written, its dimension, and how many base units one of it is. */
    public record Unit(String name, Dimension dimension, double factor) {
        public double toBase(double value) {
            return value * factor;
        }

        public double fromBase(double value) {
            return value / factor;
        }
    }

    private static final Map<String, Unit> UNITS = new LinkedHashMap<>();

    private static void add(Dimension d, double factor, String... names) {
        for (String n : names) UNITS.put(n, new Unit(n, d, factor));
    }

    static {
        add(Dimension.TIME, 1, "ns");
        add(Dimension.TIME, 1e3, "us", "µs", "μs"); // micro sign U+00B5 and Greek mu U+03BC
        add(Dimension.TIME, 1e6, "ms");
        add(Dimension.TIME, 1e9, "s");
        add(Dimension.BANDWIDTH, 1e-6, "B/s");
        add(Dimension.BANDWIDTH, 1e-3, "KB/s", "kB/s");
        add(Dimension.BANDWIDTH, 1, "MB/s");
        add(Dimension.BANDWIDTH, 1e3, "GB/s");
        add(Dimension.BANDWIDTH, 1024 / 1e6, "KiB/s");
        add(Dimension.BANDWIDTH, 1024.0 * 1024 / 1e6, "MiB/s");
        add(Dimension.BANDWIDTH, 1024.0 * 1024 * 1024 / 1e6, "GiB/s");
        add(Dimension.BANDWIDTH, 1e6 / 8 / 1e6, "Mb/s", "Mbit/s"); // link rates are quoted in bits
        add(Dimension.BANDWIDTH, 1e9 / 8 / 1e6, "Gb/s", "Gbit/s");
        add(Dimension.PER_BYTE, 1, "ns/B");
        add(Dimension.PER_BYTE, 1e-3, "ps/B");
        add(Dimension.RATIO, 1, "ratio");
        add(Dimension.COUNT, 1, "count");
    }

    private Units() {}

    /** The unit named {@code name}, or null when there is none by that name. */
    public static Unit find(String name) {
        return UNITS.get(name);
    }

    /** The names a dimension accepts, for error messages. */
    public static String namesOf(Dimension d) {
        return String.join(", ", UNITS.values().stream().filter(u -> u.dimension() == d).map(Unit::name).toList());
    }
}
