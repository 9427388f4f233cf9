package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The whole path: CLI -> mirror process -> real libfabric -> numbers -> JSON. */
@org.junit.jupiter.api.extension.ExtendWith(BusyHost.class)
class PingPongEndToEndTest {

    @ParameterizedTest
    @ValueSource(strings = {"ofi:shm", "ofi:tcp"})
    void sweepThroughLocalModeWritesTableAndJson(String transport, @TempDir Path dir) throws Exception {
        Path json = dir.resolve("out.json");
        CliRun run = CliRun.of("pingpong", "-t", transport, "-s", "0,8,1K,64K", "-n", "300", "--warmup", "20",
                "--timeout", "20s", "--json", json.toString());
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains(transport), run::toString);

        String doc = Files.readString(json);
        Schemas.validated(doc);
        for (String key : new String[] {"\"size_bytes\"", "\"half_rtt_ns\"", "\"min\"", "\"median\"", "\"p99\"",
                "\"bandwidth_mb_s\"", "\"transport\"", "\"clock\"", "\"hockney\"", "\"host\""}) {
            assertTrue(doc.contains(key), () -> "JSON lacks " + key + ":\n" + doc);
        }
        double median0 = median(doc, 0), median8 = median(doc, 8), median64k = median(doc, 65536);
        assertTrue(median0 > 0 && median8 > 0, doc);
        // physics, not timing: 64 KiB cannot cross faster than 8 B on the same path
        assertTrue(median64k > median8, () -> "64 KiB median " + median64k + " <= 8 B median " + median8);
        assertTrue(doc.contains("\"provider\""), doc);
        assertFalse(doc.contains("\"wall_ms\": null"), "every size records its wall time:\n" + doc);
        // kernel TCP's congestion control shapes the large sizes: recorded where it applies, as the host has it
        String congestionControl = Files.readString(Path.of("/proc/sys/net/ipv4/tcp_congestion_control")).strip();
        assertEquals(transport.equals("ofi:tcp"), doc.contains("\"tcp_congestion_control\": \"" + congestionControl + "\""), doc);
    }

    /** The median half-RTT of one size, read from the JSON text. */
    private static double median(String doc, long size) {
        Matcher m = Pattern.compile("\"size_bytes\"\\s*:\\s*" + size + "\\b[\\s\\S]*?\"median\"\\s*:\\s*([0-9.eE+-]+)").matcher(doc);
        assertTrue(m.find(), () -> "no size " + size + " in\n" + doc);
        return Double.parseDouble(m.group(1));
    }
}
