package org.fabprobe.transport.sim;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The parameters of the emulated network, in ns (G in ns per byte), parsed from
 * {@code sim:L=5us,os=1.2us,or=1.5us,g=4us,G=1ns/B} with an optional second set for sizes
 * above a threshold, as a protocol switch would give: {@code ...;>16K:L=20us,G=0.25ns/B}
 * (unnamed values are inherited from the first set).
 *
 * <p>Semantics, one message of s bytes (parameterized LogP with LogGP's G), as a NIC with a
 * send queue would behave: the sender's CPU is busy o_s from the post; the message leaves
 * at t0 = max(post, link free), its last byte arrives at t0 + o_s + L + (s-1) G, and the link
 * is free again at t0 + g + (s-1) G. The sender stalls only while more than ceil(L/g)
 * messages wait for the link (LogP's capacity). The receiver, once the message has arrived
 * and a receive is posted, is busy o_r more. So a ping-pong half round trip is
 * o_s + L + (s-1) G + o_r, and n messages in a row leave g + (s-1) G apart.
 */
public record SimParameters(Set small, long thresholdBytes, Set large) {

    /** One parameter set, all in ns (gapPerByte in ns per byte). */
    public record Set(double latency, double sendOverhead, double recvOverhead, double gap, double gapPerByte) {
        Set with(Map<String, Double> values) {
            return new Set(values.getOrDefault("L", latency), values.getOrDefault("os", sendOverhead),
                    values.getOrDefault("or", recvOverhead), values.getOrDefault("g", gap),
                    values.getOrDefault("G", gapPerByte));
        }
    }

    public Set forSize(long bytes) {
        return bytes > thresholdBytes ? large : small;
    }

    public static SimParameters parse(String spec) {
        String[] parts = spec.split(";", 2);
        Set small = new Set(0, 0, 0, 0, 0).with(values(parts[0], spec));
        if (parts.length == 1) return new SimParameters(small, Long.MAX_VALUE, small);
        String second = parts[1].strip();
        int colon = second.indexOf(':');
        if (!second.startsWith(">") || colon < 0) {
            throw new IllegalArgumentException("sim: second parameter set must look like ';>16K:L=20us,G=0.5ns/B' in '" + spec + "'");
        }
        long threshold = size(second.substring(1, colon), spec);
        return new SimParameters(small, threshold, small.with(values(second.substring(colon + 1), spec)));
    }

    private static Map<String, Double> values(String list, String spec) {
        Map<String, Double> values = new LinkedHashMap<>();
        for (String item : list.split(",")) {
            String s = item.strip();
            if (s.isEmpty()) continue;
            int eq = s.indexOf('=');
            if (eq < 0) throw new IllegalArgumentException("sim: expected NAME=VALUE, got '" + s + "' in '" + spec + "'");
            String name = s.substring(0, eq).strip();
            if (!name.matches("L|os|or|g|G")) {
                throw new IllegalArgumentException("sim: unknown parameter '" + name + "' (use L, os, or, g, G) in '" + spec + "'");
            }
            values.put(name, name.equals("G") ? perByte(s.substring(eq + 1), spec) : time(s.substring(eq + 1), spec));
        }
        return values;
    }

    /** 5us, 1.2us, 800ns, 2ms -> ns. */
    static double time(String text, String spec) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        double unit = t.endsWith("ns") ? 1 : t.endsWith("us") || t.endsWith("µs") ? 1e3 : t.endsWith("ms") ? 1e6 : Double.NaN;
        return number(Double.isNaN(unit) ? t : t.substring(0, t.length() - 2), unit, text, spec);
    }

    /** 1ns/B, 0.25ns/B, 250ps/B -> ns per byte. */
    static double perByte(String text, String spec) {
        String t = text.strip();
        if (!t.endsWith("/B")) throw new IllegalArgumentException("sim: G needs a unit like 1ns/B, got '" + text + "' in '" + spec + "'");
        t = t.substring(0, t.length() - 2).toLowerCase(Locale.ROOT);
        double unit = t.endsWith("ns") ? 1 : t.endsWith("ps") ? 1e-3 : Double.NaN;
        return number(Double.isNaN(unit) ? t : t.substring(0, t.length() - 2), unit, text, spec);
    }

    private static double number(String digits, double unit, String text, String spec) {
        try {
            if (Double.isNaN(unit)) throw new NumberFormatException("no unit");
            double v = Double.parseDouble(digits) * unit;
            if (!(v >= 0) || Double.isInfinite(v)) throw new NumberFormatException();
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("sim: not a time like 5us, 800ns or 1ns/B: '" + text + "' in '" + spec + "'");
        }
    }

    private static long size(String text, String spec) {
        String t = text.strip().toUpperCase(Locale.ROOT).replace("IB", "").replace("B", "");
        long unit = t.endsWith("K") ? 1L << 10 : t.endsWith("M") ? 1L << 20 : 1;
        if (unit > 1) t = t.substring(0, t.length() - 1);
        try {
            return Long.parseLong(t) * unit;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("sim: not a size threshold: '" + text + "' in '" + spec + "'");
        }
    }

    /** Facts for the result: the parameters as given, in µs and ns/B. */
    Map<String, String> describe() {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("emulated", describe(small));
        if (thresholdBytes != Long.MAX_VALUE) facts.put("emulated_above_" + thresholdBytes + "_B", describe(large));
        return facts;
    }

    private static String describe(Set s) {
        return String.format(Locale.ROOT, "L=%.3fus os=%.3fus or=%.3fus g=%.3fus G=%.4fns/B", s.latency() / 1e3,
                s.sendOverhead() / 1e3, s.recvOverhead() / 1e3, s.gap() / 1e3, s.gapPerByte());
    }
}
