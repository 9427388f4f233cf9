package org.fabprobe.method;

import java.util.ArrayList;
import java.util.List;
import org.fabprobe.Steps;
import org.fabprobe.clock.Clock;
import org.fabprobe.method.Sampler.Sampled;
import org.fabprobe.model.Drift;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.ParameterSet;
import org.fabprobe.model.Segments;
import org.fabprobe.model.StateSplit;
import org.fabprobe.pattern.Probe;
import org.fabprobe.transport.Op;

/**
 * Kielmann, Bal and Verstoep's fast parameterized-LogP measurement (the MPI LogP benchmark):
 *
 * <ol>
 * <li>g(0) by saturation: RTT_n of n empty messages and one empty reply, n = 10, 20, 40, ...
 *     until the gap per message changes by less than eps (1 %, or less than its own 95 %
 *     uncertainty on a noisy machine) and RTT_1 < eps RTT_n; the last train has 4096 messages.
 * <li>Per size m, two round trips. m bytes out, 0 back: the send time is o_s(m), the round
 *     trip RTT(m). 0 bytes out, wait Delta > RTT(m), receive m bytes: o_r(m) (an unexpected
 *     message, as the paper measures it). g(m) = RTT(m) - RTT(0) + g(0), L = (RTT(0) - 2 g(0)) / 2.
 * <li>Sizes 0 and 2^k up to the largest asked for; the range grows while g(m) at the top does
 *     not match its linear extrapolation from the two sizes below (within eps), up to a limit;
 *     then every size whose o_s, o_r or g does not match the extrapolation from the two sizes
 *     below it gets the midpoint of its interval measured, halving until the values match or
 *     the interval is at most max(32 B, eps m).
 * <li>LogGP from Table 1: L = L + g(1) - o_s(1) - o_r(1), o = (o_s(1) + o_r(1)) / 2, g = g(1)
 *     (read off the first range's line through g(m), so one stalled sample cannot move it),
 *     G = slope of g(m), one set per size range found in g(m) (see {@link Segments}).
 * </ol>
 *
 * <p><b>Reads</b> ({@link Op#READ}): a read's round trip holds no message back, only the read's
 * data, so RTT(m) = o_s + 2L + (m-1)G + o_r where o_r is the origin's completing of the read, and
 * L = (RTT(0) - o_s(0) - o_r(0)) / 2 is LogGP's L already; g(m) as above, from trains of reads.
 *
 * <p><b>Order.</b> A size's figure can depend on the sizes measured before it (UCX over tcp
 * at 16 KiB: RTT 22.5 or 20.3 µs). With an order seed the initial sizes are measured in a
 * random order, and every size's round trip again in another after the adaptive sizes; a size
 * whose passes or batches read two states gets a {@link #STATE_NOTE} note.
 *
 * <p>Every quantity is sampled until its median is known within the sampler's target. The
 * validation mode also measures g(m) by saturation for every size and reports the time each
 * way took (the paper's Table 2).
 *
 * <p><b>Drift.</b> g(m) = RTT(m) - RTT(0) + g(0) compares sizes measured at different times,
 * so it is only right while the host runs at one speed. On a virtual machine it may not: the
 * hypervisor's placement of the two CPUs moved the small-message round trip on ofi:shm from
 * 0.62 us (0 B) to 1.63 us (32 B) within one run, and sizes measured in the slow spell read as
 * protocol steps. After every size the 0 B round trip is measured again (a few ms); a size
 * with a sentinel that left the run's RTT(0) before or after it is measured again, and noted
 * and flagged if it stays so.
 */
public final class PLogPMethod {
    /** Kielmann's epsilon for the saturation criteria. */
    public static final double SATURATION_EPS = 0.01;
    private static final int FIRST_TRAIN = 10;
    /** Trains stop growing here: noise, not the network, keeps a real gap moving by 1 %. */
    private static final int MAX_TRAIN = 4096;
    /** Extrapolation checks tolerate this much relative difference... */
    private static final double MATCH_RELATIVE = 0.10;
    /** ...and at least this much absolute difference, ns (noise of a few clock reads). */
    private static final double MATCH_FLOOR_NS = 50;
    private static final int MAX_ADDED_SIZES = 24;
    /**
     * An interval is halved only where the size misses its extrapolations by this many
     * tolerances. At 1, the scatter of sub-µs overheads on shared memory (70-200 ns between
     * neighbours: about 2 tolerances) drew halvings until the cap bound on almost every run.
     * Real switches miss by 2-8 (vader's o_s step after 256 B) to 40 (ofi:shm's 0.24 -> 2.96 µs
     * after 4 KiB). Measured: at 2 the cap bound in 3 of 6 runs, at 3 vader's step stayed
     * unresolved in 1 of 2; at 2.5 the cap bound in 1 of 5 and vader's step was found in both.
     */
    private static final double HALVING_SCORE = 2.5;
    /** Sizes measured again because of drift, per size and per run (a bound on the time spent). */
    private static final int DRIFT_RETRIES_PER_SIZE = 2, DRIFT_RETRIES_PER_RUN = 12;
    /** How notes about drifted sizes start; the reports raise a flag for them. */
    public static final String DRIFT_NOTE = "drift: ";

    /**
     * @param sizes          the initial sizes (0 and powers of two, say), increasing
     * @param adaptiveLimit  the largest size the adaptive range may grow to (0: no growth)
     * @param validate       also measure g(m) by saturation at every size
     * @param orderSeed      the initial sizes are measured in the random order this seed gives, and
     *                       every size's round trip again in a second such order, to find sizes
     *                       whose figure depends on what ran before ({@link #STATE_NOTE}); null:
     *                       in increasing order, once
     */
    public record Settings(long[] sizes, long adaptiveLimit, boolean validate, Long orderSeed) {
        /** Increasing order, no repeat pass (the matrix's quick per-pair run). */
        public Settings(long[] sizes, long adaptiveLimit, boolean validate) {
            this(sizes, adaptiveLimit, validate, null);
        }
    }

    /** g(0) by saturation: the train length reached and the values on the way. */
    public record Saturation(Estimate gap, int messages, boolean saturated, Sampled rttN, double wallMs) {}

    /**
     * Everything measured at one size; {@code rttRepeat} the round trip of the repeat pass (null
     * without one), {@code stateDependent} whether the two passes or the batches read two states.
     */
    public record SizeParams(long size, Sampled sendOverhead, Sampled recvOverhead, Sampled rtt, Estimate gap,
                             Saturation saturatedGap, String origin, Sampled rttRepeat, boolean stateDependent) {
        public SizeParams(long size, Sampled sendOverhead, Sampled recvOverhead, Sampled rtt, Estimate gap,
                          Saturation saturatedGap, String origin) {
            this(size, sendOverhead, recvOverhead, rtt, gap, saturatedGap, origin, null, false);
        }
    }

    /** How notes about sizes with two steady states start; the reports raise a flag for them. */
    public static final String STATE_NOTE = "state: ";

    /**
     * @param latency   pLogP's L
     * @param loggp     Table 1's LogGP parameters, one set per size range of g(m)
     * @param phasesMs  wall time of g(0), o_s/o_r with implicit g(m), and saturation g(m) (validation only)
     */
    public record Result(Saturation gap0, Estimate latency, List<SizeParams> sizes, List<ParameterSet> loggp,
                         double[] phasesMs, List<String> notes) {}

    private final Probe probe;
    private final Sampler sampler;
    private final Steps steps;
    /** The last 0 B round trip measured as a sentinel, the notes on drift, and the retries so far. */
    private Sampled lastSentinel;
    private final List<String> driftNotes = new ArrayList<>();
    private int driftRetries;

    public PLogPMethod(Probe probe, Sampler sampler) {
        this(probe, sampler, Steps.NONE);
    }

    /** @param steps told before each size and saturation (between timed sections; the probes do the timing) */
    public PLogPMethod(Probe probe, Sampler sampler, Steps steps) {
        this.probe = probe;
        this.sampler = sampler.watching(probe::disturbances);
        this.steps = steps;
    }

    public Result run(Settings settings) {
        List<String> notes = new ArrayList<>();
        long t0 = System.nanoTime();
        steps.next("g(0) by saturation", -1);
        SizeParams zero = measureRoundTrips(0, "initial");
        Saturation gap0 = saturate(0, zero.rtt());
        long t1 = System.nanoTime();
        zero = withGap(zero, zero.rtt(), gap0);
        lastSentinel = zero.rtt();

        List<SizeParams> sizes = new ArrayList<>();
        sizes.add(zero);
        // in a random order: what a size reads must not depend on which sizes ran just before it
        for (long m : order(settings.sizes(), settings.orderSeed())) {
            if (m > 0) sizes.add(measureSize(m, gap0, zero.rtt(), "initial"));
        }
        sizes.sort(java.util.Comparator.comparingLong(SizeParams::size));
        int added = 0;
        // grow the range while the gap per byte has not settled at the top
        while (sizes.size() >= 3 && added < MAX_ADDED_SIZES) {
            long top = sizes.getLast().size();
            if (top * 2 > settings.adaptiveLimit()) break;
            SizeParams a = sizes.get(sizes.size() - 3), b = sizes.get(sizes.size() - 2), c = sizes.getLast();
            if (matches(extrapolate(a.size(), a.gap().value(), b.size(), b.gap().value(), c.size()), c.gap())) break;
            steps.more(settings.validate() ? 2 : 1);
            sizes.add(measureSize(top * 2, gap0, zero.rtt(), "range extended"));
            added++;
        }
        // halve the interval below the size that least follows from the two below it, the
        // largest misfit first: the budget goes to real protocol steps before noise
        int worst;
        while ((worst = worstMisfit(sizes)) > 0 && added < MAX_ADDED_SIZES) {
            SizeParams b = sizes.get(worst - 1), c = sizes.get(worst);
            steps.more(settings.validate() ? 2 : 1);
            sizes.add(worst, measureSize(b.size() + (c.size() - b.size()) / 2, gap0, zero.rtt(), "interval halved"));
            added++;
        }
        if (worst > 0) {
            notes.add("adaptive sizes capped at " + MAX_ADDED_SIZES + " additions; the interval below "
                    + sizes.get(worst).size() + " B (and maybe others) was not resolved further");
        }
        if (settings.orderSeed() != null) sizes = repeatPass(sizes, settings.orderSeed(), zero.rtt(), notes);
        long t2 = System.nanoTime();

        if (settings.validate()) {
            for (int i = 1; i < sizes.size(); i++) {
                SizeParams p = sizes.get(i);
                steps.next("g(m) by saturation at", p.size());
                sizes.set(i, new SizeParams(p.size(), p.sendOverhead(), p.recvOverhead(), p.rtt(), p.gap(),
                        saturate(p.size(), p.rtt()), p.origin(), p.rttRepeat(), p.stateDependent()));
            }
        }
        long t3 = System.nanoTime();

        boolean reads = probe.op() == Op.READ;
        Estimate latency = reads
                ? zero.rtt().median().minus(zero.sendOverhead().median()).minus(zero.recvOverhead().median()).times(0.5)
                : zero.rtt().median().minus(gap0.gap().times(2)).times(0.5);
        for (SizeParams p : sizes) {
            if (!p.sendOverhead().converged() || !p.recvOverhead().converged() || !p.rtt().converged()) {
                notes.add("size " + p.size() + " B: not within the confidence target at the repetition/time cap");
            }
        }
        notes.addAll(poorFits(sizes));
        notes.addAll(driftNotes);
        if (driftRetries > 0) {
            notes.add(driftRetries + " sizes measured again because the 0 B round trip had moved meanwhile (the host"
                    + " changed speed during the run)");
        }
        if (!gap0.saturated()) notes.add("g(0): saturation criteria not met at " + gap0.messages() + " messages");
        addIfPresent(notes, Sampler.disturbedNote("g(0) train", gap0.rttN()));
        for (SizeParams p : sizes) {
            addIfPresent(notes, Sampler.disturbedNote("size " + p.size() + " B", p.sendOverhead(), p.recvOverhead(), p.rtt(),
                    p.saturatedGap() == null ? null : p.saturatedGap().rttN()));
            // with native writes o_r is one look at memory, with reads one completion found: at the clock's floor by nature
            addIfPresent(notes, probe.op().oneSided()
                    ? Sampler.clampedNote("o_s at size " + p.size() + " B", Clock.facts().readCostNs(), p.sendOverhead())
                    : Sampler.clampedNote("o_s/o_r at size " + p.size() + " B", Clock.facts().readCostNs(), p.sendOverhead(),
                            p.recvOverhead()));
        }
        addIfPresent(notes, sampler.discardedNote());
        return new Result(gap0, latency, sizes, toLogGP(latency, sizes, reads), new double[] {(t1 - t0) / 1e6,
                (t2 - t1) / 1e6, settings.validate() ? (t3 - t2) / 1e6 : Double.NaN}, notes);
    }

    /** The sizes in the order {@code seed} gives (null: as they are). */
    static long[] order(long[] sizes, Long seed) {
        long[] order = sizes.clone();
        if (seed == null) return order;
        java.util.Random random = new java.util.Random(seed);
        for (int i = order.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }

    /**
     * Every size's round trip once more, in another random order, so that each size is measured
     * after other sizes than the first time. A size whose two passes, or whose batches, read two
     * states (UCX over tcp at 16 KiB: 22.5 or 20.3 µs by what ran before) gets a note; its g(m)
     * and the ranges around it hold one of the two.
     */
    private List<SizeParams> repeatPass(List<SizeParams> sizes, long seed, Sampled rtt0, List<String> notes) {
        long[] order = order(sizes.stream().mapToLong(SizeParams::size).filter(m -> m > 0).toArray(), seed + 1);
        java.util.Map<Long, Sampled> repeats = new java.util.HashMap<>();
        steps.more(1);
        steps.next("RTT(m) again, in another order", -1);
        for (long m : order) repeats.put(m, sampler.sampleOne(reps -> probe.roundTrip(m, 0, reps).rttNs()));
        // a host that changed speed meanwhile moves every size: that is DRIFT's business, not a state
        boolean steady = !drifted(sampler.sampleOne(reps -> probe.roundTrip(0, 0, reps).rttNs()), rtt0);
        if (!steady) notes.add("repeat pass: the 0 B round trip had moved by its end (the host changed speed); sizes"
                + " not judged for two steady states");
        // every size's shift between the passes counts in the run's scatter, unless its kept values are disturbed
        List<StateSplit.Passes> passes = new ArrayList<>();
        for (SizeParams p : sizes) {
            Sampled again = repeats.get(p.size());
            if (again == null || p.rtt().disturbed() || again.disturbed()) continue;
            passes.add(new StateSplit.Passes(p.size(), p.rtt().batchMedians(), again.batchMedians(),
                    p.rtt().disturbedBatches() == 0 && again.disturbedBatches() == 0));
        }
        StateSplit.Judgement judgement = StateSplit.judge(passes);
        java.util.Map<Long, StateSplit.Verdict> states = steady ? judgement.states() : java.util.Map.of();
        if (steady && !judgement.compared() && Double.isFinite(judgement.scatter())) {
            notes.add(String.format(java.util.Locale.ROOT, "repeat pass: the round trips moved by %+.1f %% (median over the"
                    + " sizes) between the passes (the host changed speed); the passes not compared for two steady"
                    + " states", 100 * Math.expm1(judgement.commonShift())));
        }
        List<SizeParams> out = new ArrayList<>();
        for (SizeParams p : sizes) {
            Sampled again = repeats.get(p.size());
            if (again == null) {
                out.add(p);
                continue;
            }
            String note = stateNote(p.size(), p.rtt(), again, states.get(p.size()));
            if (note != null) notes.add(note);
            out.add(new SizeParams(p.size(), p.sendOverhead(), p.recvOverhead(), p.rtt(), p.gap(), p.saturatedGap(),
                    p.origin(), again, note != null));
        }
        return out;
    }

    /** The note for a size whose round trip read two states ({@code verdict}), between the passes or across the batches; else null. */
    static String stateNote(long size, Sampled first, Sampled again, StateSplit.Verdict verdict) {
        if (verdict == null) return null;
        if (verdict.betweenPasses()) {
            return String.format(java.util.Locale.ROOT, "%ssize %d B: RTT read %.3f µs in the first pass and %.3f µs in"
                    + " the repeat (another order of sizes before it), beyond the run's own pass-to-pass scatter: two"
                    + " steady states, its g(m) and o_s hold the first", STATE_NOTE, size, first.value() / 1e3,
                    again.value() / 1e3);
        }
        StateSplit.States split = verdict.states();
        return String.format(java.util.Locale.ROOT, "%ssize %d B: RTT bimodal across its batches, %d read %.3f µs and"
                + " %d read %.3f µs: two steady states, its g(m) and o_s hold their median", STATE_NOTE, size,
                split.lowCount(), split.low() / 1e3, split.highCount(), split.high() / 1e3);
    }

    static void addIfPresent(List<String> notes, String note) {
        if (note != null) notes.add(note);
    }

    /** Doubles the train until the gap per message settles and the reply's round trip is negligible. */
    private Saturation saturate(long size, Sampled rtt1) {
        long start = System.nanoTime();
        double previous = Double.NaN;
        int n = FIRST_TRAIN;
        while (true) {
            int messages = n;
            Sampled rttN = sampler.sampleOne(reps -> probe.train(messages, size, 0, 0, reps));
            Estimate gap = rttN.median().minus(rtt1.median()).times(1.0 / (n - 1));
            // settled: changed by less than eps, or by less than the measurement can tell
            boolean settled = Math.abs(gap.value() - previous) < Math.max(SATURATION_EPS * gap.value(), gap.ci95());
            boolean long_enough = rtt1.value() < SATURATION_EPS * rttN.value();
            if ((settled && long_enough) || n >= MAX_TRAIN) {
                return new Saturation(gap, n, settled && long_enough, rttN, (System.nanoTime() - start) / 1e6);
            }
            previous = gap.value();
            n = Math.min(2 * n, MAX_TRAIN); // 10, 20, ..., 2560, then 4096 as the last train
        }
    }

    private SizeParams measureRoundTrips(long m, String origin) {
        Sampled[] rt = sampler.sample(reps -> {
            Probe.RoundTrips r = probe.roundTrip(m, 0, reps);
            return new double[][] {r.sendNs(), r.rttNs()};
        });
        double delay = 1.5 * rt[1].value() + 200;
        Sampled recv = sampler.sampleOne(reps -> probe.recvAfterDelay(m, delay, reps));
        return new SizeParams(m, rt[0], recv, rt[1], null, null, origin);
    }

    private SizeParams measureSize(long m, Saturation gap0, Sampled rtt0, String origin) {
        steps.next(switch (origin) {
            case "range extended" -> "o_s, o_r, g(m), range extended to";
            case "interval halved" -> "o_s, o_r, g(m), interval halved at";
            default -> "o_s, o_r, g(m) at";
        }, m);
        for (int attempt = 0; ; attempt++) {
            Sampled before = lastSentinel;
            SizeParams p = withGap(measureRoundTrips(m, origin), rtt0, gap0);
            lastSentinel = sampler.sampleOne(reps -> probe.roundTrip(0, 0, reps).rttNs());
            Sampled off = drifted(before, rtt0) ? before : drifted(lastSentinel, rtt0) ? lastSentinel : null;
            if (off == null) return p;
            if (attempt == DRIFT_RETRIES_PER_SIZE || driftRetries == DRIFT_RETRIES_PER_RUN) {
                driftNotes.add(String.format(java.util.Locale.ROOT, "%ssize %d B: the 0 B round trip measured %s it"
                        + " took %.3f µs, against %.3f µs at the start of the run (the host changed speed: other work, CPU"
                        + " frequency, or the hypervisor's placement of the CPUs); its g(m) and the ranges around it may be"
                        + " artefacts", DRIFT_NOTE, m, off == before ? "just before" : "just after", off.value() / 1e3,
                        rtt0.value() / 1e3));
                return p;
            }
            driftRetries++;
        }
    }

    /** True when {@code sentinel} is clearly not the run's 0 B round trip any more. */
    static boolean drifted(Sampled sentinel, Sampled rtt0) {
        return Drift.moved(sentinel.value(), sentinel.median().ci95(), rtt0.value(), rtt0.median().ci95());
    }

    /** g(m) = RTT(m) - RTT(0) + g(0). */
    private static SizeParams withGap(SizeParams p, Sampled rtt0, Saturation gap0) {
        Estimate gap = p.size() == 0 ? gap0.gap() : p.rtt().median().minus(rtt0.median()).plus(gap0.gap());
        return new SizeParams(p.size(), p.sendOverhead(), p.recvOverhead(), p.rtt(), gap, p.saturatedGap(), p.origin());
    }

    /**
     * The index k of the size whose interval below (sizes k-1 .. k) most clearly holds a step,
     * among intervals still wider than max(32 B, eps m); 0 if none does. A step between b and
     * c shows twice: c misses the line from the two sizes below b, and b misses the line
     * back from the two sizes from c up. The size after a step misses only forwards (its two
     * sizes below straddle the step), so the smaller of the two misfits points at the step.
     */
    static int worstMisfit(List<SizeParams> sizes) {
        int worst = 0;
        double worstScore = HALVING_SCORE;
        for (int k = 1; k < sizes.size(); k++) {
            SizeParams b = sizes.get(k - 1), c = sizes.get(k);
            if (c.size() - b.size() <= Math.max(32, SATURATION_EPS * c.size())) continue;
            double score = stepScore(sizes, k);
            if (score > worstScore) {
                worstScore = score;
                worst = k;
            }
        }
        return worst;
    }

    /** How clearly the interval below size k holds a step: the smaller of its two misfits (in tolerances). */
    private static double stepScore(List<SizeParams> sizes, int k) {
        SizeParams b = sizes.get(k - 1), c = sizes.get(k);
        double forward = k >= 2 ? misfit(sizes.get(k - 2), b, c) : Double.NaN;
        double backward = k + 1 < sizes.size() ? misfit(sizes.get(k + 1), c, b) : Double.NaN;
        return Double.isNaN(forward) ? backward : Double.isNaN(backward) ? forward : Math.min(forward, backward);
    }

    /** How far {@code z} is from the lines through {@code x} and {@code y} (o_s, o_r, g), in tolerances. */
    private static double misfit(SizeParams x, SizeParams y, SizeParams z) {
        return Math.max(misfit(x.size(), x.sendOverhead().value(), y.size(), y.sendOverhead().value(), z.size(),
                z.sendOverhead().median()), Math.max(misfit(x.size(), x.recvOverhead().value(), y.size(),
                y.recvOverhead().value(), z.size(), z.recvOverhead().median()),
                misfit(x.size(), x.gap().value(), y.size(), y.gap().value(), z.size(), z.gap())));
    }

    /** How far a measured value is from its extrapolation, in units of the tolerance ({@link #matches}: <= 1). */
    private static double misfit(long x0, double y0, long x1, double y1, long x, Estimate measured) {
        double ci = Double.isNaN(measured.ci95()) ? 0 : measured.ci95();
        double tolerance = Math.max(MATCH_RELATIVE * Math.abs(measured.value()), MATCH_FLOOR_NS + 2 * ci);
        return Math.abs(measured.value() - extrapolate(x0, y0, x1, y1, x)) / tolerance;
    }

    static double extrapolate(long x0, double y0, long x1, double y1, long x) {
        return y1 + (y1 - y0) * (x - x1) / (double) (x1 - x0);
    }

    private static boolean matches(double predicted, Estimate measured) {
        double ci = Double.isNaN(measured.ci95()) ? 0 : measured.ci95();
        return Math.abs(measured.value() - predicted) <= Math.max(MATCH_RELATIVE * Math.abs(measured.value()),
                MATCH_FLOOR_NS + 2 * ci);
    }

    /**
     * Table 1, one parameter set per size range of g(m) (sizes >= 1; g(0) is the saturated gap);
     * {@code reads}: pLatency is LogGP's L already (see the class comment).
     */
    static List<ParameterSet> toLogGP(Estimate pLatency, List<SizeParams> sizes, boolean reads) {
        List<SizeParams> positive = sizes.stream().filter(p -> p.size() > 0).toList();
        List<ParameterSet> sets = new ArrayList<>();
        if (positive.size() < 2) return sets;
        long[] x = positive.stream().mapToLong(SizeParams::size).toArray();
        double[] g = positive.stream().mapToDouble(p -> p.gap().value()).toArray();
        SizeParams first = positive.getFirst();
        int[] cuts = cuts(positive);
        // g(1) from the first range's line rather than the one size: robust to a stalled sample
        Segments.Line firstLine = Segments.fit(x, g, 0, cuts.length > 0 ? cuts[0] : x.length);
        Estimate g1 = new Estimate(firstLine.at(1), firstLine.interceptCi95())
                .withoutNaN();
        Estimate latency = reads ? pLatency
                : pLatency.plus(g1).minus(first.sendOverhead().median()).minus(first.recvOverhead().median());
        int from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int to = i < cuts.length ? cuts[i] : x.length;
            SizeParams start = positive.get(from);
            // g + (m-1) G: g is g(1) (Table 1); above a switch, the range's line at 1 byte, with the
            // uncertainty of that extrapolation (a narrow range far from 1 byte: not resolved)
            Segments.Line line = Segments.fit(x, g, from, to);
            Estimate gap = i == 0 ? g1 : new Estimate(line.at(1), line.interceptCi95());
            sets.add(new ParameterSet(x[from], x[to - 1], latency, start.sendOverhead().median(),
                    start.recvOverhead().median(), gap, slope(x, g, from, to)));
            from = to;
        }
        return sets;
    }

    /**
     * Size ranges where g(m), o_s(m) or o_r(m) changes its line: a step in any of them is a
     * protocol switch. The steps the interval halving resolved are the cuts where there are as
     * many as the line fits find, or the fits find none: they are measured to within a size,
     * while on shared memory g(m) of small sizes scatters by a factor of two and the fits place
     * a step a few sizes off (ob1:vader's o_s step after 256 B read as a range end at 512 B).
     */
    private static int[] cuts(List<SizeParams> positive) {
        long[] x = positive.stream().mapToLong(SizeParams::size).toArray();
        int[] fitted = Segments.cuts(x, positive.stream().mapToDouble(p -> p.gap().value()).toArray(),
                positive.stream().mapToDouble(p -> p.sendOverhead().value()).toArray(),
                positive.stream().mapToDouble(p -> p.recvOverhead().value()).toArray());
        int[] resolved = resolvedSteps(positive);
        return resolved.length >= fitted.length ? resolved : fitted;
    }

    /**
     * The (at most two) clearest steps whose interval the halving narrowed to its limit, as
     * cuts that leave at least 3 sizes in every range.
     */
    static int[] resolvedSteps(List<SizeParams> sizes) {
        List<int[]> candidates = new ArrayList<>(); // {index, score * 1000}
        for (int k = 1; k < sizes.size(); k++) {
            SizeParams b = sizes.get(k - 1), c = sizes.get(k);
            if (c.size() - b.size() > Math.max(32, SATURATION_EPS * c.size())) continue;
            double score = stepScore(sizes, k);
            if (score > 1) candidates.add(new int[] {k, (int) Math.min(score * 1000, Integer.MAX_VALUE)});
        }
        candidates.sort((p, q) -> Integer.compare(q[1], p[1]));
        List<Integer> cuts = new ArrayList<>();
        for (int[] c : candidates) {
            if (cuts.size() == 2) break;
            List<Integer> trial = new ArrayList<>(cuts);
            trial.add(c[0]);
            trial.sort(null);
            int from = 0;
            boolean enough = true;
            for (int i = 0; i <= trial.size(); i++) {
                int to = i < trial.size() ? trial.get(i) : sizes.size();
                enough &= to - from >= 3;
                from = to;
            }
            if (enough) cuts = trial;
        }
        return cuts.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Notes for the ranges whose line through g(m) misses the measurements by more than {@link Segments#POOR_FIT}. */
    static List<String> poorFits(List<SizeParams> sizes) {
        List<SizeParams> positive = sizes.stream().filter(p -> p.size() > 0).toList();
        List<String> notes = new ArrayList<>();
        if (positive.size() < 3) return notes;
        long[] x = positive.stream().mapToLong(SizeParams::size).toArray();
        double[] g = positive.stream().mapToDouble(p -> p.gap().value()).toArray();
        int[] cuts = cuts(positive);
        int from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int to = i < cuts.length ? cuts[i] : x.length;
            String note = Segments.poorFitNote("g(m)", x, g, from, to);
            if (note != null) notes.add(note);
            from = to;
        }
        return notes;
    }

    private static Estimate slope(long[] x, double[] y, int from, int to) {
        if (to - from < 2) return ParameterSet.NOT_MEASURED;
        Segments.Line line = Segments.fit(x, y, from, to);
        return new Estimate(line.slope(), line.slopeCi95());
    }
}
