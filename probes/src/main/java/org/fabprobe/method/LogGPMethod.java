package org.fabprobe.method;

import java.util.ArrayList;
import java.util.List;
import org.fabprobe.Steps;
import org.fabprobe.method.Sampler.Sampled;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.ParameterSet;
import org.fabprobe.model.Segments;
import org.fabprobe.pattern.Probe;
import org.fabprobe.transport.Op;

/**
 * Hoefler, Lichei and Rehm's LogGP assessment with parametrized round trips (Netgauge's
 * loggp pattern). PRTT(n, d, s): n messages of s bytes, d apart, answered by one message of
 * s bytes; in LogGP
 *
 * <pre>
 *   PRTT(1,0,s) = 2 (L + 2o + (s-1)G)
 *   PRTT(n,0,s) = PRTT(1,0,s) + (n-1) (g + (s-1)G)
 *   PRTT(n,d,s) = PRTT(1,0,s) + (n-1) max(o + d, g + (s-1)G)
 * </pre>
 *
 * so per size g + (s-1)G = (PRTT(n,0,s) - PRTT(1,0,s)) / (n-1), and with d = PRTT(1,0,s) (or
 * PRTT(2,0,s) for high gaps) o = (PRTT(n,d,s) - PRTT(1,0,s)) / (n-1) - d. g and G come from a
 * least-squares line through g + (s-1)G over s, one per size range; the ranges (protocol
 * changes) are where splitting the fit of g + (s-1)G and PRTT(1,0,s) removes a systematic
 * misfit (see {@link Segments}). L = PRTT(1,0,s)/2 - 2o - (s-1)G at the range's smallest size.
 * LogGP has one o: what this measures is the sender's, and L absorbs o_r - o_s.
 *
 * <p>With reads ({@link Op#READ}) a message is a read and nothing answers the train but the
 * last read's data: PRTT(1,0,s) = 2L + o + (s-1)G, so L = (PRTT(1,0,s) - o - (s-1)G) / 2, and L
 * absorbs half the origin's completing of a read (o_r / 2).
 */
public final class LogGPMethod {
    /** @param sizes message sizes, increasing; @param messages n of PRTT(n, ., s) */
    public record Settings(long[] sizes, int messages) {}

    /** Per size: the three round trips and what follows from them. */
    public record SizePrtt(long size, Sampled prtt1, Sampled prttN, Sampled prttDelayed, double delayNs, double delaySpunNs,
                           Estimate gapAll, Estimate overhead) {}

    public record Result(int messages, List<SizePrtt> sizes, List<ParameterSet> ranges, double wallMs,
                         List<String> notes) {}

    private final Probe probe;
    private final Sampler sampler;
    private final Steps steps;

    public LogGPMethod(Probe probe, Sampler sampler) {
        this(probe, sampler, Steps.NONE);
    }

    /** @param steps told before each size (between timed sections; the probes do the timing) */
    public LogGPMethod(Probe probe, Sampler sampler, Steps steps) {
        this.probe = probe;
        this.sampler = sampler.watching(probe::disturbances);
        this.steps = steps;
    }

    public Result run(Settings settings) {
        if (settings.messages() < 2) throw new IllegalArgumentException("PRTT needs n >= 2 messages");
        long start = System.nanoTime();
        int n = settings.messages();
        List<SizePrtt> sizes = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (long s : settings.sizes()) {
            steps.next("PRTT(1|n, 0|d, s) at s =", s);
            Sampled prtt1 = sampler.sampleOne(reps -> probe.train(1, s, 0, s, reps));
            Sampled prttN = sampler.sampleOne(reps -> probe.train(n, s, 0, s, reps));
            Estimate gapAll = prttN.median().minus(prtt1.median()).times(1.0 / (n - 1));
            double delay = prtt1.value();
            if (gapAll.value() >= delay) { // high gap: d must exceed g + (s-1)G for o to show
                delay = sampler.sampleOne(reps -> probe.train(2, s, 0, s, reps)).value();
            }
            double d = delay;
            probe.clearSpunDelay();
            Sampled prttD = sampler.sampleOne(reps -> probe.train(n, s, d, s, reps));
            Estimate overhead = prttD.median().minus(prtt1.median()).times(1.0 / (n - 1))
                    .minus(Estimate.exact(probe.spunDelayNs()));
            double spun = probe.spunDelayNs();
            sizes.add(new SizePrtt(s, prtt1, prttN, prttD, d, spun, gapAll, overhead));
            if (!prtt1.converged() || !prttN.converged() || !prttD.converged()) {
                notes.add("size " + s + " B: not within the confidence target at the repetition/time cap");
            }
            PLogPMethod.addIfPresent(notes, Sampler.disturbedNote("size " + s + " B", prtt1, prttN, prttD));
        }
        PLogPMethod.addIfPresent(notes, sampler.discardedNote());
        notes.addAll(rangeNotes(sizes));
        return new Result(n, sizes, fit(sizes, probe.op() == Op.READ), (System.nanoTime() - start) / 1e6, notes);
    }

    /** Notes for the ranges where the line through g + (s-1)G fits poorly, and for sizes left out after the last. */
    static List<String> rangeNotes(List<SizePrtt> sizes) {
        List<String> notes = new ArrayList<>();
        if (sizes.size() < 3) return notes;
        Series s = Series.of(sizes);
        Segments.Split split = s.split();
        int[] bounds = split.bounds();
        for (int i = 0; i + 1 < bounds.length; i++) {
            String note = Segments.poorFitNote("g+(s-1)G", s.x(), s.gapAll(), bounds[i], bounds[i + 1]);
            if (note != null) notes.add(note);
        }
        String outside = Segments.outsideFitNote("g+(s-1)G", s.x(), s.gapAll(), split);
        if (outside != null) notes.add(outside);
        return notes;
    }

    /** Sizes, g + (s-1)G and PRTT(1,0,s) as arrays, and where the ranges found in them begin and end. */
    private record Series(long[] x, double[] gapAll, double[] prtt1) {
        static Series of(List<SizePrtt> sizes) {
            return new Series(sizes.stream().mapToLong(SizePrtt::size).toArray(),
                    sizes.stream().mapToDouble(p -> p.gapAll().value()).toArray(),
                    sizes.stream().mapToDouble(p -> p.prtt1().value()).toArray());
        }

        /** The size ranges, split where either series changes its line; a step after the last sizes leaves them out. */
        Segments.Split split() {
            return Segments.split(x, gapAll, prtt1);
        }
    }

    /** One LogGP set per size range found in g + (s-1)G and PRTT(1,0,s); {@code reads}: the trains were reads. */
    static List<ParameterSet> fit(List<SizePrtt> sizes, boolean reads) {
        List<ParameterSet> sets = new ArrayList<>();
        if (sizes.size() < 2) return sets;
        Series s = Series.of(sizes);
        long[] x = s.x();
        int[] bounds = s.split().bounds();
        for (int i = 0; i + 1 < bounds.length; i++) {
            int from = bounds[i], to = bounds[i + 1];
            Segments.Line line = Segments.fit(x, s.gapAll(), from, to);
            // g + (s-1)G = (g - G) + sG
            Estimate gapPerByte = to - from > 2 && line.slope() > 0
                    ? new Estimate(line.slope(), line.slopeCi95())
                    : new Estimate(line.slope(), Double.NaN);
            Estimate gap = new Estimate(line.at(1), line.interceptCi95());
            SizePrtt first = sizes.get(from);
            Estimate o = first.overhead();
            double bytesBeyondFirst = Math.max(first.size() - 1, 0);
            Estimate beyondFirst = gapPerByte.times(bytesBeyondFirst).withoutNaN();
            Estimate latency = reads ? first.prtt1().median().minus(o).minus(beyondFirst).times(0.5)
                    : first.prtt1().median().times(0.5).minus(o.times(2)).minus(beyondFirst);
            sets.add(new ParameterSet(x[from], x[to - 1], latency, o, ParameterSet.NOT_MEASURED, gap, gapPerByte));
        }
        return sets;
    }
}
