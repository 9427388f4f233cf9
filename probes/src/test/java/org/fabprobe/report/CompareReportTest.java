package org.fabprobe.report;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** compare's legend for values without ±, on cells of a real `compare -t ucx:tcp --mpi openmpi -s 0..16K` table. */
class CompareReportTest {
    @Test
    void aValueWithoutUncertaintyIsFoundOnlyWhereItPrintsAsAPlainNumber() {
        // g µs: 6.318 / 4.987 / -1.331; G ns/B: 0.3030 / – / –
        assertTrue(CompareReport.bare("6.318"));
        assertTrue(CompareReport.bare("-1.331"));
        assertTrue(CompareReport.bare("0.3030"));
        assertFalse(CompareReport.bare("7.101 ± 0.084"));
        assertFalse(CompareReport.bare("– (overlap)"));
        assertFalse(CompareReport.bare("–"));
        assertFalse(CompareReport.bare("1.152 ± 0.459"));
    }
}
