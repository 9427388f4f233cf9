package org.fabprobe.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fabprobe.runtime.ThisJvm;

/** fabprobe as a separate process (optionally inside a network namespace), as a user starts it. */
final class Spawned implements AutoCloseable {
    final Process process;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
    private final Thread outPump, errPump;

    private Spawned(List<String> command, java.util.Map<String, String> env) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(env);
        process = builder.start();
        outPump = pump(process.getInputStream(), out);
        errPump = pump(process.getErrorStream(), err);
    }

    /** {@code fabprobe ARGS} run by this JVM's java, inside {@code wrapper} (e.g. ip netns exec NS), with extra environment. */
    static Spawned start(List<String> wrapper, java.util.Map<String, String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.addAll(ThisJvm.command());
        cmd.addAll(List.of(args));
        return new Spawned(cmd, env);
    }

    static Spawned start(String... args) throws IOException {
        return start(List.of(), java.util.Map.of(), args);
    }

    /** Waits for the end (killing it after {@code limit}) and returns exit code and output. */
    CliRun await(Duration limit) throws InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
            outPump.join(2000);
            errPump.join(2000);
            return new CliRun(-1, out(), err() + "\n[killed after " + limit + "]");
        }
        outPump.join(5000);
        errPump.join(5000);
        return new CliRun(process.exitValue(), out(), err());
    }

    /** Waits until standard output holds {@code text}; false if the process ended or time ran out first. */
    boolean awaitOutput(String text, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (out().contains(text)) return true;
            if (!process.isAlive()) return out().contains(text);
            Thread.sleep(20);
        }
        return false;
    }

    String out() {
        synchronized (out) {
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    String err() {
        synchronized (err) {
            return err.toString(StandardCharsets.UTF_8);
        }
    }

    private static Thread pump(InputStream in, ByteArrayOutputStream into) {
        return Thread.ofPlatform().daemon().start(() -> {
            byte[] buf = new byte[8192];
            try (in) {
                for (int n; (n = in.read(buf)) > 0; ) {
                    synchronized (into) {
                        into.write(buf, 0, n);
                    }
                }
            } catch (IOException ignored) {
                // the process is gone
            }
        });
    }

    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
}
