package org.fabprobe.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * LogGP parameters for one size range, each with its 95 % uncertainty; NaN values were not
 * measured by the method that produced the set (LogGP's PRTT method has one o, for example).
 *
 * @param fromBytes    smallest size of the range
 * @param toBytes      largest size of the range
 * @param latency      L, ns
 * @param sendOverhead o_s, ns (LogGP's o where o_s and o_r are not told apart)
 * @param recvOverhead o_r, ns
 * @param gap          g, ns
 * @param gapPerByte   G, ns per byte
 */
public record ParameterSet(long fromBytes, long toBytes, Estimate latency, Estimate sendOverhead,
                           Estimate recvOverhead, Estimate gap, Estimate gapPerByte) {

    public static final Estimate NOT_MEASURED = new Estimate(Double.NaN, Double.NaN);

    /**
     * Where LogGP's L (Table 1: RTT(0)/2 - g(0) + g(1) - o_s - o_r) comes out negative, the two
     * overheads hold the transfer itself: the sender's call runs the receiver's input path
     * (loopback tcp) or copies into its queue (shared memory). What L means there is this
     * overlap, printed by name: "the send overhead carries the transfer (o_s + o_r > RTT/2 by X µs)".
     *
     * @return that text where L < 0, else null
     */
    public static String overlapText(Estimate latency) {
        if (!(latency.value() < 0)) return null;
        return String.format(Locale.ROOT, "the send overhead carries the transfer (o_s + o_r > RTT/2 by %.3f µs)",
                -latency.value() / 1e3);
    }

    /** The overlap o_s + o_r - RTT/2 (that is, -L) where L < 0, else null. */
    public static Estimate overlap(Estimate latency) {
        return latency != null && latency.value() < 0 ? new Estimate(-latency.value(), latency.ci95()) : null;
    }

    /**
     * Physically inconsistent results, beyond their uncertainty: a gap below the send overhead
     * (the gap covers o_s, Kielmann sect. 2), a negative latency or overhead, no positive per-byte cost in
     * a range that spans enough sizes to show one. Flagged, never hidden or clamped.
     */
    public List<String> inconsistencies() {
        List<String> flags = new ArrayList<>();
        String range = fromBytes + ".." + toBytes + " B";
        if (gap.clearlyBelow(sendOverhead)) {
            flags.add(String.format(Locale.ROOT, "%s: g %.1f ns < o_s %.1f ns", range, gap.value(), sendOverhead.value()));
        }
        if (latency.value() + latency.ci95() < 0) {
            // the overheads contain the flight (loopback tcp, shared memory): named, never a bare negative L
            flags.add(range + ": " + overlapText(latency) + ", expected on shared memory and loopback tcp");
        }
        for (Estimate o : new Estimate[] {sendOverhead, recvOverhead}) {
            if (o.value() + o.ci95() < 0) flags.add(String.format(Locale.ROOT, "%s: negative overhead %.1f ns", range, o.value()));
        }
        if (!Double.isNaN(gapPerByte.value()) && gapPerByte.value() <= 0 && toBytes >= 4 * Math.max(fromBytes, 1024)) {
            flags.add(String.format(Locale.ROOT, "%s: G <= 0 (no per-byte cost over a wide size range)", range));
        }
        return flags;
    }

    /**
     * Values no network can have, which only a disturbed or misfitted measurement gives: L
     * above the round trip it was derived from, an uncertainty larger than the value itself
     * (beyond the clock's resolution of a few ns).
     *
     * @param roundTripNs the round trip of the smallest size, or NaN if not known
     */
    public List<String> absurdities(double roundTripNs) {
        List<String> flags = new ArrayList<>();
        String range = fromBytes + ".." + toBytes + " B";
        if (latency.value() > roundTripNs) {
            flags.add(String.format(Locale.ROOT, "%s: L %.1f ns > the round trip %.1f ns (absurd)", range, latency.value(),
                    roundTripNs));
        }
        String[] names = {"L", "o_s", "o_r", "g"};
        Estimate[] values = {latency, sendOverhead, recvOverhead, gap};
        for (int i = 0; i < names.length; i++) {
            Estimate e = values[i];
            if (e.ci95() > Math.abs(e.value()) && e.ci95() > RESOLUTION_NS) {
                flags.add(String.format(Locale.ROOT, "%s: %s %.1f ± %.1f ns: uncertainty larger than the value", range,
                        names[i], e.value(), e.ci95()));
            }
        }
        if (gapPerByte.ci95() > Math.abs(gapPerByte.value())) {
            flags.add(String.format(Locale.ROOT, "%s: G %.5f ± %.5f ns/B: uncertainty larger than the value", range,
                    gapPerByte.value(), gapPerByte.ci95()));
        }
        return flags;
    }

    /** Below this an uncertainty is the clock's, not the measurement's. */
    private static final double RESOLUTION_NS = 10;
}
