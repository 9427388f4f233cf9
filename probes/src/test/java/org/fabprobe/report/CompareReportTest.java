package org.fabprobe.report;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** compare's legend for values without ±, on rows of a real `compare -t ucx:tcp --mpi openmpi -s 0..16K` table. */
class CompareReportTest {
    @Test
    void aParameterWithoutUncertaintyIsFoundOnlyInParameterRows() {
        assertTrue(CompareReport.hasBareValue("g µs                          6.318                  4.987                 -1.331        1.856"));
        assertTrue(CompareReport.hasBareValue("G ns/B                       0.3030                      –                      –       0.6060"));
        assertFalse(CompareReport.hasBareValue("o_s µs                7.101 ± 0.084          9.216 ± 0.271          2.115 ± 0.507        0.842"));
        assertFalse(CompareReport.hasBareValue("L µs                    – (overlap)            – (overlap)          1.258 ± 1.189        0.590"));
        assertFalse(CompareReport.hasBareValue("pLogP L µs                        –          1.152 ± 0.459                      –        1.315"));
        // the raw drift column is a plain difference by design, and per-size rows are medians
        assertFalse(CompareReport.hasBareValue("o_r µs                2.944 ± 0.079          3.485 ± 0.160          0.541 ± 0.494        0.922"));
        assertFalse(CompareReport.hasBareValue("        1 B        14.666 / 18.383          7.101 / 9.216          2.944 / 3.485          5.586 / 7.934"));
    }
}
