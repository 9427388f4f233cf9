package org.fabprobe.bindings.libfabric;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.fabprobe.bindings.libfabric.gen.fi_ops_cq;
import org.fabprobe.bindings.libfabric.gen.fi_ops_tagged;

/**
 * The few libfabric calls a timing loop makes, as lean as FFM allows.
 *
 * <p>Each handle is a {@code static final} downcall that takes the function pointer as its
 * first argument, so the JIT treats it as a constant and the call costs one indirect call.
 * They are marked {@link Linker.Option#critical critical}: the data-path functions neither
 * block nor call back into Java, and skipping the thread-state transition saves several
 * nanoseconds per call, which is visible at shared-memory latencies (~0.3 µs).
 *
 * <p>{@link Functions} resolves the pointers of one endpoint and completion queue once.
 */
public final class FiHotPath {
    private FiHotPath() {}

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);

    private static final MethodHandle TSEND = LINKER.downcallHandle(fi_ops_tagged.send.descriptor(), CRITICAL);
    private static final MethodHandle TRECV = LINKER.downcallHandle(fi_ops_tagged.recv.descriptor(), CRITICAL);
    private static final MethodHandle TINJECT = LINKER.downcallHandle(fi_ops_tagged.inject.descriptor(), CRITICAL);
    private static final MethodHandle CQ_READ = LINKER.downcallHandle(
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG), CRITICAL);

    /** The data-path function pointers of one endpoint and its completion queue. */
    public record Functions(MemorySegment tsend, MemorySegment trecv, MemorySegment tinject, MemorySegment cqRead) {
        public static Functions of(MemorySegment ep, MemorySegment cq) {
            MemorySegment tagged = Fi.taggedOps(ep);
            return new Functions(fi_ops_tagged.send(tagged), fi_ops_tagged.recv(tagged),
                    fi_ops_tagged.inject(tagged), fi_ops_cq.read(Fi.cqOps(cq)));
        }
    }

    public static long tsend(MemorySegment fn, MemorySegment ep, MemorySegment buf, long len, MemorySegment desc,
                             long dest, long tag, MemorySegment context) {
        try {
            return (long) TSEND.invokeExact(fn, ep, buf, len, desc, dest, tag, context);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long trecv(MemorySegment fn, MemorySegment ep, MemorySegment buf, long len, MemorySegment desc,
                             long src, long tag, long ignore, MemorySegment context) {
        try {
            return (long) TRECV.invokeExact(fn, ep, buf, len, desc, src, tag, ignore, context);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long tinject(MemorySegment fn, MemorySegment ep, MemorySegment buf, long len, long dest, long tag) {
        try {
            return (long) TINJECT.invokeExact(fn, ep, buf, len, dest, tag);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long cqRead(MemorySegment fn, MemorySegment cq, MemorySegment entries, long count) {
        try {
            return (long) CQ_READ.invokeExact(fn, cq, entries, count);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }
}
