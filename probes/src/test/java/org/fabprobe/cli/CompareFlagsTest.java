package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.fabprobe.method.CompareAnalysis;
import org.fabprobe.model.Estimate;
import org.fabprobe.result.CompareDocument;
import org.junit.jupiter.api.Test;

/** compare flags UCX settings that differ between the raw and the MPI side, and MPI below raw beyond the host's drift. */
class CompareFlagsTest {

    @Test
    void rawIsTheMeanOfTheRunsAroundMpisAndTheirDriftWidensTheDifference() {
        CompareDocument.Cell cell = CompareDocument.Cell.of(new Estimate(100, 10), new Estimate(140, 10), new Estimate(110, 5));
        assertEquals(120, cell.raw().value(), 1e-9);
        assertEquals(Math.hypot(10, 10) / 2, cell.raw().ci95(), 1e-9);
        assertEquals(40, cell.rawDrift(), 1e-9);
        assertEquals(-10, cell.difference().value(), 1e-9);
        assertEquals(Math.sqrt(50 + 25 + 400), cell.difference().ci95(), 1e-9);
    }

    @Test
    void mpiBelowRawIsFlaggedOnlyBeyondTheDrift() {
        Estimate mpi = new Estimate(110, 5);
        // the host slowed between the runs: raw read 100, then 140; MPI's 110 lies between
        assertEquals(List.of(), CompareAnalysis.flags(List.of(row(CompareDocument.Cell.of(new Estimate(100, 10), new Estimate(140, 10), mpi)))));
        // both raw runs read 140: MPI below raw is real
        List<String> flags = CompareAnalysis.flags(List.of(row(CompareDocument.Cell.of(new Estimate(140, 10), new Estimate(140, 10), mpi))));
        assertEquals(1, flags.size(), flags::toString);
        assertTrue(flags.getFirst().startsWith("o_s: MPI below raw by 30 ns"), flags::toString);
    }

    /** A range whose o_s is {@code sendOverhead}; every other parameter equal on both sides. */
    private static CompareDocument.Range row(CompareDocument.Cell sendOverhead) {
        CompareDocument.Cell same = CompareDocument.Cell.of(new Estimate(1, 0), new Estimate(1, 0));
        return new CompareDocument.Range(0, 1024, new long[] {0, 1024}, same, sendOverhead, same, same, same);
    }

    private static Map<String, String> doc(Map<String, String> facts) {
        return facts;
    }

    @Test
    void sameDevicesOnBothSidesAreLikeForLike() {
        Map<String, Map<String, String>> ucx = CompareAnalysis.ucxSettings(
                doc(Map.of("library", "UCX", "ucx.TLS", "tcp", "ucx.NET_DEVICES", "lo")),
                doc(Map.of("library", "Open MPI", "ucx.TLS", "tcp,self", "ucx.NET_DEVICES", "lo")));
        assertEquals(Map.of("TLS", "tcp", "NET_DEVICES", "lo"), ucx.get("raw"));
        assertEquals(List.of(), CompareAnalysis.ucxFlags(ucx));
    }

    @Test
    void differentDevicesAreFlagged() {
        Map<String, Map<String, String>> ucx = CompareAnalysis.ucxSettings(
                doc(Map.of("ucx.TLS", "tcp", "ucx.NET_DEVICES", "lo")),
                doc(Map.of("ucx.TLS", "tcp,self", "ucx.NET_DEVICES", "(UCX default)")));
        List<String> flags = CompareAnalysis.ucxFlags(ucx);
        assertEquals(1, flags.size(), flags::toString);
        assertTrue(flags.getFirst().contains("UCX_NET_DEVICES differs"), flags::toString);
    }

    @Test
    void noUcxOnEitherSideNeedsNoCheck() {
        assertEquals(Map.of(), CompareAnalysis.ucxSettings(doc(Map.of("library", "libfabric")), doc(Map.of("library", "MPICH"))));
    }
}
