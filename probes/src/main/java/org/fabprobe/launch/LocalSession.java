package org.fabprobe.launch;

import java.nio.file.Path;
import java.util.Map;
import org.fabprobe.FabprobeException;
import org.fabprobe.pattern.Await;
import org.fabprobe.pattern.Control;
import org.fabprobe.pattern.Patterns;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.TransportException;
import org.fabprobe.transport.Transports;

/**
 * One measurement on one machine: this process is measure, a child process is mirror.
 *
 * <pre>
 * measure                              mirror (child JVM)
 *   start child, accept  <-- connect --
 *   spec ---------------------------->  pin, open transport
 *   open transport       <-- address --
 *   address ------------------------->  connect
 *   connect; measure half  <== data ==>  mirror half
 *                         <-- done ---
 * </pre>
 */
public final class LocalSession {
    private LocalSession() {}

    /** The measure half of one pattern. */
    public interface MeasureHalf<R> {
        R run(Transport t, Await await, Control control);
    }

    /** Runs {@code measureHalf} against a fresh mirror and returns its result. */
    public static <R> R run(SessionSpec spec, int measureCpu, MeasureHalf<R> measureHalf) {
        if (spec.transport().startsWith("mpi:")) return MpiSession.run(spec, measureCpu, measureHalf);
        Thread worker = Thread.currentThread();
        long timeoutMs = spec.options().timeout().toMillis();
        try (MirrorProcess mirror = MirrorProcess.start(timeoutMs);
             Shutdown.Guard guard = Shutdown.guard(worker, mirror::kill)) {
            try {
                return measure(spec, measureCpu, measureHalf, mirror);
            } catch (RuntimeException e) {
                // on a signal the mirror is killed at once: whatever breaks next is a consequence
                if (Shutdown.requested()) throw Shutdown.interrupted();
                if (e instanceof Rendezvous.PeerFailure f) throw new FabprobeException(f.exitCode(), "mirror: " + f.getMessage());
                throw e;
            }
        }
    }

    private static <R> R measure(SessionSpec spec, int measureCpu, MeasureHalf<R> measureHalf, MirrorProcess mirror) {
        Rendezvous rv = mirror.rendezvous();
        if (measureCpu >= 0) CpuAffinity.pinCurrentThread(measureCpu);
        try (Transport t = Transports.open(spec.transport(), spec.options())) {
            rv.sendMap("spec", spec.toMap());
            t.connect(rv.receiveBytes("address"));
            rv.sendBytes("address", t.localAddress());
            R result;
            try (Watchdog watchdog = Watchdog.start(watchdogLimitMs(spec), "the measure process", mirror::kill)) {
                result = measureHalf.run(t, new Await(spec.options().timeout().toNanos(), "mirror"), control(rv));
            } catch (TransportException e) {
                if (Shutdown.requested()) throw e;
                throw new TransportException(e.exitCode(), e.getMessage() + " [" + mirror.status() + "]");
            }
            rv.receiveMap("done");
            return result;
        }
    }

    /** Longer than any legitimate pause between waits (a rendezvous wait is bounded by the timeout). */
    private static long watchdogLimitMs(SessionSpec spec) {
        return 2 * spec.options().timeout().toMillis() + 10_000;
    }

    private static Control control(Rendezvous rv) {
        return new Control() {
            @Override
            public void send(String name, long value) {
                rv.sendMap("control", Map.of(name, Long.toString(value)));
            }

            @Override
            public long receive(String name) {
                return Long.parseLong(rv.receiveMap("control").get(name));
            }

            @Override
            public void sendAll(String name, long... values) {
                Map<String, String> m = new java.util.LinkedHashMap<>();
                for (int i = 0; i < values.length; i++) m.put(name + "." + i, Long.toString(values[i]));
                rv.sendMap("control", m);
            }

            @Override
            public long[] receiveAll(String name, int count) {
                Map<String, String> m = rv.receiveMap("control");
                long[] values = new long[count];
                for (int i = 0; i < count; i++) values[i] = Long.parseLong(m.get(name + "." + i));
                return values;
            }
        };
    }

    /** The mirror process's whole life: {@code fabprobe mirror --rendezvous SOCKET}. */
    public static void serveMirror(Path socket) {
        try (Rendezvous rv = Rendezvous.connect(socket);
             Shutdown.Guard guard = Shutdown.guard(Thread.currentThread(), () -> {})) {
            Map<String, String> specMap;
            try {
                specMap = rv.receiveMap("spec");
            } catch (java.io.UncheckedIOException measureGone) {
                return; // the measure process failed before the run and reports why itself
            }
            SessionSpec spec = SessionSpec.fromMap(specMap);
            rv.timeout(spec.options().timeout());
            try {
                if (spec.cpu() >= 0) CpuAffinity.pinCurrentThread(spec.cpu());
                try (Transport t = Transports.open(spec.transport(), spec.options())) {
                    rv.sendBytes("address", t.localAddress());
                    t.connect(rv.receiveBytes("address"));
                    try (Watchdog watchdog = Watchdog.start(watchdogLimitMs(spec), "the mirror process", () -> {})) {
                        Patterns.mirrorHalf(spec.pattern(), spec.patternParams())
                                .run(t, new Await(spec.options().timeout().toNanos(), "measure process"), control(rv));
                    }
                }
                rv.sendMap("done", Map.of());
            } catch (java.io.UncheckedIOException measureGone) {
                throw Shutdown.requested() ? Shutdown.interrupted() : new FabprobeException(
                        org.fabprobe.ExitCode.PEER_TIMEOUT, "the measure process went away");
            } catch (FabprobeException e) {
                if (Shutdown.requested()) throw Shutdown.interrupted();
                rv.sendError(e.getMessage(), e.exitCode());
                throw e;
            } catch (IllegalArgumentException e) {
                rv.sendError(e.getMessage(), org.fabprobe.ExitCode.USAGE);
                throw e;
            }
        }
    }
}
