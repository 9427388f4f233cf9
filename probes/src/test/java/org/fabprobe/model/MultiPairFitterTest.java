package org.fabprobe.model;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Random;
import java.util.function.LongUnaryOperator;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Hager and Wellein's multi-pair model: the equations as printed, and the fit recovering
 * known C, B_r, T_1 from synthetic T_b(x) with 1 % multiplicative noise (fixed seeds).
 */
class MultiPairFitterTest {
    /** 1 KiB .. 16 MiB in powers of two, as IMB runs them. */
    private static final long[] SIZES = LongStream.rangeClosed(10, 24).map(e -> 1L << e).toArray();

    @Test
    void equationsAsPrinted() {
        MultiPairModel m = new MultiPairModel(1000, 2, 100); // C = 1000 B, B_r = 2 B/ns, T_1 = 100 ns
        assertEquals(250, MultiPairModel.transferTimeNs(500, 2), 1e-12);
        assertEquals(1, MultiPairModel.chunks(999, 1000));
        assertEquals(4, MultiPairModel.chunks(4000, 1000), 1e-12);
        assertEquals(1000, MultiPairModel.imbRepetitions(8, MultiPairModel.IMB_MSGS_PER_SAMPLE, MultiPairModel.IMB_OVERALL_VOL));
        assertEquals(10, MultiPairModel.imbRepetitions(4L << 20, 1000, 40L << 20));
        assertEquals(1, MultiPairModel.imbRepetitions(64L << 20, 1000, 40L << 20));
        // eq. (4) term by term, against eq. (5) in the record: x = 4000 (beta = 4), n = 3
        double tp = 2000, t1 = 100;
        double eq4 = 2 * 3 * (2 * tp + t1) - (2 * 3 - 1) * (tp / 4 - t1);
        assertEquals(eq4, m.loopTimeNs(4000, 3), 1e-9);
        // below C: beta = 1, T_b = T_p (2n + 1) + T_1 (4n - 1)
        assertEquals(250 * 7 + 100 * 11, m.loopTimeNs(500, 3), 1e-9);
        assertEquals(4.0 * 4000 * 3 / eq4, m.aggregatedBandwidth(4000, 3), 1e-12);
        // continuous at x = C
        assertEquals(m.loopTimeNs(1000, 5), m.loopTimeNs(Math.nextDown(1000.0), 5), 1e-6);
    }

    @Test
    void theShapeThePaperExplains() {
        // bidirectional overlap below C: b approaches 2 B_r; far above C it falls back to B_r
        MultiPairModel m = new MultiPairModel(256 << 10, 1.0, 10);
        assertTrue(m.aggregatedBandwidth(128 << 10, 1000) > 1.9);
        assertTrue(m.aggregatedBandwidth(1L << 30, 1000) < 1.01);
    }

    @ParameterizedTest(name = "C={0} B, B_r={1} B/ns, T_1={2} ns, seed {3}, {4} counts")
    @CsvSource({
            "262144, 1.2, 2000, 1, imb",     // Hager's DDR-IB case in size: C ~ 2^18, ~1.2 GB/s
            "65536, 10, 500, 2, imb",        // shared memory-like
            "1048576, 3, 5000, 3, imb",
            "131072, 25, 1000, 4, fabprobe", // a fast NIC, fabprobe's own count: fewer at large sizes
            "524288, 5, 300, 5, fabprobe",
    })
    void recoversKnownParametersWithinFivePercent(double c, double br, double t1, long seed, String counts) {
        LongUnaryOperator count = counts.equals("imb")
                ? x -> MultiPairModel.imbRepetitions(x, MultiPairModel.IMB_MSGS_PER_SAMPLE, MultiPairModel.IMB_OVERALL_VOL)
                : x -> Math.max(4, Math.min(200, (16L << 20) / x));
        MultiPairModel truth = new MultiPairModel(c, br, t1);
        Random noise = new Random(seed);
        long[] reps = LongStream.of(SIZES).map(count).toArray();
        double[] times = new double[SIZES.length];
        for (int i = 0; i < SIZES.length; i++) {
            times[i] = truth.loopTimeNs(SIZES[i], reps[i]) * (1 + 0.01 * noise.nextGaussian());
        }
        MultiPairFit fit = MultiPairFitter.fit(SIZES, reps, times).orElseThrow();
        String got = fit.toString();
        assertTrue(fit.chunkResolved(), got);
        assertTrue(fit.finite(), got);
        assertEquals(c, fit.chunkBytes(), 0.05 * c, got);
        assertEquals(br, fit.rawBytesPerNs(), 0.05 * br, got);
        assertEquals(t1, fit.t1Ns(), 0.05 * t1, got);
        // the errors are honest: the truth within 4 standard errors, and about the noise in size
        assertEquals(c, fit.chunkBytes(), 4 * fit.chunkErrBytes(), got);
        assertEquals(br, fit.rawBytesPerNs(), 4 * fit.rawErrBytesPerNs(), got);
        assertEquals(t1, fit.t1Ns(), 4 * fit.t1ErrNs(), got);
        assertTrue(fit.rmsRelResidual() > 0.005 && fit.rmsRelResidual() < 0.02, got);
        System.out.printf("multipair synthetic C=%.0f B_r=%.3g T_1=%.0f (%s): C %.0f ± %.0f (%+.2f %%), B_r %.4g ± %.2g (%+.2f %%),"
                        + " T_1 %.1f ± %.1f (%+.2f %%), rms %.4f%n", c, br, t1, counts, fit.chunkBytes(), fit.chunkErrBytes(),
                100 * (fit.chunkBytes() / c - 1), fit.rawBytesPerNs(), fit.rawErrBytesPerNs(), 100 * (fit.rawBytesPerNs() / br - 1),
                fit.t1Ns(), fit.t1ErrNs(), 100 * (fit.t1Ns() / t1 - 1), fit.rmsRelResidual());
    }

    @Test
    void exactDataGiveExactParameters() {
        MultiPairModel truth = new MultiPairModel(300_000, 4, 800); // C between two sizes
        long[] reps = LongStream.of(SIZES).map(x -> MultiPairModel.imbRepetitions(x, 1000, 40L << 20)).toArray();
        double[] times = new double[SIZES.length];
        for (int i = 0; i < SIZES.length; i++) times[i] = truth.loopTimeNs(SIZES[i], reps[i]);
        MultiPairFit fit = MultiPairFitter.fit(SIZES, reps, times).orElseThrow();
        assertEquals(300_000, fit.chunkBytes(), 300, fit::toString);
        assertEquals(4, fit.rawBytesPerNs(), 1e-3, fit::toString);
        assertEquals(800, fit.t1Ns(), 1, fit::toString);
        assertTrue(fit.rmsRelResidual() < 1e-6, fit::toString);
    }

    @Test
    void chunkAboveEverySizeIsABoundNotAValue() {
        // C beyond the largest size with a constant n: one straight line in x, which "never
        // chunked" and "always chunked" (C at the smallest size, about twice the B_r) explain
        // alike; the fit says C is only a bound and gives it no error
        MultiPairModel truth = new MultiPairModel(1L << 30, 2, 1000);
        long[] reps = LongStream.of(SIZES).map(x -> 100).toArray();
        double[] times = LongStream.of(SIZES).mapToDouble(x -> truth.loopTimeNs(x, 100)).toArray();
        MultiPairFit fit = MultiPairFitter.fit(SIZES, reps, times).orElseThrow();
        assertFalse(fit.chunkResolved(), fit::toString);
        assertTrue(Double.isNaN(fit.chunkErrBytes()), fit::toString);
        assertTrue(fit.chunkBytes() == SIZES[0] || fit.chunkBytes() == SIZES[SIZES.length - 1], fit::toString);
        assertTrue(fit.rmsRelResidual() < 1e-6, fit::toString);
    }

    @Test
    void tooFewPointsOrBadInput() {
        assertTrue(MultiPairFitter.fit(new long[] {1, 2, 3}, new long[] {1, 1, 1}, new double[] {1, 2, 3}).isEmpty());
        assertThrows(IllegalArgumentException.class,
                () -> MultiPairFitter.fit(new long[] {4, 2, 8, 16}, new long[] {1, 1, 1, 1}, new double[] {1, 2, 3, 4}));
        assertThrows(IllegalArgumentException.class,
                () -> MultiPairFitter.fit(new long[] {1, 2, 4, 8}, new long[] {1, 1, 1, 1}, new double[] {1, 0, 3, 4}));
    }
}
