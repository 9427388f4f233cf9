package org.fabprobe.pattern;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.TransportOptions;
import org.fabprobe.transport.loopback.LoopbackControl;
import org.fabprobe.transport.loopback.LoopbackTransport;

/**
 * Both halves of a pattern in two threads of the test JVM, over a loopback pair: the measure
 * half in the calling thread, the mirror half in a thread of its own. The measure half's waits
 * give up after {@code measureTimeout}, the mirror's after {@link #PATIENT}, so a test never
 * hangs and a slow start of the measure thread on a busy host never fails the mirror.
 */
public final class InProcess implements AutoCloseable {
    /** For runs that should succeed: far beyond any healthy wait, even on a busy host. */
    public static final Duration PATIENT = Duration.ofSeconds(10);

    /** What the measure half runs, in the calling thread. */
    public interface MeasureHalf<R> {
        R run(Transport t, Await await, Control control);
    }

    private final LoopbackTransport.Pair pair;
    public final CountingTransport measure, mirror;
    public final Control measureControl, mirrorControl;
    private final Duration measureTimeout;

    public InProcess(long bufferBytes, int depth, Duration measureTimeout) {
        this(bufferBytes, depth, measureTimeout, Function.identity());
    }

    /** @param mirrorControl wraps the mirror's end of the control channel (a mirror that stops part way) */
    public InProcess(long bufferBytes, int depth, Duration measureTimeout, Function<Control, Control> mirrorControl) {
        this.pair = LoopbackTransport.pair(new TransportOptions(bufferBytes, depth, PATIENT, ""));
        this.measure = new CountingTransport(pair.first());
        this.mirror = new CountingTransport(pair.second());
        LoopbackControl.Pair controls = LoopbackControl.pair(measureTimeout, PATIENT);
        this.measureControl = controls.first();
        this.mirrorControl = mirrorControl.apply(controls.second());
        this.measureTimeout = measureTimeout;
    }

    /** The measure half's waits on the transport. */
    public Await measureAwait() {
        return new Await(measureTimeout.toNanos(), "the mirror thread");
    }

    /** Runs both halves and returns the measure half's result; a failure on either side is thrown. */
    public <R> R run(MeasureHalf<R> measureHalf, Patterns.MirrorHalf mirrorHalf) throws Exception {
        CompletableFuture<Void> mirrorDone = startMirror(mirrorHalf);
        R result = measureHalf.run(measure, measureAwait(), measureControl);
        awaitMirror(mirrorDone);
        return result;
    }

    /** Starts the mirror half in a thread of its own. */
    public CompletableFuture<Void> startMirror(Patterns.MirrorHalf mirrorHalf) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("mirror half").start(() -> {
            try {
                mirrorHalf.run(mirror, new Await(PATIENT.toNanos(), "the measure thread"), mirrorControl);
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    /** Waits for the mirror half to end and throws what it threw. */
    public void awaitMirror(CompletableFuture<Void> done) throws Exception {
        try {
            done.get(PATIENT.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) throw cause;
            throw e;
        } catch (TimeoutException e) {
            throw new AssertionError("the mirror half did not end", e);
        }
    }

    /** Fills a buffer with a pattern that differs from byte to byte and from seed to seed. */
    public static void fill(MemorySegment buffer, int seed) {
        for (long i = 0; i < buffer.byteSize(); i++) buffer.set(JAVA_BYTE, i, pattern(i, seed));
    }

    /** Where the first {@code bytes} of {@code buffer} differ from {@link #fill}'s pattern, or -1. */
    public static long mismatch(MemorySegment buffer, int seed, long bytes) {
        for (long i = 0; i < bytes; i++) {
            if (buffer.get(JAVA_BYTE, i) != pattern(i, seed)) return i;
        }
        return -1;
    }

    private static byte pattern(long i, int seed) {
        return (byte) (i * 31 + seed + (i >> 8));
    }

    @Override
    public void close() {
        pair.close();
    }
}
