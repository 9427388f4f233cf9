package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fabprobe.ExitCode;
import org.fabprobe.launch.Secret;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mirror started by hand, attacked and abused on loopback: every bad client is refused with
 * the documented exit code (or disconnected within a bounded time), logged, and the mirror
 * serves a correct session afterwards.
 */
class MirrorSecurityTest {
    @TempDir
    static Path dir;
    private static Path secretFile;
    private static Spawned mirror;
    private static int port;

    @BeforeAll
    static void startMirror() throws Exception {
        secretFile = dir.resolve("secret");
        Files.writeString(secretFile, Secret.generate().hex() + "\n");
        Files.setPosixFilePermissions(secretFile, PosixFilePermissions.fromString("rw-------"));
        mirror = Spawned.start("mirror", "--listen", "127.0.0.1:0", "--secret-file", secretFile.toString());
        port = Integer.parseInt(listeningPort(mirror));
    }

    @AfterAll
    static void stopMirror() throws Exception {
        if (mirror != null) mirror.close();
    }

    private static String[] sessionArgs(String... extra) {
        String[] base = {"pingpong", "-t", "ofi:tcp", "-s", "8", "-n", "200", "--warmup", "10", "--peer", "127.0.0.1:" + port,
                "--timeout", "3s"};
        String[] args = java.util.Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        return args;
    }

    /**
     * One client session against the shared mirror. A "busy" answer means the mirror is still
     * winding up the previous test's session (it frees itself just after that client has its
     * result): a client then tries again, as the message tells it to.
     */
    private static CliRun session(String... extra) throws InterruptedException {
        String[] args = sessionArgs(extra);
        CliRun run = CliRun.of(args);
        for (int attempt = 0; attempt < 40 && run.exitCode() == ExitCode.PEER_REFUSED && run.err().contains("busy"); attempt++) {
            Thread.sleep(250);
            run = CliRun.of(args);
        }
        return run;
    }

    /** A correct session, retried while the mirror is still busy winding up the last one. */
    private static void assertServesCorrectly() throws InterruptedException {
        CliRun run = null;
        for (int attempt = 0; attempt < 40; attempt++) {
            run = session("--secret-file", secretFile.toString());
            if (run.exitCode() != ExitCode.PEER_REFUSED || !run.err().contains("busy")) break;
            Thread.sleep(500);
        }
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("8 B"), run.out());
        assertTrue(mirror.process.isAlive(), "mirror died: " + mirror.err());
    }

    @Test
    void wrongSecretIsRefused() throws Exception {
        Path wrong = dir.resolve("wrong");
        Files.writeString(wrong, Secret.generate().hex());
        Files.setPosixFilePermissions(wrong, PosixFilePermissions.fromString("rw-------"));
        CliRun run = session("--secret-file", wrong.toString());
        assertEquals(ExitCode.PEER_REFUSED, run.exitCode(), run.toString());
        assertTrue(run.err().contains("refused the session: authentication failed"), run.err());
        assertServesCorrectly();
        assertTrue(mirror.err().contains("not served: authentication failed"), mirror.err());
    }

    @Test
    void noSecretIsRefused() throws Exception {
        CliRun run = session();
        assertEquals(ExitCode.PEER_REFUSED, run.exitCode(), run.toString());
        assertTrue(run.err().contains("requires a secret"), run.err());
        assertServesCorrectly();
    }

    @Test
    void aWorldReadableSecretFileIsRefusedBeforeConnecting() throws Exception {
        Path open = dir.resolve("open");
        Files.writeString(open, Secret.generate().hex());
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        CliRun run = session("--secret-file", open.toString());
        assertEquals(ExitCode.USAGE, run.exitCode(), run.toString());
        assertTrue(run.err().contains("readable by others"), run.err());
    }

    @Test
    void randomBytesAreAnsweredAndDisconnected() throws Exception {
        byte[] garbage = new byte[4096];
        new Random(42).nextBytes(garbage);
        garbage[0] = 0x10; // a length the mirror will not read (> 1 KiB before authentication)
        String answer = rawClient(garbage);
        assertTrue(answer.contains("protocol error"), answer);
        assertServesCorrectly();
    }

    @Test
    void aFrameClaimingTwoGibibytesIsRefusedWithoutAllocating() throws Exception {
        String answer = rawClient(ByteBuffer.allocate(5).putInt(Integer.MIN_VALUE).put((byte) 1).array());
        assertTrue(answer.contains("frame of 2147483648 bytes"), answer);
        assertServesCorrectly();
    }

    @Test
    void anotherProtocolVersionIsRefusedInOneLine() throws Exception {
        ByteArrayOutputStream auth = new ByteArrayOutputStream();
        var out = new java.io.DataOutputStream(auth);
        out.writeUTF("fabprobe");
        out.writeInt(99);
        out.writeInt(1);
        out.writeInt(32);
        out.write(new byte[32]);
        out.writeInt(32);
        out.write(new byte[32]);
        byte[] payload = auth.toByteArray();
        byte[] frame = ByteBuffer.allocate(5 + payload.length).putInt(payload.length + 1).put((byte) 1).put(payload).array();
        String answer = rawClient(frame);
        assertTrue(answer.contains("protocol version 99 not supported"), answer);
        assertServesCorrectly();
    }

    @Test
    void aSilentClientIsDisconnectedWithinTheHandshakeTime() throws Exception {
        long start = System.nanoTime();
        String answer = rawClient(new byte[0]);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertTrue(seconds < 30, "held for " + seconds + " s");
        assertTrue(answer.startsWith("\0") || answer.contains("fabprobe"), "no greeting: " + answer);
        assertServesCorrectly();
    }

    /**
     * Clients without the secret cannot keep one with it out: one trickling a byte a second
     * (reconnecting whenever the mirror hangs up) and a flood of reconnects, both from other
     * loopback addresses than the legitimate client's, while it authenticates in under a second
     * and runs its session.
     */
    @Test
    void unauthenticatedClientsCannotLockTheMirror() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicLong floodConnections = new java.util.concurrent.atomic.AtomicLong();
        Thread trickle = Thread.ofPlatform().daemon().start(() -> {
            while (!stop.get()) {
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port, InetAddress.getByName("127.0.0.2"), 0)) {
                    OutputStream out = s.getOutputStream();
                    while (!stop.get()) {
                        out.write(0);
                        out.flush();
                        Thread.sleep(1000);
                    }
                } catch (Exception e) {
                    // the mirror hung up on us: come back
                }
            }
        });
        Thread flood = Thread.ofPlatform().daemon().start(() -> {
            while (!stop.get()) { // six silent connections at a time, more than one address may hold
                java.util.List<Socket> held = new java.util.ArrayList<>();
                try {
                    for (int i = 0; i < 6; i++) {
                        held.add(new Socket(InetAddress.getLoopbackAddress(), port, InetAddress.getByName("127.0.0.3"), 0));
                        floodConnections.incrementAndGet();
                    }
                    Thread.sleep(300);
                } catch (Exception e) {
                    // refused: again
                } finally {
                    for (Socket h : held) {
                        try {
                            h.close();
                        } catch (java.io.IOException ignored) {
                            // closed by the mirror already
                        }
                    }
                }
            }
        });
        try {
            Thread.sleep(1500); // the trickle has sent its first bytes, the flood has filled its share
            for (int round = 0; round < 3; round++) {
                long start = System.nanoTime();
                var rv = org.fabprobe.launch.TcpRendezvous.connect(new java.net.InetSocketAddress("127.0.0.1", port),
                        "the mirror", Secret.fromFileOrEnvironment(secretFile), false, 5_000);
                double seconds = (System.nanoTime() - start) / 1e9;
                rv.close();
                assertTrue(seconds < 1, "the handshake took " + seconds + " s beside the hostile clients");
                assertServesCorrectly(); // also waits out the session the bare handshake left behind
            }
            assertTrue(floodConnections.get() > 10, "the flood did not run: " + floodConnections.get());
            assertTrue(mirror.err().contains("too many unauthenticated connections"), mirror.err());
        } finally {
            stop.set(true);
            trickle.join(5000);
            flood.join(5000);
        }
    }

    @Test
    void aSecondClientDuringASessionIsToldTheMirrorIsBusyAndAKilledMeasureIsSurvived() throws Exception {
        int sessionsBefore = count(mirror.err(), "session starts");
        try (Spawned longRun = Spawned.start(java.util.List.of(), Map.of(Secret.ENVIRONMENT, Files.readString(secretFile).strip()),
                "pingpong", "-t", "ofi:tcp", "-s", "8", "-n", "10000000", "--peer", "127.0.0.1:" + port, "--timeout", "2s")) {
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (count(mirror.err(), "session starts") == sessionsBefore && longRun.process.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(longRun.process.isAlive(), "the long session did not start: " + longRun.err());
            CliRun second = CliRun.of(sessionArgs("--secret-file", secretFile.toString())); // once: it must hear "busy"
            assertEquals(ExitCode.PEER_REFUSED, second.exitCode(), second.toString());
            assertTrue(second.err().contains("busy"), second.err());
            assertTrue(longRun.process.isAlive(), "the long session ended early: " + longRun.err());
            longRun.process.destroyForcibly().waitFor(); // kill -9 of measure mid-run
        }
        assertServesCorrectly();
        assertTrue(mirror.err().contains("the measure process at 127.0.0.1:"), mirror.err());
        assertTrue(mirror.err().contains(" went away during "), mirror.err());
    }

    @Test
    void aMirrorKilledMidRunIsReportedByMeasure() throws Exception {
        try (Spawned doomed = Spawned.start("mirror", "--listen", "127.0.0.1:0", "--insecure")) {
            String port = listeningPort(doomed);
            try (Spawned measure = Spawned.start("pingpong", "-t", "ofi:tcp", "-s", "8", "-n", "10000000",
                    "--peer", "127.0.0.1:" + port, "--timeout", "2s")) {
                awaitTimedRounds(doomed);
                assertTrue(doomed.err().contains("unauthenticated (no secret); session starts"), doomed.err());
                doomed.process.destroyForcibly().waitFor();
                CliRun run = measure.await(Duration.ofSeconds(60));
                assertEquals(ExitCode.PEER_TIMEOUT, run.exitCode(), run.toString());
                assertTrue(run.err().contains("the mirror at 127.0.0.1:" + port + " went away"), run.err());
            }
        }
    }

    @Test
    void aMirrorStoppedBySigtermTellsMeasure() throws Exception {
        try (Spawned stopped = Spawned.start("mirror", "--listen", "127.0.0.1:0", "--insecure")) {
            String port = listeningPort(stopped);
            // shared memory tells measure nothing when its peer goes: only the mirror's last word can
            try (Spawned measure = Spawned.start("pingpong", "-t", "ofi:shm", "-s", "8", "-n", "10000000",
                    "--peer", "127.0.0.1:" + port, "--timeout", "10m")) {
                awaitTimedRounds(stopped);
                stopped.process.destroy(); // SIGTERM
                stopped.process.waitFor();
                CliRun run = measure.await(Duration.ofSeconds(120));
                assertEquals(ExitCode.PEER_TIMEOUT, run.exitCode(), run.toString());
                assertTrue(run.err().contains("the mirror was stopped (Ctrl-C or SIGTERM)"), run.err());
            }
        }
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) n++;
        return n;
    }

    /**
     * Sends {@code bytes} as a client would and returns everything the mirror answers until it
     * hangs up (a client that never authenticates is never told "busy").
     */
    private static String rawClient(byte[] bytes) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(bytes);
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            try {
                in.transferTo(got);
            } catch (java.net.SocketException reset) {
                // the mirror hung up while our bytes were still arriving
            }
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }

    /** The port a mirror started with --listen 127.0.0.1:0 says it listens on. */
    private static String listeningPort(Spawned mirror) throws Exception {
        assertTrue(mirror.awaitOutput("listening on", Duration.ofSeconds(60)), "mirror did not start: " + mirror.err());
        Matcher m = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)").matcher(mirror.out());
        assertTrue(m.find(), mirror.out());
        return m.group(1);
    }

    /** Waits until the mirror's session starts, then 2 s more: the pair is in its timed rounds. */
    private static void awaitTimedRounds(Spawned mirror) throws InterruptedException {
        long deadline = System.nanoTime() + 90_000_000_000L;
        while (!mirror.err().contains("session starts") && System.nanoTime() < deadline) Thread.sleep(50);
        Thread.sleep(2000);
    }
}
