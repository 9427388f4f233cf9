package org.fabprobe.method;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.fabprobe.result.SharedCpus;
import org.junit.jupiter.api.Test;

/** Which hosts' ranks share CPUs: more ranks than CPUs in their masks, or masks that leave some without one. */
class CpuSharingTest {

    @Test
    void moreRanksThanCpusOnOneHost() {
        List<SharedCpus> shared = CpuSharing.judge(List.of("a", "a", "a", "a", "b", "b"),
                List.of(new int[] {0, 1}, new int[] {0, 1}, new int[] {0, 1}, new int[] {0, 1}, new int[] {0, 1}, new int[] {0, 1}));
        assertEquals(List.of(new SharedCpus(6, "a", 4, 2, 2)), shared, "b has 2 ranks on 2 CPUs");
        assertEquals("ranks share CPUs: 4 ranks on 2 CPUs of a", SharedCpus.statement(shared));
    }

    @Test
    void overlappingMasksShareCpusThoughTheHostHasEnough() {
        // three ranks on four CPUs, but two of them bound to CPU 0 alone
        List<SharedCpus> shared = CpuSharing.judge(List.of("a", "a", "a"),
                List.of(new int[] {0}, new int[] {0}, new int[] {1, 2, 3}));
        assertEquals(List.of(new SharedCpus(3, "a", 3, 4, 2)), shared);
        assertTrue(shared.getFirst().describe().contains("affinity masks overlap: 2 at once"), shared.getFirst().describe());
    }

    @Test
    void masksThatOverlapButLeaveEachRankACpuAreFine() {
        assertEquals(List.of(), CpuSharing.judge(List.of("a", "a", "a"), List.of(new int[] {0, 1}, new int[] {0}, new int[] {1, 2})),
                "0 -> CPU 1? no: rank 1 takes 0, rank 0 takes 1, rank 2 takes 2");
        assertEquals(List.of(), CpuSharing.judge(List.of("a", "a"), List.of(new int[] {0, 1, 2, 3}, new int[] {0, 1, 2, 3})));
    }

    @Test
    void onlyTheFirstHostsAreNamed() {
        List<SharedCpus> shared = List.of(new SharedCpus(12, "a", 4, 2, 2), new SharedCpus(12, "b", 4, 1, 1),
                new SharedCpus(12, "c", 4, 2, 2));
        assertEquals("ranks share CPUs: 4 ranks on 2 CPUs of a, 4 ranks on 1 CPU of b and 1 more hosts", SharedCpus.statement(shared));
        assertNull(SharedCpus.flag(List.of()));
    }
}
