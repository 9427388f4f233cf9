package org.fabprobe.bindings.libfabric;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.fabprobe.bindings.Downcalls;
import org.fabprobe.bindings.libfabric.gen.fi_ops_atomic;
import org.fabprobe.bindings.libfabric.gen.fi_ops_cq;
import org.fabprobe.bindings.libfabric.gen.fi_ops_rma;
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

    // Pointers travel as JAVA_LONG: on the 64-bit ABIs libfabric supports a pointer is passed
    // exactly like a 64-bit integer, and a raw address spares the per-call liveness
    // acquire/release that FFM performs for every MemorySegment argument of a shared arena.
    private static final MethodHandle TSEND = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    private static final MethodHandle TRECV = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    private static final MethodHandle TINJECT = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    // fi_write / fi_read: (ep, buf, len, desc, peer, addr, key, context)
    private static final MethodHandle RMA = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    // fi_fetch_atomic: (ep, buf, count, desc, result, result_desc, dest, addr, key, datatype, op, context)
    private static final MethodHandle FETCH_ATOMIC = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
            JAVA_INT, JAVA_INT, JAVA_LONG), CRITICAL);
    // fi_inject_write: (ep, buf, len, dest_addr, addr, key)
    private static final MethodHandle INJECT_WRITE = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    // fi_writemsg: (ep, msg, flags)
    private static final MethodHandle WRITEMSG = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
    private static final MethodHandle CQ_READ = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);

    /** The data-path function pointers of one endpoint and its completion queue. */
    public record Functions(MemorySegment tsend, MemorySegment trecv, MemorySegment tinject, MemorySegment cqRead) {
        public static Functions of(MemorySegment ep, MemorySegment cq) {
            MemorySegment tagged = Fi.taggedOps(ep);
            return new Functions(fi_ops_tagged.send(tagged), fi_ops_tagged.recv(tagged),
                    fi_ops_tagged.inject(tagged), fi_ops_cq.read(Fi.cqOps(cq)));
        }
    }

    /** The one-sided function pointers of one endpoint: fi_write, fi_read, fi_fetch_atomic. */
    public record RmaFunctions(MemorySegment write, MemorySegment read, MemorySegment fetchAtomic) {
        public static RmaFunctions of(MemorySegment ep) {
            MemorySegment rma = Fi.rmaOps(ep);
            return new RmaFunctions(fi_ops_rma.write(rma), fi_ops_rma.read(rma),
                    fi_ops_atomic.readwrite(Fi.atomicOps(ep)));
        }
    }

    /** fi_write(ep, buf, len, desc, dest_addr, addr, key, context), or fi_read with {@link RmaFunctions#read}. */
    public static long rma(MemorySegment fn, long ep, long buf, long len, long desc, long peer, long addr, long key,
                           long context) {
        try {
            return (long) RMA.invokeExact(fn, ep, buf, len, desc, peer, addr, key, context);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** ep->rma->write of one endpoint, for {@link #rma} (an endpoint without FI_ATOMIC has no atomic table for {@link RmaFunctions}). */
    public static MemorySegment writeOf(MemorySegment ep) {
        return fi_ops_rma.write(Fi.rmaOps(ep));
    }

    /** ep->rma->read of one endpoint, for {@link #rma}. */
    public static MemorySegment readOf(MemorySegment ep) {
        return fi_ops_rma.read(Fi.rmaOps(ep));
    }

    /** ep->atomic->readwrite of one endpoint, for {@link #fetchAtomic}. */
    public static MemorySegment fetchAtomicOf(MemorySegment ep) {
        return fi_ops_atomic.readwrite(Fi.atomicOps(ep));
    }

    /** ep->rma->inject of one endpoint (fi_inject_write), for {@link #injectWrite}. */
    public static MemorySegment injectWriteOf(MemorySegment ep) {
        return fi_ops_rma.inject(Fi.rmaOps(ep));
    }

    /** fi_inject_write(ep, buf, len, dest_addr, addr, key): no completion; the buffer is reusable on return. */
    public static long injectWrite(MemorySegment fn, long ep, long buf, long len, long peer, long addr, long key) {
        try {
            return (long) INJECT_WRITE.invokeExact(fn, ep, buf, len, peer, addr, key);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** ep->rma->writemsg of one endpoint, for {@link #writemsg}. */
    public static MemorySegment writemsgOf(MemorySegment ep) {
        return fi_ops_rma.writemsg(Fi.rmaOps(ep));
    }

    /** fi_writemsg(ep, msg, flags): a write with per-operation flags (FI_DELIVERY_COMPLETE, FI_FENCE). */
    public static long writemsg(MemorySegment fn, long ep, long msg, long flags) {
        try {
            return (long) WRITEMSG.invokeExact(fn, ep, msg, flags);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** fi_fetch_atomic(ep, buf, count, desc, result, result_desc, dest_addr, addr, key, datatype, op, context). */
    public static long fetchAtomic(MemorySegment fn, long ep, long buf, long count, long desc, long result,
                                   long resultDesc, long dest, long addr, long key, int datatype, int op, long context) {
        try {
            return (long) FETCH_ATOMIC.invokeExact(fn, ep, buf, count, desc, result, resultDesc, dest, addr, key,
                    datatype, op, context);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** fi_tsend(ep, buf, len, desc, dest_addr, tag, context), all pointers as addresses. */
    public static long tsend(MemorySegment fn, long ep, long buf, long len, long desc, long dest, long tag, long context) {
        try {
            return (long) TSEND.invokeExact(fn, ep, buf, len, desc, dest, tag, context);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** fi_trecv(ep, buf, len, desc, src_addr, tag, ignore, context). */
    public static long trecv(MemorySegment fn, long ep, long buf, long len, long desc, long src, long tag, long ignore,
                             long context) {
        try {
            return (long) TRECV.invokeExact(fn, ep, buf, len, desc, src, tag, ignore, context);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** fi_tinject(ep, buf, len, dest_addr, tag). */
    public static long tinject(MemorySegment fn, long ep, long buf, long len, long dest, long tag) {
        try {
            return (long) TINJECT.invokeExact(fn, ep, buf, len, dest, tag);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** fi_cq_read(cq, buf, count). */
    public static long cqRead(MemorySegment fn, long cq, long entries, long count) {
        try {
            return (long) CQ_READ.invokeExact(fn, cq, entries, count);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }
}
