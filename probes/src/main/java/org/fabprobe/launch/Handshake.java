package org.fabprobe.launch;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.launch.TcpControl.Kind;
import org.fabprobe.launch.TcpControl.Payload;

/**
 * Mutual challenge-response before anything else is read: each side proves it knows the
 * shared secret by an HMAC-SHA256 over both fresh nonces (the secret never crosses the
 * wire, and a recorded exchange cannot be replayed against new nonces).
 *
 * <pre>
 * mirror  HELLO   magic, version, mode, nonce_m                     --> measure
 * measure AUTH    magic, version, mode, nonce_c, HMAC(k, "measure" nonce_m nonce_c) --> mirror
 * mirror  WELCOME HMAC(k, "mirror" nonce_c nonce_m), mirror's host facts        --> measure
 * </pre>
 * Mode 0 (no secret) exists only for a mirror started with --insecure or on loopback.
 */
final class Handshake {
    static final String MAGIC = "fabprobe";
    /** Bumped whenever a frame's layout changes: peers of different versions refuse each other. */
    static final int VERSION = 5; // 2: probe batches end with the mirror's JIT time; 3: ping-pong sentinels; 4: batches and JIT batches end with the mirror's blocked-in-loop count; 5: ping-pong ends with the mirror's per-size disturbances
    private static final int NONCE_BYTES = 32;
    private static final int HMAC = 1, NONE = 0;
    private static final byte[] MEASURE = "measure".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MIRROR = "mirror".getBytes(StandardCharsets.US_ASCII);

    private Handshake() {}

    /** Mirror side. Returns normally only for an authenticated peer; throws (after a one-line answer) otherwise. */
    static void asMirror(TcpControl channel, Secret secret) {
        byte[] mine = Secret.nonce(NONCE_BYTES);
        channel.sendFrame(Kind.HELLO, new Payload.Writer().text(MAGIC).int32(VERSION).int32(secret == null ? NONE : HMAC)
                .blob(mine).bytes());
        Payload.Reader auth;
        try {
            auth = channel.receiveFrame(Kind.AUTH);
        } catch (TcpControl.ProtocolError e) {
            channel.sendError(e.getMessage(), ExitCode.PEER_REFUSED);
            throw e;
        }
        String magic = auth.text();
        int version = auth.int32();
        if (!magic.equals(MAGIC)) throw refuse(channel, "not a fabprobe client");
        if (version != VERSION) {
            throw refuse(channel, "protocol version " + version + " not supported: this mirror speaks version " + VERSION
                    + " (run the same fabprobe release on both hosts)");
        }
        int mode = auth.int32();
        byte[] theirs = auth.blob();
        byte[] mac = auth.blob();
        auth.end();
        if (secret != null) {
            if (mode != HMAC || theirs.length != NONCE_BYTES || !Secret.same(mac, secret.mac(MEASURE, mine, theirs))) {
                throw refuse(channel, "authentication failed (a different secret, or none)");
            }
        }
        byte[] proof = secret == null ? new byte[0] : secret.mac(MIRROR, theirs, mine);
        Payload.Writer welcome = new Payload.Writer().blob(proof);
        writeMap(welcome, HostFacts.collect());
        channel.sendFrame(Kind.WELCOME, welcome.bytes());
        channel.authenticated();
    }

    /**
     * Measure side: returns the mirror's host facts once the mirror has proven it knows the
     * secret (or, with no secret on either side, once the user has accepted that).
     */
    static Map<String, String> asMeasure(TcpControl channel, Secret secret, boolean insecure) {
        Payload.Reader hello = channel.receiveFrame(Kind.HELLO);
        String magic = hello.text();
        int version = hello.int32();
        if (!magic.equals(MAGIC)) throw refused(channel, "is not a fabprobe mirror");
        if (version != VERSION) {
            throw refused(channel, "speaks protocol version " + version + ", this fabprobe version " + VERSION
                    + " (run the same fabprobe release on both hosts)");
        }
        int mode = hello.int32();
        byte[] theirs = hello.blob();
        hello.end();
        if (mode == HMAC && secret == null) {
            throw refused(channel, "requires a secret: give the mirror's with --secret-file FILE or " + Secret.ENVIRONMENT);
        }
        if (mode == NONE && secret != null && !insecure) {
            throw refused(channel, "runs without a secret (--insecure) and cannot prove who it is; add --insecure to measure anyway");
        }
        if (mode == NONE) System.err.println("fabprobe: warning: " + channel.peer() + " is not authenticated (no secret)");
        byte[] mine = Secret.nonce(NONCE_BYTES);
        byte[] mac = mode == HMAC ? secret.mac(MEASURE, theirs, mine) : new byte[0];
        channel.sendFrame(Kind.AUTH, new Payload.Writer().text(MAGIC).int32(VERSION).int32(mode).blob(mine).blob(mac).bytes());
        Payload.Reader welcome = channel.receiveFrame(Kind.WELCOME);
        byte[] proof = welcome.blob();
        if (mode == HMAC && !Secret.same(proof, secret.mac(MIRROR, mine, theirs))) {
            throw refused(channel, "did not prove it knows the secret");
        }
        Map<String, String> host = readMap(welcome);
        welcome.end();
        channel.authenticated();
        return host;
    }

    private static FabprobeException refuse(TcpControl channel, String reason) {
        channel.sendError(reason, ExitCode.PEER_REFUSED);
        return new FabprobeException(ExitCode.PEER_REFUSED, reason);
    }

    private static FabprobeException refused(TcpControl channel, String reason) {
        return new FabprobeException(ExitCode.PEER_REFUSED, channel.peer() + " " + reason);
    }

    static void writeMap(Payload.Writer w, Map<String, String> map) {
        w.int32(map.size());
        map.forEach((k, v) -> w.text(k).text(v));
    }

    static Map<String, String> readMap(Payload.Reader r) {
        int n = r.int32();
        if (n < 0 || n > 256) throw new TcpControl.ProtocolError("map of " + n + " entries");
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) map.put(r.text(), r.text());
        return map;
    }
}
