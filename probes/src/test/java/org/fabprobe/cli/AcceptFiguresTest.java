package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.fabprobe.model.Statistics;
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
        Map<String, Object> doc = Schemas.validated(Files.readString(json));
        List<?> checks = (List<?>) doc.get("checks");
        List<?> measurements = (List<?>) doc.get("measurements");
        Map<?, ?> compare = document(measurements, 0), collectives = document(measurements, 1), multipair = document(measurements, 2);

        // compare: o_s difference of the MPI range holding the first size, ns -> us
        Map<?, ?> range = (Map<?, ?>) ((List<?>) compare.get("ranges")).getFirst();
        Map<?, ?> difference = (Map<?, ?>) ((Map<?, ?>) range.get("o_s_ns")).get("difference");
        assertFigure(checks, 0, (Double) difference.get("value") / 1e3, (Double) difference.get("ci95") / 1e3, "PASS");

        // collectives: bcast's t0 of its first Hockney range (standard error x Student-t), barrier's median
        Map<?, ?> bcast = result(collectives, "bcast"), barrier = result(collectives, "barrier");
        Map<?, ?> hockney = (Map<?, ?>) ((List<?>) bcast.get("hockney")).getFirst();
        double t = Statistics.tQuantile975(((Double) hockney.get("points")).intValue() - 2);
        assertFigure(checks, 1, (Double) hockney.get("t0_ns") / 1e3, (Double) hockney.get("t0_err_ns") * t / 1e3, "PASS");
        assertFigure(checks, 2, (Double) barrier.get("t0_ns") / 1e3, (Double) barrier.get("t0_ci95_ns") / 1e3, "PASS");

        // multipair: the model's B_r, MB/s -> GB/s, one standard error x Student-t at points - 3
        Map<?, ?> model = (Map<?, ?>) multipair.get("model");
        double t3 = Statistics.tQuantile975(((Double) model.get("points")).intValue() - 3);
        assertFigure(checks, 3, (Double) model.get("raw_bandwidth_mb_s") / 1e3,
                (Double) model.get("raw_bandwidth_err_mb_s") * t3 / 1e3, "INCONCLUSIVE");
    }

    private static Map<?, ?> document(List<?> measurements, int i) {
        Map<?, ?> m = (Map<?, ?>) measurements.get(i);
        assertEquals(Boolean.TRUE, m.get("reused"));
        return (Map<?, ?>) m.get("document");
    }

    private static Map<?, ?> result(Map<?, ?> collectives, String operation) {
        return ((List<?>) collectives.get("results")).stream().map(r -> (Map<?, ?>) r)
                .filter(r -> r.get("operation").equals(operation)).findFirst().orElseThrow();
    }

    private static void assertFigure(List<?> checks, int i, double value, double ci95, String verdict) {
        Map<?, ?> c = (Map<?, ?>) checks.get(i);
        assertEquals(value, (Double) c.get("measured"), 1e-9 * Math.abs(value), c::toString);
        assertEquals(value - ci95, (Double) c.get("measured_low"), 1e-9 * Math.abs(value), c::toString);
        assertEquals(value + ci95, (Double) c.get("measured_high"), 1e-9 * Math.abs(value), c::toString);
        assertEquals(verdict, c.get("verdict"), c::toString);
    }
}
