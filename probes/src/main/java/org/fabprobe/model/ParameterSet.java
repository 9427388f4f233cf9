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
            // the overheads contain the flight (loopback tcp, shared memory: see the README)
            flags.add(String.format(Locale.ROOT, "%s: negative L %.1f ns (o_s + o_r contain the flight: expected on "
                    + "shared memory and loopback tcp)", range, latency.value()));
        }
        for (Estimate o : new Estimate[] {sendOverhead, recvOverhead}) {
            if (o.value() + o.ci95() < 0) flags.add(String.format(Locale.ROOT, "%s: negative overhead %.1f ns", range, o.value()));
        }
        if (!Double.isNaN(gapPerByte.value()) && gapPerByte.value() <= 0 && toBytes >= 4 * Math.max(fromBytes, 1024)) {
            flags.add(String.format(Locale.ROOT, "%s: G <= 0 (no per-byte cost over a wide size range)", range));
        }
        return flags;
    }
}
