package org.fabprobe.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Message sizes from the command line: a comma list of sizes and ranges.
 * {@code 8}, {@code 4K}, {@code 1MiB}: one size (K/M/G are powers of 1024);
 * {@code 0..4M}: 0 (if included) and every power of two in the range.
 */
public final class SizeList {
    private SizeList() {}

    public static long[] parse(String spec) {
        TreeSet<Long> sizes = new TreeSet<>();
        for (String item : spec.split(",")) {
            String s = item.trim();
            if (s.isEmpty()) continue;
            int dots = s.indexOf("..");
            if (dots < 0) {
                sizes.add(size(s));
                continue;
            }
            long from = size(s.substring(0, dots));
            long to = size(s.substring(dots + 2));
            if (from > to) throw new IllegalArgumentException("size range '" + s + "' runs backwards");
            if (from == 0) sizes.add(0L);
            for (long p = 1; p <= to && p > 0; p <<= 1) {
                if (p >= from) sizes.add(p);
            }
        }
        if (sizes.isEmpty()) throw new IllegalArgumentException("no message sizes in '" + spec + "'");
        return sizes.stream().mapToLong(Long::longValue).toArray();
    }

    /** Sizes as {@link #parse} reads them back: bytes, comma-separated. */
    public static String format(long[] sizes) {
        return java.util.Arrays.stream(sizes).mapToObj(Long::toString).collect(java.util.stream.Collectors.joining(","));
    }

    public static long size(String text) {
        String s = text.trim().toUpperCase(Locale.ROOT).replace("IB", "").replace("B", "");
        long unit = 1;
        if (s.endsWith("K")) unit = 1L << 10;
        else if (s.endsWith("M")) unit = 1L << 20;
        else if (s.endsWith("G")) unit = 1L << 30;
        if (unit > 1) s = s.substring(0, s.length() - 1);
        try {
            long value = Long.parseLong(s.trim());
            if (value < 0) throw new NumberFormatException();
            return Math.multiplyExact(value, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("not a message size: '" + text + "' (examples: 0, 8, 4K, 1MiB, 0..4M)");
        }
    }

    public static List<Long> asList(long[] sizes) {
        List<Long> list = new ArrayList<>();
        for (long s : sizes) list.add(s);
        return list;
    }

    /** Exact sizes in the largest binary unit that divides them: 0 B, 8 B, 4 KiB, 1 MiB, 1000 B. */
    public static String human(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) return (bytes >> 30) + " GiB";
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) return (bytes >> 20) + " MiB";
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) return (bytes >> 10) + " KiB";
        return bytes + " B";
    }
}
