package org.fabprobe.report;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fabprobe.api.PingPongAnalysis;
import org.fabprobe.api.PingPongResult;
import org.fabprobe.api.RunFacts;
import org.fabprobe.clock.ClockFacts;
import org.fabprobe.model.HockneyFit;
import org.fabprobe.model.Summary;
import org.fabprobe.result.HockneyRange;
import org.fabprobe.result.Host;
import org.fabprobe.result.PeerSettings;
import org.fabprobe.result.PingPongDocument;
import org.fabprobe.result.ResultJson;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.Test;

class PingPongReportTest {
    private static PingPongResult result() {
        return result(true);
    }

    private static PingPongResult result(boolean fitted) {
        var settings = new PingPongDocument.Settings(List.of(0L, 8L, 1L << 20), 10, 100, "nonblocking", "send", 20000,
                new PeerSettings(5000, "0,1", "127.0.0.1", "local child"));
        var run = new RunFacts<>("fabprobe test", "pingpong", "ofi:shm",
                Map.of("provider", "shm", "library", "libfabric 1.22.0"), settings, new Host("node\"7", "Linux", "amd64", "cpu", "2", "jvm"),
                Map.of("hostname", "node8"), new ClockFacts("tsc", "", 2.4, true, true, 11, 9.8, 1.5, 20), "2026-01-01T00:00:00Z", -1);
        List<PingPongDocument.Size> points = List.of(
                new PingPongDocument.Size(0, new Summary(1, 300, 300, 300, 300, 300, Double.NaN, Double.NaN, 0), Double.NaN, 0,
                        Double.NaN, 0, false, Double.NaN, false),
                new PingPongDocument.Size(8, new Summary(100, 330, 390, 450, 2_000, 395, 20, 4, 1), 3, 20.5, 1.5, 0, false, 0.2, false),
                new PingPongDocument.Size(1 << 20, new Summary(100, 91_000, 92_800, 107_000, 180_000, 93_000, 900, 180, 0),
                        Double.NaN, 11_300, 20, 0, false, 0.5, false));
        List<HockneyFit> fits = List.of(
                new HockneyFit(0, 8, 2, 310, 5, Double.POSITIVE_INFINITY, Double.NaN, Double.POSITIVE_INFINITY, 0.02),
                new HockneyFit(16, 1 << 20, 3, 390, 10, 11_300, 200, 4407, 0.01));
        return new PingPongResult(PingPongAnalysis.document(run, points, fitted ? fits : List.of(), 1.25, null, null), -1);
    }

    /** A sentinel batch of 0 B half round trips around {@code ns}, with a little spread. */
    private static double[] sentinel(double ns) {
        double[] batch = new double[200];
        for (int i = 0; i < batch.length; i++) batch[i] = ns + (i % 10);
        return batch;
    }

    @Test
    void sizesBesideASentinelThatLeftTheRunsSpeedAreFlagged() {
        long[] sizes = {8, 1024, 2048, 4096, 8192};
        // the host slowed after 1 KiB and recovered after 2 KiB: both sizes next to the slow sentinel
        double[][] sentinels = {sentinel(240), sentinel(240), sentinel(600), sentinel(240), sentinel(245), sentinel(240)};
        String flag = PingPongAnalysis.driftFlag(sizes, sentinels, 0.4);
        assertNotNull(flag);
        assertTrue(flag.startsWith("DRIFT 1 KiB, 2 KiB: "), flag);
        assertTrue(flag.contains("read up to 0.60"), flag);
        // a steady host: no flag, also with the sentinels' own scatter of a few ns
        assertNull(PingPongAnalysis.driftFlag(sizes,
                new double[][] {sentinel(240), sentinel(250), sentinel(235), sentinel(244), sentinel(241), sentinel(239)}, 0.4));
    }

    @Test
    void jsonReadsBackWithTheDocumentedSchema() {
        String json = ResultJson.write(result().document());
        PingPongDocument doc = ResultJson.read(json, PingPongDocument.class);
        // the field names and their order are the documented layout, which only the JSON text shows
        JsonNode tree = ResultJson.tree(json);
        assertEquals(List.of("schema", "tool", "command", "transport", "transport_facts", "settings", "host", "mirror_host", "clock",
                "started_at", "wall_seconds", "sizes", "hockney", "flags"), names(tree));
        assertEquals("fabprobe.pingpong/4", doc.schema());
        assertEquals("ofi:shm", doc.transport());
        assertEquals("node\"7", doc.host().hostname());
        assertEquals(1.25, doc.wallSeconds());

        assertEquals(List.of("source", "fallback_reason", "ticks_per_ns", "constant_tsc", "nonstop_tsc", "read_cost_ns",
                "resolution_ns", "tick2_error_ppm", "calibration_ms"), names(tree.path("clock")));
        assertEquals(11.0, doc.clock().readCostNs());

        PingPongDocument.Settings settings = doc.header().settings();
        assertEquals(List.of(0L, 8L, 1048576L), settings.sizes());
        assertEquals(List.of("sizes", "warmup", "repetitions", "calls", "op", "jit_warmup_round_trips_max", "timeout_ms", "cpus",
                "source_address", "meeting"), names(tree.path("settings")), "the session's settings follow the command's, flat");
        assertEquals("0,1", settings.peer().cpus());

        List<PingPongDocument.Size> sizes = doc.sizes();
        assertEquals(3, sizes.size());
        PingPongDocument.Size eight = sizes.get(1);
        assertEquals(List.of("size_bytes", "repetitions", "half_rtt_ns", "median_ci95_ns", "outliers", "bandwidth_mb_s", "wall_ms",
                "remeasured", "disturbed", "gap_ms", "stalled"),
                names(tree.path("sizes").path(1)));
        assertEquals(8, eight.sizeBytes());
        assertEquals(3.0, eight.medianCi95Ns());
        assertTrue(Double.isNaN(sizes.get(0).medianCi95Ns()), "no interval: null (read back as NaN)");
        assertEquals(20.5, eight.bandwidthMbS());
        // count and outliers are written beside half_rtt_ns, as repetitions and outliers
        List<String> statistics = List.of("min", "median", "p99", "max", "mean", "stddev", "ci95");
        assertEquals(statistics, names(tree.path("sizes").path(1).path("half_rtt_ns")));
        assertEquals(new Summary(100, 330, 390, 450, 2_000, 395, 20, 4, 1), eight.halfRttNs());
        assertEquals(statistics, names(tree.path("sizes").path(0).path("half_rtt_ns")), "NaN spread must be written");
        assertTrue(Double.isNaN(sizes.get(0).halfRttNs().stddev()), "NaN spread must be null (read back as NaN)");

        List<HockneyRange> hockney = doc.hockney();
        HockneyRange flat = hockney.get(0);
        assertEquals(List.of("from_bytes", "to_bytes", "points", "t0_ns", "t0_err_ns", "r_inf_mb_s", "r_inf_err_mb_s",
                "n_half_bytes", "rms_rel_residual"), names(tree.path("hockney").path(0)));
        assertTrue(Double.isNaN(flat.rInfMbS()), "an infinite r_inf is null");
        assertTrue(Double.isNaN(flat.nHalfBytes()), "so is its n_half");
        HockneyRange bulk = hockney.get(1);
        assertEquals(390.0, bulk.t0Ns());
        assertEquals(11_300.0, bulk.rInfMbS());
        assertEquals(4407.0, bulk.nHalfBytes());
    }

    /** A JSON object's field names, in the order written. */
    private static List<String> names(JsonNode object) {
        assertTrue(object.isObject(), () -> "not an object: " + object);
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void documentReadsBackAsTheSameRecordsAndDriftFailsTheSchema() {
        PingPongDocument doc = result().document();
        String json = ResultJson.write(doc);
        assertEquals(Set.of(), Schemas.errors(json, "pingpong.schema.json"));
        PingPongDocument back = ResultJson.read(json, PingPongDocument.class);
        assertEquals(ResultJson.write(back), json, "written, read and written again: the same text");
        assertTrue(Double.isNaN(back.sizes().getFirst().halfRttNs().stddev()), "null reads back as NaN");
        assertTrue(Double.isNaN(back.hockney().getFirst().rInfMbS()), "an infinite r_inf is null, read back as NaN");

        assertFalse(Schemas.errors(json.replace("\"outliers\"", "\"outlier_count\""), "pingpong.schema.json").isEmpty(),
                "a renamed field must fail the schema");
        assertFalse(Schemas.errors(json.replace("fabprobe.pingpong/4", "fabprobe.pingpong/1"),
                "pingpong.schema.json").isEmpty(), "another schema version must fail");
        assertFalse(Schemas.errors(json.replaceFirst("\"size_bytes\": 0", "\"size_bytes\": \"0\""), "pingpong.schema.json").isEmpty(),
                "a size as text must fail");
    }

    @Test
    void tableShowsMicrosecondsHumanSizesAndTheFit() {
        String table = PingPongReport.table(result());
        String header = table.lines().findFirst().orElseThrow();
        assertTrue(header.contains("ofi:shm") && header.contains("libfabric 1.22.0") && header.contains("clock tsc")
                && header.contains("node\"7"), header);
        String row8 = table.lines().filter(l -> l.trim().startsWith("8 B")).findFirst().orElseThrow();
        assertTrue(row8.matches("\\s+8 B\\s+100\\s+0\\.330\\s+0\\.390\\s+0\\.450\\s+2\\.000\\s+20\\.5\\s+1"), row8);
        assertTrue(table.contains("0 B") && table.contains("1 MiB") && table.contains("92.800") && table.contains("180.000"), table);
        assertTrue(table.contains("0.390 ± 0.010") && table.contains("11300 ± 200") && table.contains("4407"), table);
        assertTrue(table.contains("∞ (flat)"), table);
        assertFalse(table.contains("NaN") || table.contains("Infinity"), table);
    }

    @Test
    void tableSaysWhyThereIsNoFit() {
        String table = PingPongReport.table(result(false));
        assertTrue(table.contains("needs at least 3 sizes"), table);
    }

    @Test
    void csvHasOneRowPerSizeAndEmptyFieldsForMissingValues() {
        List<String> lines = PingPongReport.csv(result().document()).lines().toList();
        assertEquals(List.of(
                "size_bytes,repetitions,min_ns,median_ns,p99_ns,max_ns,mean_ns,stddev_ns,ci95_ns,outliers,bandwidth_mb_s",
                "0,1,300.0,300.0,300.0,300.0,300.0,,,0,0.000",
                "8,100,330.0,390.0,450.0,2000.0,395.0,20.0,4.0,1,20.500",
                "1048576,100,91000.0,92800.0,107000.0,180000.0,93000.0,900.0,180.0,0,11300.000"), lines);
    }

    @Test
    void humanSizesAreExact() {
        assertEquals("0 B", PingPongReport.human(0));
        assertEquals("8 B", PingPongReport.human(8));
        assertEquals("4 KiB", PingPongReport.human(4096));
        assertEquals("1 MiB", PingPongReport.human(1 << 20));
        assertEquals("1000 B", PingPongReport.human(1000));
        assertEquals("1536 B", PingPongReport.human(1536));
    }
}
