package org.fabprobe.transport.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The parameters of the emulated network, in ns (G in ns per byte), parsed from
 * {@code sim:L=5us,os=1.2us,or=1.5us,g=4us,G=1ns/B} with an optional second set for sizes
 * above a threshold, as a protocol switch would give: {@code ...;>16K:L=20us,G=0.25ns/B}
 * (unnamed values are inherited from the first set), and sets for one link or one rank under a
 * launcher: {@code ...;link(1,3):L=20us;rank(2):os=10us,or=10us} (see {@link #between}).
 *
 * <p>Semantics, one message of s bytes (parameterized LogP with LogGP's G), as a NIC with a
 * send queue would behave: the sender's CPU is busy o_s from the post; the message leaves
 * at t0 = max(post, link free), its last byte arrives at t0 + o_s + L + (s-1) G, and the link
 * is free again at t0 + g + (s-1) G. The sender stalls only while more than ceil(L/g)
 * messages wait for the link (LogP's capacity). The receiver, once the message has arrived
 * and a receive is posted, is busy o_r more. So a ping-pong half round trip is
 * o_s + L + (s-1) G + o_r, and n messages in a row leave g + (s-1) G apart.
 */
public record SimParameters(Set small, long thresholdBytes, Set large, List<Site> sites) {

    /** One parameter set, all in ns (gapPerByte in ns per byte). */
    public record Set(double latency, double sendOverhead, double recvOverhead, double gap, double gapPerByte) {
        Set with(Map<String, Double> values) {
            return new Set(values.getOrDefault("L", latency), values.getOrDefault("os", sendOverhead),
                    values.getOrDefault("or", recvOverhead), values.getOrDefault("g", gap),
                    values.getOrDefault("G", gapPerByte));
        }
    }

    /**
     * Values for one rank ({@code rank(R):...}, b = -1) or one link ({@code link(A,B):...}, both
     * directions), applied to every message size. Ranks are MPI ranks (the launcher's).
     */
    public record Site(int a, int b, Map<String, Double> values) {
        boolean isLink() {
            return b >= 0;
        }

        String label() {
            return isLink() ? "link(" + a + "," + b + ")" : "rank(" + a + ")";
        }
    }

    public SimParameters(Set small, long thresholdBytes, Set large) {
        this(small, thresholdBytes, large, List.of());
    }

    public Set forSize(long bytes) {
        return bytes > thresholdBytes ? large : small;
    }

    /**
     * The parameters of messages from rank {@code from} to rank {@code to} (-1: unknown, the
     * base sets). A rank's L, g and G are its own link's, so they hold for what it sends and
     * what it receives (the larger of the two ranks' wins); its os holds when it sends, its or
     * when it receives. A link's values hold both ways and win over the ranks'.
     */
    public SimParameters between(int from, int to) {
        if (sites.isEmpty() || from < 0 || to < 0) return new SimParameters(small, thresholdBytes, large);
        Map<String, Double> chosen = new LinkedHashMap<>();
        for (Site o : sites) {
            if (o.isLink() || (o.a() != from && o.a() != to)) continue;
            o.values().forEach((name, v) -> {
                boolean applies = switch (name) {
                    case "os" -> o.a() == from;
                    case "or" -> o.a() == to;
                    default -> true;
                };
                if (applies) chosen.merge(name, v, Math::max);
            });
        }
        for (Site o : sites) {
            if (o.isLink() && ((o.a() == from && o.b() == to) || (o.a() == to && o.b() == from))) chosen.putAll(o.values());
        }
        return new SimParameters(small.with(chosen), thresholdBytes, large.with(chosen));
    }

    /**
     * {@code BASE[;>SIZE:SET][;link(A,B):SET]...[;rank(R):SET]...}: the base set, at most one
     * set for sizes above a threshold, and any number of link and rank sets.
     */
    public static SimParameters parse(String spec) {
        String[] parts = spec.split(";");
        Set small = new Set(0, 0, 0, 0, 0).with(values(parts[0], spec));
        long threshold = Long.MAX_VALUE;
        Set large = small;
        List<Site> sites = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i].strip();
            int colon = part.indexOf(':');
            if (colon < 0) throw new IllegalArgumentException("sim: expected ';>16K:...', ';link(A,B):...' or ';rank(R):...', got '"
                    + part + "' in '" + spec + "'");
            String head = part.substring(0, colon).strip();
            Map<String, Double> values = values(part.substring(colon + 1), spec);
            if (head.startsWith(">")) {
                if (threshold != Long.MAX_VALUE) throw new IllegalArgumentException("sim: only one ';>SIZE:' set in '" + spec + "'");
                threshold = size(head.substring(1), spec);
                large = small.with(values);
            } else {
                sites.add(override(head, values, spec));
            }
        }
        return new SimParameters(small, threshold, large, List.copyOf(sites));
    }

    private static Site override(String head, Map<String, Double> values, String spec) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(link|rank)\\((\\d+)(?:,(\\d+))?\\)").matcher(head.replace(" ", ""));
        if (!m.matches() || (m.group(1).equals("link") != (m.group(3) != null))) {
            throw new IllegalArgumentException("sim: expected '>SIZE', 'link(A,B)' or 'rank(R)' before ':', got '" + head
                    + "' in '" + spec + "'");
        }
        int a = Integer.parseInt(m.group(2));
        if (m.group(3) == null) return new Site(a, -1, values);
        int b = Integer.parseInt(m.group(3));
        if (a == b) throw new IllegalArgumentException("sim: a link joins two different ranks, not " + head + " in '" + spec + "'");
        return new Site(Math.min(a, b), Math.max(a, b), values);
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
        for (Site o : sites) {
            StringBuilder b = new StringBuilder();
            o.values().forEach((name, v) -> b.append(b.isEmpty() ? "" : " ").append(name).append('=')
                    .append(name.equals("G") ? String.format(Locale.ROOT, "%.4fns/B", v) : String.format(Locale.ROOT, "%.3fus", v / 1e3)));
            facts.put("emulated_" + o.label(), b.toString());
        }
        return facts;
    }

    private static String describe(Set s) {
        return String.format(Locale.ROOT, "L=%.3fus os=%.3fus or=%.3fus g=%.3fus G=%.4fns/B", s.latency() / 1e3,
                s.sendOverhead() / 1e3, s.recvOverhead() / 1e3, s.gap() / 1e3, s.gapPerByte());
    }
}
