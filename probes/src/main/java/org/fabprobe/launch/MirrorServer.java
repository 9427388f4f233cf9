package org.fabprobe.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.clock.Clock;
import org.fabprobe.runtime.Shutdown;

/**
 * {@code fabprobe mirror --listen [ADDR:]PORT}: serves measure processes one session after
 * another, as fi_pingpong's and ucx_perftest's servers do, until stopped (or after one with
 * {@code --once}). Each client must pass the {@link Handshake} first, in a thread of its own
 * and within {@link #HANDSHAKE_MS} for the whole handshake; one that fails it, speaks another
 * version, sends garbage or oversized frames or stalls is answered in one line where possible,
 * disconnected, and logged. Only an authenticated client makes the mirror busy: one that
 * authenticates during a session is told the mirror is busy, and clients that never
 * authenticate cannot keep a legitimate one out. At most {@link #PENDING_PER_ADDRESS}
 * handshakes per client address (and {@link #PENDING_MAX} in all) run at once; more are
 * closed at once.
 */
public final class MirrorServer {
    /**
     * Set by measure for its local child mirror: the transport the session will ask for, so the
     * child initializes that library while it starts (a hint; the session still says what to run).
     */
    static final String INITIALIZE_ENVIRONMENT = "FABPROBE_MIRROR_INITIALIZES";

    /**
     * Starts initializing the library of the transport measure announced, if it did (see
     * above), and the clock: its TSC calibration (~30 ms) otherwise ran when the session
     * opened the transport, on the start's critical path.
     */
    public static void initializeAnnouncedTransport() {
        String transport = System.getenv(INITIALIZE_ENVIRONMENT);
        if (transport != null) org.fabprobe.transport.Transports.initializeInBackground(transport);
        Clock.initializeInBackground();
    }

    /** How long a client may take for the whole handshake, and then for each step of the session's set-up. */
    static final long HANDSHAKE_MS = 5_000;
    /** Unauthenticated connections at once from one address, and from all. */
    static final int PENDING_PER_ADDRESS = 4, PENDING_MAX = 64;

    /**
     * @param listen        [ADDR:]PORT; without ADDR all interfaces with a secret, else loopback
     * @param secret        the shared secret, or null
     * @param insecure      allow listening beyond loopback without a secret
     * @param once          serve one authenticated session, then exit with its outcome
     * @param quiet         no log lines (a local child: measure reports for both)
     * @param sourceAddress address network transports bind to, or null: the control connection's
     * @param endsWithParent stop waiting for a session once the parent process is gone (a local
     *                       child whose measure process died before it connected)
     */
    public record Config(String listen, Secret secret, boolean insecure, boolean once, boolean quiet, String sourceAddress,
                         boolean endsWithParent) {}

    private final Config config;
    private final PrintStream log;
    private final AtomicBoolean busy = new AtomicBoolean();
    /** Handshakes in progress per client address. */
    private final Map<InetAddress, Integer> pending = new HashMap<>();
    private int pendingTotal;

    private MirrorServer(Config config, PrintStream log) {
        this.config = config;
        this.log = log;
    }

    /** Serves until stopped (returns only with --once: the session's exit code). */
    public static int serve(Config config, PrintStream out, PrintStream log) {
        return new MirrorServer(config, log).run(address(config), out);
    }

    /** Where to listen; refuses to listen beyond loopback without a secret unless --insecure. */
    static InetSocketAddress address(Config c) {
        String listen = c.listen();
        int colon = listen.lastIndexOf(':');
        String host = colon < 0 ? "" : listen.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        int port = Meeting.port(colon < 0 ? listen : listen.substring(colon + 1), "--listen " + listen);
        boolean open = c.secret() != null || c.insecure();
        try {
            InetAddress address = host.isEmpty() ? (open ? InetAddress.getByName("0.0.0.0") : InetAddress.getLoopbackAddress())
                    : InetAddress.getByName(host);
            if (!address.isLoopbackAddress() && !open) {
                throw new FabprobeException(ExitCode.USAGE, "without a secret the mirror listens on loopback only: give "
                        + "--secret-file FILE (from 'fabprobe secret') or " + Secret.ENVIRONMENT + ", or --insecure");
            }
            return new InetSocketAddress(address, port);
        } catch (java.net.UnknownHostException e) {
            throw new FabprobeException(ExitCode.USAGE, "--listen " + listen + ": unknown address '" + host + "'");
        }
    }

    private int run(InetSocketAddress address, PrintStream out) {
        try (ServerSocketChannel server = ServerSocketChannel.open(); Selector selector = Selector.open()) {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(address);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
            InetSocketAddress bound = (InetSocketAddress) server.getLocalAddress();
            if (config.secret() == null && !bound.getAddress().isLoopbackAddress()) {
                System.err.println("fabprobe mirror: warning: --insecure: anyone who reaches " + TcpRendezvous.describe(bound)
                        + " can run measurements here");
            }
            out.println("fabprobe mirror: listening on " + TcpRendezvous.describe(bound)
                    + (config.secret() == null ? " (no secret)" : " (clients must know the secret)"));
            out.flush();
            AtomicInteger onceResult = new AtomicInteger(-1);
            ProcessHandle parent = ProcessHandle.current().parent().orElse(ProcessHandle.current());
            while (onceResult.get() < 0) {
                selector.select(200);
                selector.selectedKeys().clear();
                if (Shutdown.requested() && !busy.get()) { // a session in progress winds up first
                    if (config.quiet()) return ExitCode.INTERRUPTED; // a local child: measure says it for both
                    throw Shutdown.interrupted();
                }
                if (config.endsWithParent() && !busy.get() && !parent.isAlive()) return ExitCode.PEER_TIMEOUT;
                SocketChannel client = server.accept();
                if (client == null) continue;
                InetAddress from = remoteAddress(client);
                if (!admit(from)) {
                    log(remote(client) + ": refused: too many unauthenticated connections at once");
                    closeQuietly(client);
                    continue;
                }
                AtomicBoolean released = new AtomicBoolean();
                Runnable handshakeOver = () -> {
                    if (released.compareAndSet(false, true)) release(from);
                };
                Thread.ofPlatform().daemon().name("fabprobe-mirror-client").start(() -> {
                    try {
                        Outcome o = client(client, handshakeOver, selector);
                        if (config.once() && o.served()) {
                            onceResult.compareAndSet(-1, o.exitCode());
                            selector.wakeup();
                        }
                    } finally {
                        handshakeOver.run();
                    }
                });
            }
            return onceResult.get();
        } catch (IOException e) {
            throw new FabprobeException(ExitCode.USAGE, "cannot listen on " + TcpRendezvous.describe(address) + ": " + e.getMessage());
        }
    }

    /** How a client ended: {@code served} when it authenticated and had its session. */
    private record Outcome(boolean served, int exitCode) {}

    /** Counts a handshake from {@code from} in, if that address and the mirror have room for it. */
    private synchronized boolean admit(InetAddress from) {
        int mine = pending.getOrDefault(from, 0);
        if (mine >= PENDING_PER_ADDRESS || pendingTotal >= PENDING_MAX) return false;
        pending.put(from, mine + 1);
        pendingTotal++;
        return true;
    }

    /** A handshake from {@code from} is over. */
    private synchronized void release(InetAddress from) {
        int left = pending.getOrDefault(from, 0) - 1;
        if (left > 0) pending.put(from, left);
        else pending.remove(from);
        pendingTotal--;
    }

    /** One client: the handshake under one deadline, then a session if the mirror is free. */
    private Outcome client(SocketChannel client, Runnable handshakeOver, Selector selector) {
        String who = remote(client);
        TcpControl channel;
        try {
            client.socket().setTcpNoDelay(true);
            channel = new TcpControl(client, "the measure process at " + who, HANDSHAKE_MS);
        } catch (IOException e) {
            log(who + ": " + e.getMessage());
            closeQuietly(client);
            return new Outcome(false, ExitCode.PEER_TIMEOUT);
        }
        try (channel; Shutdown.Guard guard = Shutdown.guard(() -> {})) {
            Rendezvous.Mirror rv;
            try {
                channel.handshakeWithin(HANDSHAKE_MS);
                rv = TcpRendezvous.accept(channel, config.secret());
            } catch (FabprobeException e) {
                if (!config.quiet() || e.exitCode() == ExitCode.PEER_TIMEOUT) logAlways(who + ": not served: " + e.getMessage());
                return new Outcome(false, e.exitCode());
            } catch (RuntimeException e) {
                log(who + ": not served: " + e.getClass().getSimpleName() + ": " + e.getMessage());
                return new Outcome(false, ExitCode.PEER_REFUSED);
            } finally {
                handshakeOver.run();
            }
            if (!busy.compareAndSet(false, true)) {
                channel.sendError("the mirror is busy with another session; try again when it is done", ExitCode.PEER_REFUSED);
                // closing now would reset the connection under the client's next write and lose the line
                channel.peerClosedWithin(HANDSHAKE_MS);
                log(who + ": refused: busy with another session");
                return new Outcome(false, ExitCode.PEER_REFUSED);
            }
            try {
                return session(rv, who);
            } finally {
                busy.set(false);
                selector.wakeup();
            }
        }
    }

    private Outcome session(Rendezvous.Mirror rv, String who) {
        try {
            log(who + ": " + (config.secret() == null ? "unauthenticated (no secret)" : "authenticated") + "; session starts");
            long start = System.nanoTime();
            SessionSpec spec = Session.serveMirror(rv, config.sourceAddress(), () -> {});
            log(who + " (" + rv.peerHost().getOrDefault("hostname", "?") + "): " + patternName(spec) + " on "
                    + spec.transport() + " done in " + Math.round((System.nanoTime() - start) / 1e6) + " ms");
            return new Outcome(true, ExitCode.OK);
        } catch (FabprobeException e) {
            // a local child's measure reports its own failures, but not its own death
            if (!config.quiet() || e.exitCode() == ExitCode.PEER_TIMEOUT) logAlways(who + ": " + e.getMessage());
            return new Outcome(true, e.exitCode());
        } catch (RuntimeException e) {
            log(who + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return new Outcome(true, ExitCode.TRANSPORT_ERROR);
        } catch (LinkageError e) { // a native library that does not load (the measure side says so too): one line
            Throwable root = e;
            while (root.getCause() != null) root = root.getCause();
            log(who + ": native library missing: " + root.getMessage());
            return new Outcome(true, ExitCode.MISSING_DEPENDENCY);
        } finally {
            Leftovers.removeDead();
        }
    }

    private static InetAddress remoteAddress(SocketChannel client) {
        try {
            return ((InetSocketAddress) client.getRemoteAddress()).getAddress();
        } catch (IOException | RuntimeException e) {
            return InetAddress.getLoopbackAddress();
        }
    }

    private static void closeQuietly(SocketChannel client) {
        try {
            client.close();
        } catch (IOException ignored) {
            // gone already
        }
    }

    private static String patternName(SessionSpec spec) {
        return switch (spec.schedule()) {
            case org.fabprobe.pattern.Schedule.PingPongSchedule s -> "ping-pong";
            case org.fabprobe.pattern.Schedule.StreamSchedule s -> "stream";
            case org.fabprobe.pattern.Schedule.ProbeSchedule s -> "LogP probes";
            case org.fabprobe.pattern.Schedule.OneSidedSchedule s -> "one-sided " + s.op().label();
            case org.fabprobe.pattern.Schedule.OneSidedStreamSchedule s -> "one-sided " + s.op().label() + " stream";
            case org.fabprobe.pattern.Schedule.TargetSchedule s -> "one-sided " + s.op().label() + ", target passive and active";
        };
    }

    private static String remote(SocketChannel client) {
        try {
            return TcpRendezvous.describe((InetSocketAddress) client.getRemoteAddress());
        } catch (IOException e) {
            return "?";
        }
    }

    private void log(String line) {
        if (!config.quiet()) logAlways(line);
    }

    private void logAlways(String line) {
        log.println("fabprobe mirror: " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + " " + line);
        log.flush();
    }
}
