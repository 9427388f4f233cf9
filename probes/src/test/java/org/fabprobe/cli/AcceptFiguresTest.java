package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.Statistics;
import org.fabprobe.result.AcceptDocument;
import org.fabprobe.result.CollectivesDocument;
import org.fabprobe.result.CompareDocument;
import org.fabprobe.result.HockneyRange;
import org.fabprobe.result.MultiPairDocument;
import org.fabprobe.result.ResultJson;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MPI-level figures (compare's MPI - raw, collectives' t0(p), multipair's B_r), read from a
 * recorded real run on this host (compare ofi:shm vs ob1:vader, collectives and multipair on
 * ob1:vader, under load: test resources accept/mpi-figures*) and judged again with --from:
 * each figure is the number its command's document holds, in the spec's unit.
 */
class AcceptFiguresTest {
    private static final Path SPEC = Path.of("src/test/resources/accept/mpi-figures.yaml");
    private static final Path RUN = Path.of("src/test/resources/accept/mpi-figures-run.json");

    @TempDir
    Path dir;

    @Test
    void mpiLevelFiguresAreReadFromTheirDocuments() throws Exception {
        Path json = dir.resolve("judged.json");
        CliRun run = CliRun.of("accept", SPEC.toString(), "--from", RUN.toString(), "--json", json.toString());
        assertEquals(1, run.exitCode(), run::toString); // B_r of an oversubscribed 4-rank run: INCONCLUSIVE
        assertFalse(run.err().contains("measuring:"), run.err());
        AcceptDocument doc = Schemas.validated(json, AcceptDocument.class);
        List<AcceptDocument.Check> checks = doc.checks();
        List<AcceptDocument.Measurement> measurements = doc.measurements();
        CompareDocument compare = document(measurements, 0, CompareDocument.class);
        CollectivesDocument collectives = document(measurements, 1, CollectivesDocument.class);
        MultiPairDocument multipair = document(measurements, 2, MultiPairDocument.class);

        // compare: o_s difference of the MPI range holding the first size, ns -> us
        Estimate difference = compare.ranges().getFirst().sendOverheadNs().difference();
        assertFigure(checks, 0, difference.value() / 1e3, difference.ci95() / 1e3, "PASS");

        // collectives: bcast's t0 of its first Hockney range (standard error x Student-t), barrier's median
        CollectivesDocument.Result bcast = result(collectives, "bcast"), barrier = result(collectives, "barrier");
        HockneyRange hockney = bcast.hockney().getFirst();
        double t = Statistics.tQuantile975(hockney.points() - 2);
        assertFigure(checks, 1, hockney.t0Ns() / 1e3, hockney.t0ErrNs() * t / 1e3, "PASS");
        assertFigure(checks, 2, barrier.t0Ns() / 1e3, barrier.t0Ci95Ns() / 1e3, "PASS");

        // multipair: the model's B_r, MB/s -> GB/s, one standard error x Student-t at points - 3
        MultiPairDocument.Model model = multipair.model();
        double t3 = Statistics.tQuantile975(model.points() - 3);
        assertFigure(checks, 3, model.rawBandwidthMbS() / 1e3, model.rawBandwidthErrMbS() * t3 / 1e3, "INCONCLUSIVE");
    }

    private static <T> T document(List<AcceptDocument.Measurement> measurements, int i, Class<T> type) {
        AcceptDocument.Measurement m = measurements.get(i);
        assertTrue(m.reused(), m::toString);
        // recorded with earlier schema versions (compare/1): read, not validated against today's
        return ResultJson.read(m.document().toString(), type);
    }

    private static CollectivesDocument.Result result(CollectivesDocument collectives, String operation) {
        return collectives.results().stream().filter(r -> r.operation().equals(operation)).findFirst().orElseThrow();
    }

    private static void assertFigure(List<AcceptDocument.Check> checks, int i, double value, double ci95, String verdict) {
        AcceptDocument.Check c = checks.get(i);
        assertEquals(value, c.measured(), 1e-9 * Math.abs(value), c::toString);
        assertEquals(value - ci95, c.measuredLow(), 1e-9 * Math.abs(value), c::toString);
        assertEquals(value + ci95, c.measuredHigh(), 1e-9 * Math.abs(value), c::toString);
        assertEquals(verdict, c.verdict(), c::toString);
    }
}
