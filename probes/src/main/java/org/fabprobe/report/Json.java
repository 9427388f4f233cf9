package org.fabprobe.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fabprobe.clock.ClockFacts;

/**
 * A small JSON writer: Map (insertion order kept), List, arrays of long/int/double,
 * String, Number, Boolean, null. Non-finite numbers are written as null. Two-space indent.
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
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return map;
    }

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
            case List<?> l -> array(out, l, depth);
            case long[] a -> array(out, java.util.Arrays.stream(a).boxed().toList(), depth);
            case int[] a -> array(out, java.util.Arrays.stream(a).boxed().toList(), depth);
            case double[] a -> array(out, java.util.Arrays.stream(a).boxed().toList(), depth);
            default -> string(out, v.toString());
        }
    }

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
        out.append('{');
        String sep = "\n";
        for (var e : m.entrySet()) {
            out.append(sep).append("  ".repeat(depth + 1));
            string(out, String.valueOf(e.getKey()));
            out.append(": ");
            write(out, e.getValue(), depth + 1);
            sep = ",\n";
        }
        out.append('\n').append("  ".repeat(depth)).append('}');
    }

    private static void array(StringBuilder out, List<?> l, int depth) {
        if (l.isEmpty()) {
            out.append("[]");
            return;
        }
        boolean scalars = l.stream().noneMatch(x -> x instanceof Map || x instanceof List);
        out.append('[');
        String sep = scalars ? "" : "\n" + "  ".repeat(depth + 1);
        for (int i = 0; i < l.size(); i++) {
            out.append(sep);
            write(out, l.get(i), depth + 1);
            sep = scalars ? ", " : ",\n" + "  ".repeat(depth + 1);
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
