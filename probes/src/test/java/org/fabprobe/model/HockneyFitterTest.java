package org.fabprobe.model;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HockneyFitterTest {
    private static long[] powersOfTwo(int maxExponent) {
        long[] sizes = new long[maxExponent + 2];
        for (int i = 0; i <= maxExponent; i++) sizes[i + 1] = 1L << i;
        return sizes; // 0, 1, 2, ..., 2^max
    }

    /** t in ns for t0 in ns and r_inf in MB/s (= 1e-3 bytes per ns). */
    private static double hockney(long n, double t0, double rInfMBs) {
        return t0 + n / (rInfMBs * 1e-3);
    }

    @Test
    void recoversKnownParametersUnderNoise() {
        long[] sizes = powersOfTwo(22);
        double[] times = new double[sizes.length];
        Random noise = new Random(42);
        for (int i = 0; i < sizes.length; i++) {
            times[i] = hockney(sizes[i], 400, 10_000) * (1 + 0.02 * (noise.nextDouble() * 2 - 1));
        }
        List<HockneyFit> fits = HockneyFitter.fit(sizes, times);
        assertEquals(1, fits.size(), fits::toString);
        HockneyFit f = fits.get(0);
        assertEquals(400, f.t0Ns(), 4, f::toString);
        assertEquals(10_000, f.rInfMBs(), 100, f::toString);
        assertEquals(f.t0Ns() * f.rInfMBs() * 1e-3, f.nHalfBytes(), 1e-6);
        assertTrue(f.t0ErrNs() > 0 && f.rInfErrMBs() > 0);
    }

    @Test
    void cleanLineIsNotSplit() {
        long[] sizes = powersOfTwo(20);
        double[] times = new double[sizes.length];
        for (int i = 0; i < sizes.length; i++) times[i] = hockney(sizes[i], 1500, 3000);
        List<HockneyFit> fits = HockneyFitter.fit(sizes, times);
        assertEquals(1, fits.size());
        assertEquals(1500, fits.get(0).t0Ns(), 1e-6);
        assertEquals(3000, fits.get(0).rInfMBs(), 1e-6);
    }

    @Test
    void protocolSwitchIsLocated() {
        long[] sizes = powersOfTwo(22);
        double[] times = new double[sizes.length];
        Random noise = new Random(7);
        for (int i = 0; i < sizes.length; i++) {
            double t = sizes[i] <= 16384 ? hockney(sizes[i], 400, 3000) : hockney(sizes[i], 5000, 9000);
            times[i] = t * (1 + 0.01 * (noise.nextDouble() * 2 - 1));
        }
        List<HockneyFit> fits = HockneyFitter.fit(sizes, times);
        assertTrue(fits.size() >= 2, fits::toString);
        HockneyFit eager = fits.get(0);
        HockneyFit rendezvous = fits.get(fits.size() - 1);
        assertEquals(16384, eager.toBytes(), fits::toString);
        assertEquals(32768, fits.get(1).fromBytes(), fits::toString);
        assertEquals(400, eager.t0Ns(), 20);
        assertEquals(9000, rendezvous.rInfMBs(), 450);
    }

    @Test
    void flatRangeHasInfiniteBandwidthNotNegative() {
        long[] sizes = {0, 1, 2, 4};
        double[] times = {300, 300, 300, 300};
        HockneyFit f = HockneyFitter.fit(sizes, times).get(0);
        assertEquals(Double.POSITIVE_INFINITY, f.rInfMBs());
        assertEquals(300, f.t0Ns(), 1e-9);
    }

    @Test
    void tooFewPointsGiveNoFit() {
        assertTrue(HockneyFitter.fit(new long[] {8}, new double[] {300}).isEmpty());
    }
}
