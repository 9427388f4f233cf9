package org.fabprobe.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.Progress;
import org.fabprobe.bindings.NativeEnvironment;
import org.fabprobe.bindings.mpi.Mpi;
import org.fabprobe.runtime.Shutdown;
import org.fabprobe.runtime.ThisJvm;
import org.fabprobe.transport.mpi.MpiSelection;

/**
 * The one local launcher: runs this very command line as N ranks under the MPI's own launcher
 * (mpirun.openmpi / mpiexec.mpich) on this host, relays their output, and hands back what rank 0
 * replies: its result as JSON, sent over a loopback socket that only the launched ranks know
 * (a token in their environment). Pair commands over {@code mpi:} run as 2 ranks; collectives,
 * multipair and matrix as many as they ask. Ranks set their MPI environment themselves
 * ({@link MpiSelection}).
 */
public final class LocalLauncher {
    /** PORT:TOKEN of the launching process's reply socket, in the environment of the ranks it starts. */
    private static final String REPLY = "FABPROBE_REPLY";
    /** A reply is one document: refuse anything larger (a stray client, a runaway rank). */
    private static final int MAX_REPLY_BYTES = 1 << 30;

    private LocalLauncher() {}

    /** What the launched ranks did: the launcher's exit code, rank 0's reply if it sent one, the last error line they printed. */
    public record Launched(int exitCode, Optional<String> reply, String lastError) {}

    /** The ranks failed: their own lines (relayed) said why; the exit code and the last of those lines are theirs. */
    public static final class RanksFailed extends FabprobeException {
        public RanksFailed(int exitCode, String lastError) {
            super(exitCode, lastError == null ? "the launched ranks failed (exit " + exitCode + ")" : lastError);
        }
    }

    /** True inside a rank started by mpirun / mpiexec (Open MPI, MPICH Hydra, PMIx) or srun. */
    public static boolean underLauncher() {
        return Launcher.detect() != null;
    }

    /** True inside a rank this launcher started for a reply: rank 0 sends its result with {@link #reply}, nothing is printed. */
    public static boolean replyWanted() {
        return System.getenv(REPLY) != null && underLauncher();
    }

    /** The value of -t / --transport on a command line, or null. */
    public static String transportArgument(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if ((a.equals("-t") || a.equals("--transport")) && i + 1 < args.length) return args[i + 1];
            if (a.startsWith("--transport=")) return a.substring("--transport=".length());
            if (a.startsWith("-t") && a.length() > 2 && !a.startsWith("--")) return a.substring(2);
        }
        return null;
    }

    /**
     * Runs {@code args} as {@code ranks} ranks. With {@code wantReply} the ranks know where to
     * reply (rank 0 sends its result instead of printing it); without, they print as any run does.
     */
    public static Launched run(String[] args, MpiSelection selection, int ranks, boolean wantReply, PrintStream out,
                               PrintStream err) {
        List<String> cmd = launcherCommand(selection.implementation(), ranks);
        // the ranks' stderr is the launcher's pipe: rank 0 hears that it ends on a terminal (ours)
        boolean terminal = Progress.stderrIsTerminal();
        boolean openMpi = selection.implementation() == Mpi.Implementation.OPENMPI;
        if (terminal && openMpi) cmd.addAll(List.of("-x", Progress.RELAYED_TO_TERMINAL));
        if (wantReply && openMpi) cmd.addAll(List.of("-x", REPLY));
        cmd.addAll(ThisJvm.command());
        cmd.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(cmd);
        NativeEnvironment.REQUIRED.forEach(builder.environment()::putIfAbsent);
        if (terminal) builder.environment().put(Progress.RELAYED_TO_TERMINAL, "1");
        else builder.environment().remove(Progress.RELAYED_TO_TERMINAL);
        builder.environment().remove(REPLY); // a rank that launches again replies to its own launcher only
        if (openMpi && isRoot()) {
            builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
            builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        }
        try (ReplySocket replies = wantReply ? new ReplySocket() : null) {
            if (replies != null) builder.environment().put(REPLY, replies.address());
            Process process = builder.start();
            try (Shutdown.Guard guard = Shutdown.guard(() -> process.descendants().forEach(ProcessHandle::destroyForcibly))) {
                Relay relay = new Relay(out, err);
                Thread o = relay(process.getInputStream(), relay::out);
                Thread e = relay(process.getErrorStream(), relay::err);
                int code = process.waitFor();
                o.join();
                e.join();
                // Ctrl-C reaches the launcher and the ranks too: their exit code is the launcher's, not ours
                if (Shutdown.requested()) throw Shutdown.interrupted();
                return new Launched(code, replies == null || code != ExitCode.OK ? Optional.empty() : replies.received(),
                        relay.lastError());
            }
        } catch (IOException e) {
            throw new FabprobeException(ExitCode.MISSING_DEPENDENCY, "cannot start " + cmd.getFirst() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Shutdown.interrupted();
        }
    }

    /**
     * Runs {@code args} as {@code ranks} ranks and returns rank 0's reply; throws {@link RanksFailed}
     * when they failed (their lines said why) and an error when they ended without a reply.
     */
    public static String runForReply(String[] args, MpiSelection selection, int ranks, PrintStream out, PrintStream err) {
        Launched launched = run(args, selection, ranks, true, out, err);
        if (launched.exitCode() != ExitCode.OK) throw new RanksFailed(launched.exitCode(), launched.lastError());
        return launched.reply().orElseThrow(() -> new FabprobeException(ExitCode.TRANSPORT_ERROR,
                args[0] + ": the " + ranks + " launched ranks ended without a result"));
    }

    /** Rank 0 of a launch that wants a reply: sends {@code json} to the launching process. */
    public static void reply(String json) {
        String[] portAndToken = System.getenv(REPLY).split(":", 2);
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(portAndToken[0]));
             OutputStream out = socket.getOutputStream()) {
            out.write((portAndToken[1] + "\n").getBytes(StandardCharsets.US_ASCII));
            out.write(json.getBytes(StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            throw new FabprobeException(ExitCode.TRANSPORT_ERROR, "cannot hand the result to the launching process: " + e.getMessage());
        }
    }

    /**
     * A loopback socket that takes one reply: the first connection that presents the token. It
     * accepts in a thread of its own while the ranks run, so a rank never waits on the launcher.
     */
    private static final class ReplySocket implements AutoCloseable {
        private final ServerSocket server;
        private final String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        private final Thread acceptor;
        private volatile String reply;

        ReplySocket() throws IOException {
            server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
            acceptor = Thread.ofPlatform().daemon().name("fabprobe-reply").start(this::accept);
        }

        String address() {
            return server.getLocalPort() + ":" + token;
        }

        private void accept() {
            while (reply == null && !server.isClosed()) {
                try (Socket client = server.accept(); InputStream in = client.getInputStream()) {
                    client.setSoTimeout(60_000);
                    byte[] expected = (token + "\n").getBytes(StandardCharsets.US_ASCII);
                    if (!java.util.Arrays.equals(in.readNBytes(expected.length), expected)) continue; // not our rank
                    byte[] body = in.readNBytes(MAX_REPLY_BYTES + 1);
                    if (body.length <= MAX_REPLY_BYTES) reply = new String(body, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    // closed when the ranks ended, or a client that went away: wait for the next
                }
            }
        }

        /** The reply, once the ranks ended well: rank 0 sent it before it exited, the acceptor may still be reading it. */
        Optional<String> received() throws InterruptedException {
            acceptor.join(10_000);
            return Optional.ofNullable(reply);
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    private static List<String> launcherCommand(Mpi.Implementation impl, int ranks) {
        List<String> cmd = new ArrayList<>();
        cmd.add(find(impl));
        if (impl == Mpi.Implementation.OPENMPI) {
            // both ranks pin themselves (--cpu options); the MPI must not bind them first
            cmd.addAll(List.of("-np", Integer.toString(ranks), "--oversubscribe", "--bind-to", "none"));
            for (String name : NativeEnvironment.REQUIRED.keySet()) cmd.addAll(List.of("-x", name));
        } else {
            cmd.addAll(List.of("-n", Integer.toString(ranks))); // Hydra passes the whole environment on
        }
        return cmd;
    }

    private static String find(Mpi.Implementation impl) {
        String launcher = launcherPath(impl);
        if (launcher != null) return launcher;
        throw new FabprobeException(ExitCode.MISSING_DEPENDENCY, "mpi:" + impl.id + ": not running under an MPI launcher"
                + " and no " + String.join(" or ", launcherNames(impl)) + " on PATH (install "
                + (impl == Mpi.Implementation.OPENMPI ? "openmpi-bin" : "mpich") + ", or start fabprobe with mpirun/srun)");
    }

    private static List<String> launcherNames(Mpi.Implementation impl) {
        return impl == Mpi.Implementation.OPENMPI ? List.of("mpirun.openmpi", "orterun") : List.of("mpiexec.mpich", "mpirun.mpich");
    }

    /** The MPI's own launcher on PATH, or null. */
    public static String launcherPath(Mpi.Implementation impl) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            for (String name : launcherNames(impl)) {
                Path p = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(p)) return p.toString();
            }
        }
        return null;
    }

    /**
     * The MPI's library where the dynamic loader would find it, or null; looked for without
     * loading it, since an MPI is loaded once, globally.
     */
    public static String libraryPath(Mpi.Implementation impl) {
        List<String> dirs = new ArrayList<>();
        String ld = System.getenv("LD_LIBRARY_PATH");
        if (ld != null) dirs.addAll(List.of(ld.split(":")));
        String triplet = System.getProperty("os.arch").equals("amd64") ? "x86_64-linux-gnu"
                : System.getProperty("os.arch") + "-linux-gnu";
        dirs.addAll(List.of("/usr/lib/" + triplet, "/lib/" + triplet, "/usr/lib64", "/usr/lib", "/usr/local/lib"));
        for (String dir : dirs) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, impl.library);
            if (Files.exists(p)) return p.toString();
        }
        return null;
    }

    /** Why mpi:IMPL cannot be launched here (its library or its launcher is missing), or null. */
    public static String notInstalled(Mpi.Implementation impl) {
        String name = impl == Mpi.Implementation.OPENMPI ? "Open MPI" : "MPICH";
        if (libraryPath(impl) == null) return name + " is not installed (no " + impl.library + " where the loader looks)";
        if (launcherPath(impl) == null) return name + " is not installed (no " + String.join(" or ", launcherNames(impl)) + " on PATH)";
        return null;
    }

    private static boolean isRoot() {
        try {
            return "0".equals(String.valueOf(Files.getAttribute(Path.of("/proc/self"), "unix:uid")));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    private interface Sink {
        void write(byte[] b, int n);
    }

    private static Thread relay(InputStream in, Sink sink) {
        return Thread.ofPlatform().daemon().start(() -> {
            byte[] buffer = new byte[8192];
            try (in) {
                for (int n; (n = in.read(buffer)) > 0; ) sink.write(buffer, n);
            } catch (IOException ignored) {
                // the launcher went away; its exit code tells the story
            }
        });
    }

    /**
     * The launcher's stdout and stderr, copied to ours as they come. Rank 0's progress line
     * (stderr: "\r...ESC[K", no newline) and its table (stdout) travel apart through the
     * launcher, so their order is restored here: stdout text clears a line still open on
     * stderr, and a progress line arriving after stdout text began is dropped.
     */
    static final class Relay {
        private static final byte[] CLEAR = "\r\033[K".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        private final PrintStream out, err;
        private boolean lineOpen, outStarted;
        /** The ranks' stderr so far, scanned for their last "fabprobe: ..." line (why they failed). */
        private final java.io.ByteArrayOutputStream errText = new java.io.ByteArrayOutputStream();

        Relay(PrintStream out, PrintStream err) {
            this.out = out;
            this.err = err;
        }

        synchronized void out(byte[] b, int n) {
            if (lineOpen) {
                err.write(CLEAR, 0, CLEAR.length);
                err.flush();
                lineOpen = false;
            }
            outStarted = true;
            out.write(b, 0, n);
            out.flush();
        }

        synchronized void err(byte[] b, int n) {
            boolean progressOnly = n > 0 && b[0] == '\r' && indexOf(b, n, (byte) '\n') < 0;
            if (progressOnly && outStarted) return;
            err.write(b, 0, n);
            err.flush();
            lineOpen = openAfter(b, n, lineOpen);
            if (errText.size() < (1 << 20)) errText.write(b, 0, n);
        }

        /** The last error line a rank printed ("fabprobe: WHY"), without its prefix; null if none. */
        synchronized String lastError() {
            String error = null;
            for (String line : errText.toString(StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("fabprobe: ")) error = line.substring("fabprobe: ".length()).strip();
            }
            return error;
        }

        /** Whether a progress line is still on screen after these bytes: after the last \r, more than ESC[K. */
        static boolean openAfter(byte[] b, int n, boolean before) {
            for (int i = n - 1; i >= 0; i--) {
                if (b[i] == '\n') return false;
                if (b[i] == '\r') return n - i - 1 > 3;
            }
            return before;
        }

        private static int indexOf(byte[] b, int n, byte c) {
            for (int i = 0; i < n; i++) if (b[i] == c) return i;
            return -1;
        }
    }
}
