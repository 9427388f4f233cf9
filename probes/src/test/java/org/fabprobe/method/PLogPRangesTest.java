package org.fabprobe.method;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongToDoubleFunction;
import org.fabprobe.method.PLogPMethod.SizeParams;
import org.fabprobe.method.Sampler.Sampled;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.ParameterSet;
import org.fabprobe.model.Segments;
import org.fabprobe.model.Statistics;
import org.junit.jupiter.api.Test;

/**
 * Range detection on the shapes real transports show: the size picked for halving is the
 * one with the largest step, a step in o_s alone starts a new range, and a range the line
 * does not follow is reported.
 */
class PLogPRangesTest {

    private static Sampled exact(double v) {
        return new Sampled(new Estimate(v, 1), Statistics.summarize(new double[] {v}, 1), true, 0, 0, false);
    }

    private static SizeParams at(long m, LongToDoubleFunction os, LongToDoubleFunction g) {
        return new SizeParams(m, exact(os.applyAsDouble(m)), exact(150), exact(400 + g.applyAsDouble(m)),
                new Estimate(g.applyAsDouble(m), 1), null, "test");
    }

    private static List<SizeParams> sweep(long[] sizes, LongToDoubleFunction os, LongToDoubleFunction g) {
        List<SizeParams> list = new ArrayList<>();
        for (long m : sizes) list.add(at(m, os, g));
        return list;
    }

    /** ob1:vader's shape: o_s jumps from ~160 to ~1000 ns between 256 and 288 B; g follows slowly. */
    private static final LongToDoubleFunction VADER_OS = m -> m <= 256 ? 160 + 0.05 * m : 1000 + 0.3 * m;
    private static final LongToDoubleFunction VADER_G = m -> 60 + 0.3 * m + (m > 4096 ? 2000 : 0);

    @Test
    void theLargestStepIsHalvedFirst() {
        long[] sizes = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
        List<SizeParams> list = sweep(sizes, VADER_OS, VADER_G);
        int worst = PLogPMethod.worstMisfit(list);
        long below = list.get(worst - 1).size(), at = list.get(worst).size();
        // the o_s step (256 -> 512) or the g step (4096 -> 8192), not a quiet interval
        assertTrue(below == 256 && at == 512 || below == 4096 && at == 8192, below + " .. " + at);
    }

    @Test
    void halvingConvergesOnTheStepAndSplitsTheRangeThere() {
        List<SizeParams> list = sweep(new long[] {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384},
                VADER_OS, VADER_G);
        int worst, added = 0;
        while ((worst = PLogPMethod.worstMisfit(list)) > 0 && added < 40) {
            long mid = list.get(worst - 1).size() + (list.get(worst).size() - list.get(worst - 1).size()) / 2;
            list.add(worst, at(mid, VADER_OS, VADER_G));
            added++;
        }
        assertTrue(added < 40, "halving must stop: " + added);
        List<Long> measured = list.stream().map(SizeParams::size).toList();
        assertTrue(measured.contains(288L) || measured.contains(272L), "the o_s step is bracketed within 32 B: " + measured);
        List<ParameterSet> sets = PLogPMethod.toLogGP(new Estimate(100, 5), list);
        assertTrue(sets.stream().anyMatch(p -> p.toBytes() == 256 || p.toBytes() >= 256 && p.toBytes() < 288),
                "a range ends at the o_s step: " + sets);
    }

    @Test
    void aScatteredRangeIsReportedAsAPoorFit() {
        long[] sizes = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
        // g scattered by +-30 % from size to size: no line and no split into ranges follows it
        List<SizeParams> list = sweep(sizes, m -> 100, m -> (50 + 0.5 * m) * (Long.numberOfTrailingZeros(m) % 2 == 0 ? 1.3 : 0.7));
        List<String> notes = PLogPMethod.poorFits(list);
        assertFalse(notes.isEmpty(), "a poor fit must be reported");
        assertTrue(notes.getFirst().startsWith(Segments.POOR_FIT_NOTE), notes::toString);
        List<SizeParams> straight = sweep(sizes, m -> 100, m -> 50 + 0.5 * m);
        assertEquals(List.of(), PLogPMethod.poorFits(straight));
    }
}
