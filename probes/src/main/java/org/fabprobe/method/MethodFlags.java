package org.fabprobe.method;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.fabprobe.model.ParameterSet;
import org.fabprobe.model.Segments;

/** What a method's result is flagged for: never printed as if fine. */
public final class MethodFlags {
    private MethodFlags() {}

    /**
     * Physically inconsistent or absurd parameter sets, poorly fitting ranges, sizes left out
     * after the last range, sizes measured while the host drifted, and values measured only
     * while disturbed.
     *
     * @param rttNs the method's 0-byte (or smallest size's) round trip: L cannot exceed it
     */
    public static List<String> of(List<ParameterSet> sets, List<String> notes, double rttNs) {
        return of(sets, notes, range -> rttNs);
    }

    /**
     * As {@link #of(List, List, double)}, with each range's L held against a round trip of its
     * own: loggp's L per range is PRTT(1,0,s)/2 - 2o - (s-1)G at the range's smallest size, so a
     * rendezvous range's L holds the handshake and exceeds the 0-byte round trip by right.
     */
    public static List<String> of(List<ParameterSet> sets, List<String> notes, ToDoubleFunction<ParameterSet> rttNs) {
        List<String> flags = new ArrayList<>();
        for (ParameterSet p : sets) {
            flags.addAll(p.inconsistencies());
            flags.addAll(p.absurdities(rttNs.applyAsDouble(p)));
        }
        long poor = notes.stream().filter(n -> n.startsWith(Segments.POOR_FIT_NOTE)).count();
        if (poor > 0) flags.add("POOR FIT: " + poor + " size ranges whose line misses the measurements (see notes)");
        long outside = notes.stream().filter(n -> n.startsWith(Segments.OUTSIDE_FIT_NOTE)).count();
        if (outside > 0) flags.add("OUTSIDE FIT: the last sizes lie off the last range's line and were left out of the fit (see notes)");
        long drifted = notes.stream().filter(n -> n.startsWith(PLogPMethod.DRIFT_NOTE)).count();
        if (drifted > 0) {
            flags.add("DRIFT: " + drifted + " sizes measured while the host ran at another speed (see notes): ranges and"
                    + " G may be artefacts");
        }
        long states = notes.stream().filter(n -> n.startsWith(PLogPMethod.STATE_NOTE)).count();
        if (states > 0) {
            flags.add("STATE: " + states + " sizes whose round trip has two steady states (see notes): their figures"
                    + " depend on what ran before");
        }
        long disturbed = notes.stream().filter(n -> n.startsWith(Sampler.DISTURBED_NOTE)).count();
        if (disturbed > 0) {
            flags.add("DISTURBED: " + disturbed + " quantities measured only while disturbed (see notes): the values may be wrong");
        }
        long clamped = notes.stream().filter(n -> n.startsWith(Sampler.CLAMPED_NOTE)).count();
        if (clamped > 0) {
            flags.add("CLAMPED: " + clamped + " sizes whose o_s or o_r is 0 only because the clock's read cost exceeded"
                    + " them (see notes): not measured");
        }
        return flags;
    }
}
