package org.fabprobe.report;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.fabprobe.clock.ClockFacts;
import org.fabprobe.model.HockneyFit;
import org.fabprobe.model.Summary;
import org.junit.jupiter.api.Test;

class PingPongReportTest {
    private static PingPongResult result() {
        RunFacts run = new RunFacts("fabprobe test", "pingpong", "ofi:shm", Map.of("provider", "shm"),
                Map.of("warmup", 10), Map.of("hostname", "h"),
                new ClockFacts("tsc", "", 2.4, true, true, 11, 9.8, 1.5, 20), "2026-01-01T00:00:00Z");
        List<SizePoint> points = List.of(
                new SizePoint(8, new Summary(100, 330, 390, 450, 395, 20, 4, 1), 20.5, 1.5),
                new SizePoint(1 << 20, new Summary(100, 91_000, 92_800, 107_000, 93_000, 900, 180, 0), 11_300, 20));
        return new PingPongResult(run, points,
                List.of(new HockneyFit(8, 1 << 20, 2, 390, 10, 11_300, 200, 4407, 0.01)), 1.25);
    }

    @Test
    void jsonHasTheDocumentedSchema() {
        String json = PingPongReport.json(result());
        for (String key : List.of("\"schema\": \"fabprobe.pingpong/1\"", "\"size_bytes\": 8", "\"half_rtt_ns\"",
                "\"min\": 330", "\"median\": 390", "\"p99\": 450", "\"bandwidth_mb_s\": 20.5", "\"transport\": \"ofi:shm\"",
                "\"read_cost_ns\": 11", "\"t0_ns\": 390", "\"r_inf_mb_s\": 11300", "\"hostname\": \"h\"")) {
            assertTrue(json.contains(key), () -> key + " missing in\n" + json);
        }
        assertEquals(json.chars().filter(c -> c == '{').count(), json.chars().filter(c -> c == '}').count());
    }

    @Test
    void tableShowsMicrosecondsAndHumanSizes() {
        String table = PingPongReport.table(result());
        assertTrue(table.contains("8 B") && table.contains("1 MiB"), table);
        assertTrue(table.contains("0.390") && table.contains("92.800"), table);
        assertTrue(table.contains("t0 = 0.390"), table);
    }

    @Test
    void csvHasOneRowPerSize() {
        String csv = PingPongReport.csv(result());
        assertEquals(3, csv.lines().count());
        assertTrue(csv.lines().skip(1).findFirst().orElseThrow().startsWith("8,100,330.0,390.0,450.0"), csv);
    }
}
