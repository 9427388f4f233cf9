package org.fabprobe.api;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.fabprobe.method.LogGPMethod;
import org.fabprobe.method.MethodFlags;
import org.fabprobe.method.PLogPMethod;
import org.fabprobe.method.Sampler.Sampled;
import org.fabprobe.method.SignatureMethod;
import org.fabprobe.model.ParameterSet;
import org.fabprobe.model.Summary;
import org.fabprobe.result.LogGPDocument;
import org.fabprobe.result.MethodDocument;
import org.fabprobe.result.PLogPDocument;
import org.fabprobe.result.ParameterRange;
import org.fabprobe.result.SampledValue;
import org.fabprobe.result.SignatureDocument;

/**
 * The LogP methods' results as their typed documents (ns, every input and fact; schemas
 * fabprobe.loggp, fabprobe.plogp, fabprobe.signature). Every parameter carries its 95 %
 * uncertainty; physically inconsistent parameter sets are listed under "flags".
 */
public final class MethodDocuments {
    private MethodDocuments() {}

    public static LogGPDocument logGP(MethodAnalysis.Context<LogGPDocument.Settings> c, LogGPMethod.Result r) {
        List<LogGPDocument.Size> sizes = new ArrayList<>();
        for (LogGPMethod.SizePrtt p : r.sizes()) {
            sizes.add(new LogGPDocument.Size(p.size(), sampled(p.prtt1()), sampled(p.prttN()),
                    sampled(p.prttDelayed()), p.delayNs(), p.delaySpunNs(), p.gapAll(),
                    p.overhead()));
        }
        return new LogGPDocument(c.run().header(LogGPDocument.SCHEMA, c.wallSeconds()), MethodDocument.Timing.of(r.wallMs(), c.warmupMs()),
                ranges(r.ranges()), withSharedCpu(c.run(), MethodFlags.of(r.ranges(), r.notes(), rangeRtt(r))), r.notes(),
                r.messages(), sizes);
    }

    public static PLogPDocument plogp(MethodAnalysis.Context<PLogPDocument.Settings> c, PLogPMethod.Result r) {
        List<PLogPDocument.Size> sizes = new ArrayList<>();
        for (PLogPMethod.SizeParams p : r.sizes()) {
            sizes.add(new PLogPDocument.Size(p.size(), p.origin(), sampled(p.sendOverhead()),
                    sampled(p.recvOverhead()), sampled(p.rtt()), p.gap(),
                    p.saturatedGap() == null ? null : saturation(p.saturatedGap()),
                    p.rttRepeat() == null ? null : sampled(p.rttRepeat()), p.rttRepeat() == null ? null : p.stateDependent()));
        }
        double[] ms = r.phasesMs();
        var timing = new MethodDocument.Timing(ms[0], ms[1], ms[2], ms[0] + ms[1] + (Double.isNaN(ms[2]) ? 0 : ms[2]),
                c.warmupMs());
        return new PLogPDocument(c.run().header(PLogPDocument.SCHEMA, c.wallSeconds()), timing, ranges(r.loggp()),
                withSharedCpu(c.run(), MethodFlags.of(r.loggp(), r.notes(), r.sizes().getFirst().rtt().value())), r.notes(),
                saturation(r.gap0()), r.latency(), sizes);
    }

    public static SignatureDocument signature(MethodAnalysis.Context<SignatureDocument.Settings> c, SignatureMethod.Result r) {
        List<SignatureDocument.Curve> curves = new ArrayList<>();
        for (SignatureMethod.Curve cv : r.curves()) {
            List<SignatureDocument.Point> points = new ArrayList<>();
            for (int i = 0; i < cv.bursts().length; i++) {
                points.add(new SignatureDocument.Point(cv.bursts()[i], sampled(cv.cost()[i])));
            }
            curves.add(new SignatureDocument.Curve(cv.delayNs(), cv.steadyState(), points));
        }
        List<SignatureDocument.Bulk> bulk = new ArrayList<>();
        for (SignatureMethod.Bulk k : r.bulk()) {
            bulk.add(new SignatureDocument.Bulk(k.size(), sampled(k.sendOverhead()), k.gap()));
        }
        List<ParameterSet> sets = List.of(r.parameters());
        return new SignatureDocument(c.run().header(SignatureDocument.SCHEMA, c.wallSeconds()), MethodDocument.Timing.of(r.wallMs(), c.warmupMs()),
                ranges(sets), withSharedCpu(c.run(), MethodFlags.of(sets, r.notes(), r.rtt().value())), r.notes(),
                sampled(r.rtt()), curves, bulk);
    }

    /** A method's flags, after the one that says measure and mirror shared a CPU. */
    public static List<String> withSharedCpu(RunFacts<?> run, List<String> flags) {
        String shared = run.sharedCpuFlag();
        if (shared == null) return flags;
        List<String> all = new ArrayList<>(List.of(shared));
        all.addAll(flags);
        return all;
    }

    /** A loggp range's own round trip: PRTT(1,0,s) at its smallest size. */
    public static ToDoubleFunction<ParameterSet> rangeRtt(LogGPMethod.Result r) {
        return range -> r.sizes().stream().filter(p -> p.size() == range.fromBytes()).findFirst()
                .map(p -> p.prtt1().value()).orElse(Double.NaN);
    }

    private static List<ParameterRange> ranges(List<ParameterSet> sets) {
        return sets.stream().map(ParameterRange::of).toList();
    }

    private static PLogPDocument.Saturation saturation(PLogPMethod.Saturation s) {
        return new PLogPDocument.Saturation(s.gap(), s.messages(), s.saturated(), sampled(s.rttN()),
                s.wallMs());
    }

    /** One adaptively sampled quantity as its document says it. */
    static SampledValue sampled(Sampled s) {
        Summary m = s.summary();
        return new SampledValue(s.value(), s.median().ci95(), m.min(), m.p99(), m.mean(), m.count(), m.outliers(),
                s.converged(), s.wallMs(), s.disturbedBatches(), s.disturbed());
    }
}
