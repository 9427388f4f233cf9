package org.fabprobe.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.bindings.NativeEnvironment;

/**
 * Local mode: the measure process starts its own mirror, a second JVM with the same class
 * path and flags running {@code fabprobe mirror --rendezvous SOCKET}, and accepts its
 * control connection.
 */
public final class MirrorProcess implements AutoCloseable {
    private final Path dir;
    private final Process process;
    private final Rendezvous rendezvous;

    private MirrorProcess(Path dir, Process process, Rendezvous rendezvous) {
        this.dir = dir;
        this.process = process;
        this.rendezvous = rendezvous;
    }

    public static MirrorProcess start(long timeoutMs) {
        Path dir = null;
        Process process = null;
        try {
            dir = Files.createTempDirectory("fabprobe-"); // 0700: only this user can connect
            Path socket = dir.resolve("rendezvous.sock");
            try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
                server.bind(UnixDomainSocketAddress.of(socket));
                server.configureBlocking(false);
                ProcessBuilder builder = new ProcessBuilder(command(socket));
                // ProcessBuilder copies Java's start-up snapshot of the environment, not setenv's changes
                NativeEnvironment.REQUIRED.forEach(builder.environment()::putIfAbsent);
                process = builder
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(timeoutMs, 10_000));
                SocketChannel channel;
                while ((channel = server.accept()) == null) {
                    if (!process.isAlive()) {
                        throw new FabprobeException(ExitCode.PEER_TIMEOUT,
                                "the mirror process exited with code " + process.exitValue() + " before connecting");
                    }
                    if (System.nanoTime() > deadline) {
                        throw new FabprobeException(ExitCode.PEER_TIMEOUT, "the mirror process did not connect");
                    }
                    Thread.sleep(2);
                }
                Rendezvous rendezvous = new Rendezvous(channel, "mirror");
                rendezvous.timeout(java.time.Duration.ofMillis(timeoutMs));
                return new MirrorProcess(dir, process, rendezvous);
            }
        } catch (IOException e) {
            cleanup(process, dir);
            throw new UncheckedIOException("cannot start the mirror process", e);
        } catch (InterruptedException e) {
            cleanup(process, dir);
            Thread.currentThread().interrupt();
            throw Shutdown.interrupted();
        } catch (RuntimeException e) {
            cleanup(process, dir);
            throw e;
        }
    }

    /** This JVM's own command line, with the mirror subcommand instead of the user's. */
    private static List<String> command(Path socket) {
        List<String> cmd = javaCommand();
        cmd.add("mirror");
        cmd.add("--rendezvous");
        cmd.add(socket.toString());
        return cmd;
    }

    /** This JVM's own command line up to the main class (same flags, same class path). */
    static List<String> javaCommand() {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.startsWith("-agentlib") && !arg.startsWith("-javaagent")) cmd.add(arg);
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("org.fabprobe.cli.Main");
        return cmd;
    }

    public Rendezvous rendezvous() {
        return rendezvous;
    }

    /** Describes the mirror's state for an error message. */
    public String status() {
        return process.isAlive() ? "mirror process still running" : "mirror process exited with code " + process.exitValue();
    }

    /** Kills the mirror at once (Ctrl-C path). */
    public void kill() {
        process.destroyForcibly();
    }

    /** Waits for the mirror to finish by itself, then removes the socket; kills it if it does not. */
    @Override
    public void close() {
        rendezvous.close();
        try {
            if (!process.waitFor(3, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        cleanup(null, dir);
    }

    private static void cleanup(Process process, Path dir) {
        if (process != null) process.destroyForcibly();
        if (dir != null) {
            try {
                Files.deleteIfExists(dir.resolve("rendezvous.sock"));
                Files.deleteIfExists(dir);
            } catch (IOException ignored) {
                // a leftover empty temp directory is harmless
            }
        }
    }
}
