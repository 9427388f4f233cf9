package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fabprobe.launch.Secret;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two "hosts": network namespaces joined by a veth pair, 10.77.0.1 (measure) and 10.77.0.2
 * (mirror). The mirror runs `fabprobe mirror --listen` in one, measure runs `--peer` in the
 * other, as on two machines. Needs root (ip netns); skipped with the reason otherwise. The
 * namespaces are removed after the tests, also when they fail.
 */
class BetweenHostsTest {
    private static final String TAG = Long.toString(ProcessHandle.current().pid());
    private static final String MEASURE_NS = "fpA" + TAG, MIRROR_NS = "fpB" + TAG;
    private static final String MEASURE_IP = "10.77.0.1", MIRROR_IP = "10.77.0.2";
    private static Spawned mirror;
    private static Map<String, String> secretEnv;

    @BeforeAll
    static void twoHosts() throws Exception {
        Assumptions.assumeTrue(isRoot(), "skipped: creating network namespaces needs root (CI runs as root)");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip")),
                "skipped: no 'ip' command (Debian package iproute2)");
        removeNamespaces(); // a crashed earlier run of this very pid is impossible, but be sure
        String a = "fpa" + TAG, b = "fpb" + TAG;
        ip("netns", "add", MEASURE_NS);
        ip("netns", "add", MIRROR_NS);
        ip("link", "add", a, "type", "veth", "peer", "name", b);
        ip("link", "set", a, "netns", MEASURE_NS);
        ip("link", "set", b, "netns", MIRROR_NS);
        ip("-n", MEASURE_NS, "addr", "add", MEASURE_IP + "/24", "dev", a);
        ip("-n", MIRROR_NS, "addr", "add", MIRROR_IP + "/24", "dev", b);
        for (String[] ns : new String[][] {{MEASURE_NS, a}, {MIRROR_NS, b}}) {
            ip("-n", ns[0], "link", "set", ns[1], "up");
            ip("-n", ns[0], "link", "set", "lo", "up");
        }
        secretEnv = Map.of(Secret.ENVIRONMENT, Secret.generate().hex());
        mirror = Spawned.start(List.of("ip", "netns", "exec", MIRROR_NS), secretEnv, "mirror", "--listen", MIRROR_IP + ":7470");
        assertTrue(mirror.awaitOutput("listening on " + MIRROR_IP + ":7470", Duration.ofSeconds(60)),
                "mirror did not start: " + mirror.err());
    }

    @AfterAll
    static void removeHosts() throws Exception {
        if (mirror != null) mirror.close();
        removeNamespaces();
    }

    @Test
    void pingPongAcrossTheVethPairOnEachNetworkTransport() throws Exception {
        for (String transport : List.of("ofi:tcp", "ofi:udp", "ucx:tcp")) {
            CliRun run = measure("pingpong", "-t", transport, "-s", "8,64K", "-n", "300", "--warmup", "20", "--json", "-");
            assertEquals(0, run.exitCode(), transport + ": " + run);
            String json = run.out();
            assertTrue(json.matches("(?s).*\"source_address\":\\s*\"" + MEASURE_IP + "\".*"), transport + " not bound to the veth: " + json);
            assertTrue(json.matches("(?s).*\"meeting\":\\s*\"peer " + MIRROR_IP + ":7470\".*"), json);
            assertTrue(json.contains("\"mirror_host\""), json);
            org.fabprobe.result.Schemas.validated(json); // with the other host's facts and the --peer meeting
            assertTrue(json.matches("(?s).*\"size_bytes\":\\s*65536.*"), json);
            if (transport.startsWith("ucx")) assertTrue(json.contains("fpa" + TAG), "UCX_NET_DEVICES is not the veth: " + json);
        }
        assertTrue(mirror.process.isAlive(), "the mirror stopped: " + mirror.err());
    }

    @Test
    void oneSidedOperationsAcrossTheVethPair() throws Exception {
        // remote keys and addresses cross hosts over the control channel; ucx:tcp emulates read
        for (String[] run : new String[][] {{"ofi:tcp", "write"}, {"ofi:tcp", "read"}, {"ofi:tcp", "fetch-add"},
                {"ucx:tcp", "write"}, {"ucx:tcp", "read"}}) {
            String where = run[0] + " --op " + run[1];
            CliRun r = measure("pingpong", "-t", run[0], "--op", run[1], "-s", "8", "-n", "200", "--warmup", "20", "--json", "-");
            assertEquals(0, r.exitCode(), where + ": " + r);
            var doc = org.fabprobe.result.ResultJson.read(r.out(), org.fabprobe.result.PingPongDocument.class);
            org.fabprobe.result.Schemas.validated(r.out());
            assertEquals(run[1], doc.header().settings().op(), where);
            assertEquals(MEASURE_IP, doc.header().settings().peer().sourceAddress(), where + " not bound to the veth");
            assertEquals(8, doc.sizes().getFirst().sizeBytes(), where);
            assertTrue(doc.sizes().getFirst().halfRttNs().median() > 0, where);
        }
        assertTrue(mirror.process.isAlive(), "the mirror stopped: " + mirror.err());
    }

    @Test
    void plogpAcrossTheVethPair() throws Exception {
        CliRun run = measure("plogp", "-t", "ofi:tcp", "-s", "0,1K,8K", "--adaptive-limit", "0", "--max-reps", "200",
                "--time-cap", "30ms", "--json", "-");
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("\"o_s_ns\""), run.out());
        org.fabprobe.result.Schemas.validated(run.out());
        assertTrue(run.out().matches("(?s).*\"source_address\":\\s*\"" + MEASURE_IP + "\".*"), run.out());
    }

    private static CliRun measure(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--peer", MIRROR_IP, "--timeout", "10s"));
        try (Spawned m = Spawned.start(List.of("ip", "netns", "exec", MEASURE_NS), secretEnv, all.toArray(String[]::new))) {
            return m.await(Duration.ofMinutes(3));
        }
    }

    private static void removeNamespaces() throws Exception {
        for (String ns : List.of(MEASURE_NS, MIRROR_NS)) {
            if (Files.exists(Path.of("/run/netns", ns))) run("ip", "netns", "del", ns);
        }
    }

    private static void ip(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        int code = run(cmd.toArray(String[]::new));
        assertEquals(0, code, "failed: " + String.join(" ", cmd));
    }

    private static int run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    static boolean isRoot() {
        try {
            return "0".equals(String.valueOf(Files.getAttribute(Path.of("/proc/self"), "unix:uid")));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
