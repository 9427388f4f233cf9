package org.fabprobe.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.bindings.NativeEnvironment;
import org.fabprobe.runtime.Shutdown;
import org.fabprobe.runtime.ThisJvm;
import org.fabprobe.transport.TransportName;
import org.fabprobe.transport.Transports;

/**
 * Local mode: the measure process starts its own mirror, a second JVM with the same class
 * path and flags running {@code fabprobe mirror --listen 127.0.0.1:0 --once}, exactly what a
 * user starts by hand on another host, with a fresh secret in its environment. It leaves no
 * file behind: the control channel is a loopback socket, and the child ends with the session.
 *
 * <p>Start-up time is most of a short run's wall time, so the child starts as early as it can:
 * {@link #prestart} spawns it as soon as measure's command line has parsed and passed its checks
 * (a bad one starts no child), and the child's own command line is served without picocli (see
 * {@link #isChild}).
 */
public final class LocalMirror extends Meeting {
    static final Pattern LISTENING = Pattern.compile("listening on (\\S+):(\\d+)");
    /** The child's arguments; {@code Main} serves exactly these without parsing them. */
    private static final List<String> CHILD_ARGS = List.of("mirror", "--listen", "127.0.0.1:0", "--once", "--quiet");

    /** A child started before its command line was parsed, not yet claimed by a meeting. */
    private record Child(Process process, Secret secret, String transport) {}
    private static Child prestarted;
    /** Mirror processes this JVM has started. */
    private static int started;

    private final SessionSpec spec;
    private final boolean insecure;
    private Secret secret;
    private Process process;

    LocalMirror(SessionSpec spec, boolean insecure) {
        this.spec = spec;
        this.insecure = insecure;
    }

    /**
     * Starts the mirror child for a checked command line that will meet a local mirror over
     * {@code transport}, before the command loads its classes, and this side's transport
     * library with it. A child no meeting claims (the run failed first) is ended by
     * {@link #discardPrestarted}.
     */
    public static synchronized void prestart(String transport) {
        // under a launcher or over MPI the ranks meet through the launcher, never a local child
        if (prestarted != null || Launcher.detect() != null || TransportName.isMpi(transport)) return;
        try {
            Secret secret = Secret.generate();
            prestarted = new Child(spawn(transport, secret), secret, transport);
        } catch (UncheckedIOException e) {
            return; // the meeting tries again and reports it
        }
        Transports.initializeInBackground(transport);
    }

    /** How many mirror processes this JVM has started (tests: a bad command line starts none). */
    public static synchronized int started() {
        return started;
    }

    /** Ends a prestarted child that no meeting claimed. */
    public static synchronized void discardPrestarted() {
        if (prestarted != null) prestarted.process().destroyForcibly();
        prestarted = null;
    }

    private static synchronized Child claimPrestarted(String transport) {
        Child child = prestarted;
        prestarted = null;
        if (child != null && child.transport().equals(transport) && child.process().isAlive()) return child;
        if (child != null) child.process().destroyForcibly();
        return null;
    }

    /** Whether {@code args} are exactly a local child's: served without picocli, whose start-up cost 0.1-0.4 s there. */
    public static boolean isChild(String[] args) {
        return List.of(args).equals(CHILD_ARGS);
    }

    /** Serves as a local child: what {@code fabprobe mirror} would do with {@link #CHILD_ARGS}, ending with its parent. */
    public static int serveChild() {
        return MirrorServer.serve(new MirrorServer.Config("127.0.0.1:0", Secret.fromFileOrEnvironment(null), false, true, true,
                null, true), System.out, System.err);
    }

    private static Process spawn(String transport, Secret secret) {
        ProcessBuilder builder = new ProcessBuilder(command());
        // ProcessBuilder copies Java's start-up snapshot of the environment, not setenv's changes
        NativeEnvironment.REQUIRED.forEach(builder.environment()::putIfAbsent);
        builder.environment().put(Secret.ENVIRONMENT, secret.hex());
        builder.environment().put(MirrorServer.INITIALIZE_ENVIRONMENT, transport);
        try {
            Process process = builder.redirectError(ProcessBuilder.Redirect.INHERIT).start();
            synchronized (LocalMirror.class) {
                started++;
            }
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the mirror process", e);
        }
    }

    @Override
    Optional<Rendezvous> meet() {
        long timeoutMs = spec.timeout().toMillis();
        Child child = claimPrestarted(spec.transport());
        if (child != null) {
            process = child.process();
            secret = child.secret();
        } else {
            secret = Secret.generate();
            process = spawn(spec.transport(), secret);
            Transports.initializeInBackground(spec.transport()); // while the mirror starts
        }
        InetSocketAddress address = awaitAddress(Math.max(timeoutMs, 10_000));
        return Optional.of(TcpRendezvous.connect(address, "the mirror process", secret, insecure, timeoutMs));
    }

    /** Reads the child's "listening on ADDRESS:PORT" line; the rest of its output is discarded. */
    private InetSocketAddress awaitAddress(long waitMs) {
        CompletableFuture<InetSocketAddress> announced = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("fabprobe-mirror-stdout").start(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    Matcher m = LISTENING.matcher(line);
                    if (!announced.isDone() && m.find()) {
                        announced.complete(new InetSocketAddress(InetAddress.getByName(m.group(1)), Integer.parseInt(m.group(2))));
                    }
                }
            } catch (IOException | RuntimeException ignored) {
                // the child is gone; the wait below says so
            }
            announced.completeExceptionally(new IllegalStateException("no address"));
        });
        try {
            long deadline = System.nanoTime() + waitMs * 1_000_000L;
            while (true) { // a JVM start-up is no reason to sit out a Ctrl-C
                if (Shutdown.requested()) throw Shutdown.interrupted();
                long left = Math.min((deadline - System.nanoTime()) / 1_000_000L, 100);
                if (left <= 0) throw new TimeoutException();
                try {
                    return announced.get(left, TimeUnit.MILLISECONDS);
                } catch (TimeoutException notYet) {
                    // look again
                }
            }
        } catch (ExecutionException e) {
            try {
                process.waitFor(2, TimeUnit.SECONDS); // its output closed: it is on its way out
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            throw new FabprobeException(ExitCode.PEER_TIMEOUT, "the mirror process ended before it listened (" + peerStatus() + ")");
        } catch (TimeoutException e) {
            throw new FabprobeException(ExitCode.PEER_TIMEOUT, "the mirror process did not start listening within " + waitMs + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Shutdown.interrupted();
        }
    }

    private static List<String> command() {
        List<String> cmd = ThisJvm.command();
        cmd.addAll(CHILD_ARGS);
        return cmd;
    }

    @Override
    String describe() {
        return "local";
    }

    @Override
    boolean measuresHere() {
        return true;
    }

    @Override
    void abandon() {
        if (process != null) process.destroyForcibly();
    }

    @Override
    String peerStatus() {
        if (process == null) return "";
        try {
            process.waitFor(1, TimeUnit.SECONDS); // asked on an error path: a dying mirror is reaped by now
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return process.isAlive() ? "mirror process still running" : "mirror process exited with code " + process.exitValue();
    }

    /**
     * Waits for the mirror to finish by itself; kills it if it does not, or at once after a
     * signal (this side's transport is closed by now, so the mirror holds nothing of ours).
     */
    @Override
    public void close() {
        if (process == null) return;
        try {
            if (Shutdown.requested() || !process.waitFor(3, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
