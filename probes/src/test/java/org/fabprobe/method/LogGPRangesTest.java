package org.fabprobe.method;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.fabprobe.method.LogGPMethod.SizePrtt;
import org.fabprobe.method.Sampler.Sampled;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.ParameterSet;
import org.fabprobe.model.Segments;
import org.fabprobe.model.Statistics;
import org.junit.jupiter.api.Test;

/** LogGP's size ranges on a real sweep: Open MPI's pml ucx over loopback tcp, blocking calls. */
class LogGPRangesTest {
    // `loggp -t mpi:openmpi/ucx:tcp`: g + (s-1)G and PRTT(1,0,s) medians, ns. Blocking MPI_Send
    // stays eager up to 128 KiB and switches to rendezvous at 256 KiB, which is faster.
    private static final long[] SIZES = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
            32768, 65536, 131072, 262144};
    private static final double[] GAP_ALL = {4647, 4640, 4611, 4652, 4636, 4648, 4648, 4650, 4672, 4706, 4973, 4985,
            5108, 6013, 10890, 17678, 30389, 52575, 101124, 75073};
    private static final double[] PRTT1 = {9565, 9575, 9435, 9465, 9495, 9605, 9605, 9585, 9615, 9595, 9635, 9915,
            10396, 11468, 19329, 35644, 61101, 101952, 196893, 133048};

    // `loggp -t ucx:posix,cma` (UCX 1.13): g + (s-1)G steps 12-fold after 8 KiB (rendezvous
    // over cma); below it PRTT(1,0,s) scatters by 2x from size to size on this VM.
    private static final double[] CMA_GAP_ALL = {74, 72, 49, 49, 47, 51, 47, 53, 86, 66, 83, 79, 135, 187, 218, 2633,
            3622, 5787, 10187, 18508};
    private static final double[] CMA_PRTT1 = {251, 261, 271, 251, 231, 211, 241, 221, 311, 542, 381, 612, 481, 972,
            1243, 6430, 8684, 13130, 23456, 41282};

    private static Sampled exact(double v) {
        return new Sampled(new Estimate(v, 1), Statistics.summarize(new double[] {v}, 1), true, 0, 0, false);
    }

    private static List<SizePrtt> sweep(int count) {
        return sweep(count, GAP_ALL, PRTT1, 4400);
    }

    private static List<SizePrtt> sweep(int count, double[] gapAll, double[] prtt1, double o) {
        List<SizePrtt> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            list.add(new SizePrtt(SIZES[i], exact(prtt1[i]), exact(16 * gapAll[i]), exact(16 * gapAll[i]), 0, 0,
                    new Estimate(gapAll[i], 10), new Estimate(o, 10)));
        }
        return list;
    }

    @Test
    void aStepInOneSeriesIsFoundDespiteTheOthersScatter() {
        List<SizePrtt> sizes = sweep(SIZES.length, CMA_GAP_ALL, CMA_PRTT1, 20);
        List<ParameterSet> ranges = LogGPMethod.fit(sizes, false);
        assertTrue(ranges.stream().anyMatch(r -> r.fromBytes() == 16384), ranges::toString);
        assertTrue(ranges.stream().noneMatch(r -> r.fromBytes() <= 8192 && r.toBytes() >= 16384), ranges::toString);
    }

    @Test
    void theFasterProtocolAtTheLastSizeIsLeftOutAndSaidSo() {
        List<SizePrtt> sizes = sweep(SIZES.length);
        List<ParameterSet> ranges = LogGPMethod.fit(sizes, false);
        assertEquals(131072, ranges.getLast().toBytes(), ranges::toString);
        List<String> notes = LogGPMethod.rangeNotes(sizes);
        assertTrue(notes.stream().anyMatch(n -> n.startsWith(Segments.OUTSIDE_FIT_NOTE) && n.contains("262144 B")),
                notes::toString);
        assertTrue(notes.stream().noneMatch(n -> n.startsWith(Segments.POOR_FIT_NOTE)), notes::toString);
        assertTrue(MethodFlags.of(ranges, notes, PRTT1[0]).stream().anyMatch(f -> f.startsWith("OUTSIDE FIT")));
    }

    @Test
    void withoutTheStepEverySizeStaysInARange() {
        List<SizePrtt> sizes = sweep(SIZES.length - 1);
        assertEquals(131072, LogGPMethod.fit(sizes, false).getLast().toBytes());
        assertTrue(LogGPMethod.rangeNotes(sizes).stream().noneMatch(n -> n.startsWith(Segments.OUTSIDE_FIT_NOTE)));
    }
}
