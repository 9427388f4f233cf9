package org.fabprobe.report;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;
import org.fabprobe.clock.ClockFacts;

/**
 * A small JSON writer, pretty-printed with a two-space indent. Values: Map, Collection, arrays
 * (Object[], long[], int[], double[]), String, Number, Boolean, null; anything else is written
 * as its toString(). Non-finite numbers (NaN, ±Infinity) have no JSON form and are written as
 * null. Maps keep their order when they have one (LinkedHashMap, TreeMap); others (HashMap,
 * Map.of) are written with sorted keys so the same result always gives the same text.
 */
public final class Json {
    private Json() {}

    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value, 0);
        return out.append('\n').toString();
    }

    /** An ordered object: {@code Json.object("a", 1, "b", "x")}. */
    public static Map<String, Object> object(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) throw new IllegalArgumentException("keys and values must pair up");
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return map;
    }

    /** The clock facts every result records, as one object. */
    public static Map<String, Object> clock(ClockFacts c) {
        return object("source", c.source(), "fallback_reason", c.fallbackReason(), "ticks_per_ns", c.ticksPerNs(),
                "constant_tsc", c.constantTsc(), "nonstop_tsc", c.nonstopTsc(), "read_cost_ns", c.readCostNs(),
                "resolution_ns", c.resolutionNs(), "tick2_error_ppm", c.tick2ErrorPpm(),
                "calibration_ms", c.calibrationMs());
    }

    private static void write(StringBuilder out, Object v, int depth) {
        switch (v) {
            case null -> out.append("null");
            case String s -> string(out, s);
            case Boolean b -> out.append(b);
            case Double d -> number(out, d);
            case Float f -> number(out, f);
            case Number n -> out.append(n);
            case Map<?, ?> m -> object(out, m, depth);
            case Collection<?> c -> array(out, c, depth);
            case Object[] a -> array(out, Arrays.asList(a), depth);
            case long[] a -> array(out, Arrays.stream(a).boxed().toList(), depth);
            case int[] a -> array(out, Arrays.stream(a).boxed().toList(), depth);
            case double[] a -> array(out, Arrays.stream(a).boxed().toList(), depth);
            default -> string(out, v.toString());
        }
    }

    /** Whole numbers without a fraction (3, not 3.0); others in Java's shortest round-trip form. */
    private static void number(StringBuilder out, double d) {
        if (!Double.isFinite(d)) out.append("null");
        else if (d == Math.rint(d) && Math.abs(d) < 1e15) out.append((long) d);
        else out.append(d);
    }

    private static void object(StringBuilder out, Map<?, ?> m, int depth) {
        if (m.isEmpty()) {
            out.append("{}");
            return;
        }
        Map<?, ?> ordered = m instanceof SequencedMap<?, ?> ? m : sortedByKey(m);
        out.append('{');
        String separator = "\n";
        for (var e : ordered.entrySet()) {
            out.append(separator).append("  ".repeat(depth + 1));
            string(out, String.valueOf(e.getKey()));
            out.append(": ");
            write(out, e.getValue(), depth + 1);
            separator = ",\n";
        }
        out.append('\n').append("  ".repeat(depth)).append('}');
    }

    private static Map<String, Object> sortedByKey(Map<?, ?> m) {
        Map<String, Object> sorted = new TreeMap<>();
        m.forEach((k, v) -> sorted.put(String.valueOf(k), v));
        return sorted;
    }

    /** Arrays of scalars on one line, arrays holding objects or arrays one element per line. */
    private static void array(StringBuilder out, Collection<?> c, int depth) {
        if (c.isEmpty()) {
            out.append("[]");
            return;
        }
        boolean scalars = c.stream().noneMatch(x -> x instanceof Map || x instanceof Collection || x instanceof Object[]);
        String indent = "\n" + "  ".repeat(depth + 1);
        out.append('[');
        String separator = scalars ? "" : indent;
        for (Object element : c) {
            out.append(separator);
            write(out, element, depth + 1);
            separator = scalars ? ", " : "," + indent;
        }
        if (!scalars) out.append('\n').append("  ".repeat(depth));
        out.append(']');
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }
}
