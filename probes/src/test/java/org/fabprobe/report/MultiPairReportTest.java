package org.fabprobe.report;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.fabprobe.api.RunFacts;
import org.fabprobe.clock.ClockFacts;
import org.fabprobe.method.MultiPairMethod;
import org.fabprobe.method.MultiPairMethod.Point;
import org.fabprobe.method.MultiPairMethod.Result;
import org.fabprobe.model.MultiPairModel;
import org.fabprobe.result.MultiPairDocument;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.Test;

/** The multipair report from a result the model made: eq. (6) per size, the fit, JSON and CSV. */
class MultiPairReportTest {
    private static final MultiPairModel TRUTH = new MultiPairModel(200_000, 3, 1500);

    private static MultiPairReport.Context context(int pairs, long fitFrom) {
        List<Point> points = new ArrayList<>();
        for (long x = 1024; x <= 4 << 20; x *= 2) {
            long n = MultiPairModel.imbRepetitions(x, 1000, 40L << 20);
            double t = TRUTH.loopTimeNs(x, n);
            boolean disturbed = x == 4 << 20; // every sample of the largest size waited for a CPU, in every attempt
            points.add(new Point(x, n, new double[] {t * 1.01, t, t * 0.99}, new double[] {t, t * 0.98}, disturbed ? 3 : 0,
                    disturbed ? MultiPairMethod.MAX_REMEASURES : 0));
        }
        Result r = new Result(pairs, Map.of("mpi", "openmpi"), 10, 100, points, List.of());
        var settings = new MultiPairDocument.Settings(points.stream().map(Point::sizeBytes).toList(), pairs, "i pings i + k",
                "n(x) = min(reps, max(1, volume / x))", 1000, 40L << 20, 3, 10, "1s", fitFrom, "median of maxima", "least squares",
                "ranks " + 2 * pairs);
        var run = new RunFacts<>("fabprobe test", "multipair", "mpi:openmpi/ob1:vader", Map.of("mpi", "openmpi"),
                settings, org.fabprobe.result.Host.of(Map.of("hostname", "node8")), Map.of(),
                new ClockFacts("tsc", "", 2.4, true, true, 11, 9.8, 1.5, 20), "2026-01-01T00:00:00Z", -1);
        return new MultiPairReport.Context(run, r, fitFrom, MultiPairReport.fit(r, fitFrom), 1.5, List.of());
    }

    @Test
    void twoPairsAreFittedAndWritten() {
        MultiPairReport.Context c = context(2, 32 << 10);
        MultiPairDocument doc = Schemas.validated(MultiPairReport.json(c), MultiPairDocument.class);
        assertEquals(MultiPairReport.SCHEMA, doc.schema());
        MultiPairDocument.Model model = doc.model();
        assertEquals(32768, model.fromBytes());
        assertEquals(8, model.points()); // 32 KiB .. 4 MiB
        assertEquals(200_000, model.chunkBytes(), 200);
        assertEquals(3000, model.rawBandwidthMbS(), 1);
        assertEquals(1500, model.t1Ns(), 2);
        MultiPairDocument.Size first = doc.sizes().getFirst(), last = doc.sizes().getLast();
        assertFalse(first.fitted());
        // an absent model_bandwidth_mb_s reads back null (a written null would read NaN)
        assertNull(first.modelBandwidthMbS(), "not fitted: no model_bandwidth_mb_s");
        // eq. (6): 4 x n / T_b, in MB/s, against the model's own curve at the same point
        double b = 4.0 * (4 << 20) * 10 / TRUTH.loopTimeNs(4 << 20, 10) * 1e3;
        assertEquals(b, last.aggregatedBandwidthMbS(), 1e-9 * b);
        assertEquals(b, last.modelBandwidthMbS(), 1e-3 * b);
        String table = MultiPairReport.table(c);
        assertTrue(table.contains("C   = ") && table.contains("B_r = ") && table.contains("T_1 = "), table);
        String[] csv = MultiPairReport.csv(c).split("\n");
        assertEquals(14, csv.length); // header and 1 KiB .. 4 MiB
        assertTrue(csv[1].startsWith("1024,1000,3,") && csv[1].endsWith(","), csv[1]); // not fitted: no model column
    }

    @Test
    void otherPairCountsAreReportedNotFitted() {
        MultiPairReport.Context c = context(3, 1);
        assertTrue(c.fit().isEmpty());
        MultiPairDocument doc = Schemas.validated(MultiPairReport.json(c), MultiPairDocument.class);
        assertNull(doc.model());
        MultiPairDocument.Size first = doc.sizes().getFirst();
        // 2k x n / T_b with k = 3
        assertEquals(6.0 * 1024 * 1000 / TRUTH.loopTimeNs(1024, 1000) * 1e3, first.aggregatedBandwidthMbS(), 1e-6);
    }

    @Test
    void aSizeKeptDisturbedIsNamedInItsRowAndANote() {
        MultiPairReport.Context c = context(2, 32 << 10);
        String note = MultiPairReport.disturbedNote(c.result());
        assertEquals("DISTURBED 4 MiB (3 of 3 samples, measured 3 times): in most samples some rank waited for a CPU"
                + " (other work on these CPUs, or more ranks than CPUs); T_b may read high", note);
        String row = MultiPairReport.table(c).lines().filter(l -> l.trim().startsWith("4 MiB")).findFirst().orElseThrow();
        assertTrue(row.endsWith("DISTURBED, measured 3 times"), row);
        MultiPairDocument.Size last = MultiPairReport.document(c).sizes().getLast();
        assertEquals(3, last.disturbedSamples());
        assertEquals(2, last.remeasured());
        assertEquals(0, MultiPairReport.document(c).sizes().getFirst().disturbedSamples());
    }
}
