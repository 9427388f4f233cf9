package org.fabprobe.method;

import java.util.ArrayList;
import java.util.List;
import org.fabprobe.Steps;
import org.fabprobe.method.Sampler.Sampled;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.ParameterSet;
import org.fabprobe.pattern.Probe;

/**
 * Culler, Liu, Martin and Yoshikawa's LogP signature: the average cost of issuing a request
 * in a burst of M requests, Delta of computation between them, every request answered by a
 * reply the requester handles as it goes. One curve per Delta:
 *
 * <ul>
 * <li>send-only regime (small M): the cost is o_s, read at the second burst length (2) at
 *     Delta = 0;
 * <li>steady state (large M, Delta = 0): the cost is g, read as the least-squares slope of
 *     the total issue time over the three largest M (which cancels the transient);
 * <li>with Delta above the idle time the sender is the bottleneck: g' = o_s + o_r + Delta, so
 *     o_r = g' - Delta - o_s, averaged over Delta = g and 2 g;
 * <li>L = RTT/2 - o_s - o_r from a 0-byte round trip.
 * </ul>
 *
 * Bulk sizes give o_s(n) and g(n) for n-byte requests the same way (the paper's section 4).
 */
public final class SignatureMethod {
    /**
     * @param bursts     burst lengths M, increasing (the last two give the steady state)
     * @param bulkSizes  request sizes for o_s(n), g(n) (may be empty)
     */
    public record Settings(int[] bursts, long[] bulkSizes) {}

    /** One curve of the signature: cost per request against M at one Delta. */
    public record Curve(double delayNs, int[] bursts, Sampled[] cost, Estimate steadyState) {}

    public record Bulk(long size, Sampled sendOverhead, Estimate gap) {}

    public record Result(Sampled rtt, List<Curve> curves, ParameterSet parameters, List<Bulk> bulk, double wallMs,
                         List<String> notes) {}

    private final Probe probe;
    private final Sampler sampler;
    private final Steps steps;

    public SignatureMethod(Probe probe, Sampler sampler) {
        this(probe, sampler, Steps.NONE);
    }

    /** @param steps told before each curve (between timed sections; the probes do the timing) */
    public SignatureMethod(Probe probe, Sampler sampler, Steps steps) {
        this.probe = probe;
        this.sampler = sampler.watching(probe::disturbances);
        this.steps = steps;
    }

    public Result run(Settings settings) {
        int[] bursts = settings.bursts();
        if (bursts.length < 2 || bursts[0] != 1) throw new IllegalArgumentException("burst lengths must start at 1 and have at least two values");
        long start = System.nanoTime();
        List<String> notes = new ArrayList<>();
        Sampled rtt = sampler.sample(reps -> new double[][] {probe.roundTrip(0, 0, reps).rttNs()})[0];
        steps.next("curve Delta = 0", -1);
        Curve base = curve(0, 0, bursts);
        // send-only regime: the cost per request at M = 2 (the fixed cost of starting and
        // stopping the timer is shared by two requests; differences of M would double the noise)
        Estimate sendOverhead = base.cost()[1].median();
        Estimate gap = base.steadyState();
        List<Curve> curves = new ArrayList<>(List.of(base));
        String[] labels = {"curve Delta = g/2", "curve Delta = g", "curve Delta = 2g"};
        double[] factors = {0.5, 1, 2};
        for (int i = 0; i < factors.length; i++) {
            double factor = factors[i];
            steps.next(labels[i], -1);
            curves.add(curve(0, factor * gap.value(), bursts));
        }
        Curve widest = curves.getLast();
        // Delta = g and 2g are both above the idle time: average their readings of o_r
        Estimate recvOverhead = Estimate.exact(0);
        for (Curve c : curves.subList(curves.size() - 2, curves.size())) {
            recvOverhead = recvOverhead.plus(c.steadyState().minus(Estimate.exact(probe.delayCostNs(c.delayNs())))
                    .minus(sendOverhead).times(0.5));
        }
        if (widest.steadyState().value() < 1.05 * (gap.value() + widest.delayNs() / 2)) {
            notes.add("Delta = 2g did not make the sender the bottleneck: o_r is a lower bound");
        }
        Estimate latency = rtt.median().times(0.5).minus(sendOverhead).minus(recvOverhead);
        List<Bulk> bulk = new ArrayList<>();
        int[] lastTwo = {bursts[bursts.length - 2], bursts[bursts.length - 1]};
        for (long size : settings.bulkSizes()) {
            steps.next("bulk o_s(n), g(n) at n =", size);
            Sampled one = sampler.sampleOne(reps -> probe.burst(1, size, 0, reps));
            bulk.add(new Bulk(size, one, curve(size, 0, lastTwo).steadyState()));
        }
        for (Curve c : curves) {
            for (Sampled s : c.cost()) {
                if (!s.converged()) {
                    notes.add("some signature points are not within the confidence target at the repetition/time cap");
                    break;
                }
            }
        }
        for (Curve c : curves) {
            PLogPMethod.addIfPresent(notes, Sampler.disturbedNote(String.format(java.util.Locale.ROOT,
                    "signature at Delta = %.0f ns", c.delayNs()), c.cost()));
        }
        PLogPMethod.addIfPresent(notes, Sampler.disturbedNote("RTT(0)", rtt));
        PLogPMethod.addIfPresent(notes, sampler.discardedNote());
        ParameterSet parameters = new ParameterSet(0, 0, latency, sendOverhead, recvOverhead, gap, ParameterSet.NOT_MEASURED);
        return new Result(rtt, curves, parameters, bulk, (System.nanoTime() - start) / 1e6, notes.stream().distinct().toList());
    }

    private Curve curve(long size, double delayNs, int[] bursts) {
        Sampled[] cost = new Sampled[bursts.length];
        for (int i = 0; i < bursts.length; i++) {
            int m = bursts[i];
            cost[i] = sampler.sampleOne(reps -> probe.burst(m, size, delayNs, reps));
        }
        // total issue time M * cost is linear in M in the steady state: its least-squares slope
        // over the largest (up to three) M is the steady-state cost, the transient drops out
        int from = Math.max(0, bursts.length - 3);
        double sx = 0, sy = 0, sxx = 0, sxy = 0, var = 0;
        int k = bursts.length - from;
        for (int i = from; i < bursts.length; i++) {
            double x = bursts[i], y = cost[i].value() * x;
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        double det = k * sxx - sx * sx;
        for (int i = from; i < bursts.length; i++) {
            double weight = (k * bursts[i] - sx) / det; // d slope / d y_i
            double ci = Double.isNaN(cost[i].median().ci95()) ? 0 : cost[i].median().ci95() * bursts[i];
            var += weight * weight * ci * ci;
        }
        Estimate steady = new Estimate((k * sxy - sx * sy) / det, Math.sqrt(var));
        return new Curve(delayNs, bursts.clone(), cost, steady);
    }
}
