package org.fabprobe.launch;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;

/**
 * The secret measure and mirror share: 32 random bytes written as hex. It keys HMAC-SHA256
 * in the handshake and never crosses the wire.
 */
public final class Secret {
    public static final String ENVIRONMENT = "FABPROBE_SECRET";
    private static final int BYTES = 32;
    private static final int MIN_BYTES = 16;
    /** The kernel's random source, as the JDK's NativePRNG reads it. */
    private static final String URANDOM = "/dev/urandom";

    private final byte[] key;

    private Secret(byte[] key) {
        this.key = key;
    }

    public static Secret generate() {
        return new Secret(nonce(BYTES));
    }

    /** The hex text a secret file holds. */
    public String hex() {
        return HexFormat.of().formatHex(key);
    }

    /** From --secret-file, else FABPROBE_SECRET, else none (null). */
    public static Secret fromFileOrEnvironment(Path file) {
        if (file != null) return fromFile(file);
        String env = System.getenv(ENVIRONMENT);
        return env == null || env.isBlank() ? null : parse(env, ENVIRONMENT);
    }

    static Secret fromFile(Path file) {
        if (Files.isDirectory(file)) throw new FabprobeException(ExitCode.USAGE, "secret file " + file + " is a directory");
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            if (perms.stream().anyMatch(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"))) {
                throw new FabprobeException(ExitCode.USAGE, "secret file " + file + " is readable by others (chmod 600 " + file + ")");
            }
            return parse(Files.readString(file, StandardCharsets.US_ASCII), file.toString());
        } catch (NoSuchFileException e) {
            throw new FabprobeException(ExitCode.USAGE, "cannot read secret file " + file + ": no such file");
        } catch (IOException e) {
            throw new FabprobeException(ExitCode.USAGE, "cannot read secret file " + file + ": " + e.getMessage());
        } catch (UnsupportedOperationException e) {
            throw new FabprobeException(ExitCode.USAGE, "secret file " + file + ": no POSIX permissions on this file system");
        }
    }

    static Secret parse(String text, String where) {
        String hex = text.strip();
        byte[] key;
        try {
            key = HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException e) {
            throw new FabprobeException(ExitCode.USAGE, where + ": a secret is hex text, as 'fabprobe secret' writes it");
        }
        if (key.length < MIN_BYTES) {
            throw new FabprobeException(ExitCode.USAGE, where + ": a secret needs at least " + MIN_BYTES + " bytes (" + 2 * MIN_BYTES + " hex digits)");
        }
        return new Secret(key);
    }

    /** HMAC-SHA256 over the parts, in order. */
    byte[] mac(byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            for (byte[] p : parts) mac.update(p);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** Compares in constant time, so timing tells an attacker nothing about the expected MAC. */
    static boolean same(byte[] a, byte[] b) {
        return MessageDigest.isEqual(a, b);
    }

    /**
     * Random bytes read from the kernel directly: a SecureRandom's first use sets up the
     * JDK's security providers, 10-35 ms on a cold start just before measure can spawn its
     * mirror. SecureRandom where there is no /dev/urandom.
     */
    static byte[] nonce(int bytes) {
        try (InputStream in = new FileInputStream(URANDOM)) {
            byte[] n = in.readNBytes(bytes);
            if (n.length == bytes) return n;
        } catch (IOException e) {
            // not Linux-like: the JDK's own source below
        }
        byte[] n = new byte[bytes];
        new SecureRandom().nextBytes(n);
        return n;
    }
}
