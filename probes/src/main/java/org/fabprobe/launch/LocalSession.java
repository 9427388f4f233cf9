package org.fabprobe.launch;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.BiFunction;
import org.fabprobe.FabprobeException;
import org.fabprobe.pattern.Await;
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

    /** Runs {@code measureHalf} against a fresh mirror and returns its result. */
    public static <R> R run(SessionSpec spec, int measureCpu, BiFunction<Transport, Await, R> measureHalf) {
        Thread worker = Thread.currentThread();
        long timeoutMs = spec.options().timeout().toMillis();
        try (MirrorProcess mirror = MirrorProcess.start(timeoutMs);
             Shutdown.Guard guard = Shutdown.guard(worker, mirror::kill)) {
            Rendezvous rv = mirror.rendezvous();
            if (measureCpu >= 0) CpuAffinity.pinCurrentThread(measureCpu);
            try (Transport t = Transports.open(spec.transport(), spec.options())) {
                rv.sendMap("spec", spec.toMap());
                t.connect(rv.receiveBytes("address"));
                rv.sendBytes("address", t.localAddress());
                R result;
                try {
                    result = measureHalf.apply(t, new Await(timeoutMs * 1_000_000L, "mirror"));
                } catch (TransportException e) {
                    throw new TransportException(e.exitCode(), e.getMessage() + " [" + mirror.status() + "]");
                }
                rv.receiveMap("done");
                return result;
            } catch (Rendezvous.PeerFailure e) {
                throw new FabprobeException(e.exitCode(), "mirror: " + e.getMessage());
            }
        }
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
            try {
                if (spec.cpu() >= 0) CpuAffinity.pinCurrentThread(spec.cpu());
                try (Transport t = Transports.open(spec.transport(), spec.options())) {
                    rv.sendBytes("address", t.localAddress());
                    t.connect(rv.receiveBytes("address"));
                    Patterns.mirrorHalf(spec.pattern(), spec.patternParams())
                            .accept(t, new Await(spec.options().timeout().toNanos(), "measure process"));
                }
                rv.sendMap("done", Map.of());
            } catch (FabprobeException e) {
                rv.sendError(e.getMessage(), e.exitCode());
                throw e;
            } catch (IllegalArgumentException e) {
                rv.sendError(e.getMessage(), org.fabprobe.ExitCode.USAGE);
                throw e;
            }
        }
    }
}
