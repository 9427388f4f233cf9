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
        List<ParameterSet> sets = PLogPMethod.toLogGP(new Estimate(100, 5), list, false);
        assertTrue(sets.stream().anyMatch(p -> p.toBytes() == 256 || p.toBytes() >= 256 && p.toBytes() < 288),
                "a range ends at the o_s step: " + sets);
    }

    /**
     * ob1:vader as measured under load (load average 10, blocking calls): g(m) of small sizes
     * scatters 54..255 ns, so the line fits find no split; the steps the halving resolved
     * (o_s 491 -> 1092 ns at 256 -> 288 B, 1773 -> 3185 ns at 4032 -> 4064 B) are the cuts.
     */
    @Test
    void resolvedStepsCutTheRangesWhenTheFitsCannotTell() {
        long[] x = {1, 2, 4, 8, 16, 32, 64, 128, 256, 288, 320, 384, 512, 640, 768, 1024, 1152, 1280, 1536, 2048, 3072,
                3328, 3584, 3712, 3840, 3904, 3936, 3968, 4000, 4032, 4064, 4096, 6144, 7168, 8192, 12288, 16384, 24576,
                32768, 49152, 65536};
        double[] os = {241, 231, 231, 221, 251, 241, 401, 441, 491, 1092, 1122, 1092, 1082, 1012, 982, 1042, 1262, 1433,
                1503, 1673, 2004, 1863, 1753, 2074, 2174, 2104, 2144, 3005, 1953, 1773, 3185, 4047, 4277, 4117, 3526, 4487,
                4898, 4527, 5348, 6260, 7432};
        double[] or = {401, 341, 431, 501, 441, 441, 431, 461, 501, 571, 551, 541, 641, 631, 652, 812, 812, 792, 822, 932,
                982, 972, 1032, 1062, 1072, 1042, 1072, 812, 1102, 812, 3446, 3546, 3386, 3446, 3736, 3826, 4267, 4047,
                5869, 6761, 7682};
        double[] g = {64, 54, 54, 64, 124, 94, 255, 315, 345, 595, 655, 605, 665, 415, 395, 655, 825, 976, 1006, 1306,
                1536, 1396, 1286, 1627, 1717, 1677, 1717, 2528, 1326, 1126, 2518, 3459, 3610, 3489, 2939, 3820, 4240,
                3770, 4751, 5552, 6774};
        List<SizeParams> list = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            list.add(new SizeParams(x[i], exact(os[i]), exact(or[i]), exact(400 + g[i]), new Estimate(g[i], 20), null, "t"));
        }
        // 4032 B itself is a disturbed sample (o_r 812 ns like 3968 B): the step is found within one size
        int[] cuts = PLogPMethod.resolvedSteps(list);
        assertEquals(2, cuts.length, java.util.Arrays.toString(cuts));
        assertEquals(9, cuts[0], "a range starts at 288 B");
        assertTrue(cuts[1] == 29 || cuts[1] == 30, "a range starts at 4032 or 4064 B: " + cuts[1]);
        List<ParameterSet> sets = PLogPMethod.toLogGP(new Estimate(100, 5), list, false);
        assertEquals(3, sets.size(), sets::toString);
        assertEquals(256L, sets.getFirst().toBytes(), sets::toString);
    }

    @Test
    void constantOverheadsBesideAStraightGapAreOneRange() {
        // the emulator's shape: o_s and o_r constant, g(m) on its line but read by a clock that
        // advances in 10 ns steps; the first sizes' g(m) are equal, and cutting them off into a
        // range of their own halved the fit's error of 0.06 % (a run read 1..8 B and 16 B..32 KiB)
        long[] sizes = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
        java.util.Random noise = new java.util.Random(7);
        for (int trial = 0; trial < 50; trial++) {
            List<SizeParams> list = new ArrayList<>();
            for (long m : sizes) {
                double g = 10 * Math.round((5100 + 0.73 * m + 5 * noise.nextGaussian()) / 10);
                list.add(new SizeParams(m, exact(1523), exact(2024), exact(19000 + g), new Estimate(g, 10), null, "test"));
            }
            assertEquals(1, PLogPMethod.toLogGP(new Estimate(6000, 10), list, false).size(), "trial " + trial);
        }
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

    private static Sampled median(double v, double ci95) {
        return new Sampled(new Estimate(v, ci95), Statistics.summarize(new double[] {v}, 1), true, 0, 0, false);
    }

    /** The drift sentinel: the 0 B round trip moved by more than a quarter and its uncertainty, not noise. */
    @Test
    void driftIsAMoveBeyondAQuarterAndTheUncertainty() {
        Sampled run = median(600, 10);
        assertFalse(PLogPMethod.drifted(median(640, 10), run), "7 %: noise");
        assertTrue(PLogPMethod.drifted(median(1600, 10), run), "the VM's slow placement of the CPUs");
        assertTrue(PLogPMethod.drifted(median(420, 10), run), "faster counts too");
        assertFalse(PLogPMethod.drifted(median(800, 150), run), "33 % but within twice the combined interval");
        assertFalse(PLogPMethod.drifted(median(125, 1), median(100, 1)), "25 ns: below the floor");
    }

    /** An o_s of 0 is the read-cost clamp, never a measurement: a note and a CLAMPED flag say so. */
    @Test
    void anOverheadClampedToZeroIsFlaggedNotMeasured() {
        String note = Sampler.clampedNote("o_s/o_r at size 8 B", 10_000, exact(0), exact(150));
        assertNotNull(note, "o_s = 0 with a 10 us read cost: the clamp");
        assertTrue(note.startsWith(Sampler.CLAMPED_NOTE) && note.contains("10000.0 ns"), note);
        assertNull(Sampler.clampedNote("o_s/o_r at size 8 B", 20, exact(0.5), exact(150)), "0.5 ns is measured, not clamped");
        assertTrue(MethodFlags.of(List.of(), List.of(note), 800).stream().anyMatch(f -> f.startsWith("CLAMPED: 1 sizes")));
        assertTrue(MethodFlags.of(List.of(), List.of(), 800).stream().noneMatch(f -> f.startsWith("CLAMPED")));
    }
}
