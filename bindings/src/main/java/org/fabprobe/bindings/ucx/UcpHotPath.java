package org.fabprobe.bindings.ucx;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.fabprobe.bindings.Downcalls;
import org.fabprobe.bindings.ucx.gen.Ucx;

/**
 * The UCP calls a timing loop makes: static final critical downcalls with every pointer
 * passed as a raw 64-bit address (no per-call segment liveness checks), as in FiHotPath.
 * None of these block or call back into Java when no callback is set in the request param.
 */
public final class UcpHotPath {
    private UcpHotPath() {}

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);

    private static MethodHandle handle(MemorySegment symbol, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(symbol, descriptor, CRITICAL);
    }

    private static final MethodHandle TAG_SEND = handle(Ucx.ucp_tag_send_nbx$address(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle TAG_RECV = handle(Ucx.ucp_tag_recv_nbx$address(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle PROGRESS = handle(Ucx.ucp_worker_progress$address(),
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    private static final MethodHandle CHECK_STATUS = handle(Ucx.ucp_request_check_status$address(),
            FunctionDescriptor.of(JAVA_BYTE, JAVA_LONG));
    private static final MethodHandle REQUEST_FREE = handle(Ucx.ucp_request_free$address(),
            FunctionDescriptor.ofVoid(JAVA_LONG));

    private static final MethodHandle PUT = handle(Ucx.ucp_put_nbx$address(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle GET = handle(Ucx.ucp_get_nbx$address(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle ATOMIC = handle(Ucx.ucp_atomic_op_nbx$address(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle EP_FLUSH = handle(Ucx.ucp_ep_flush_nbx$address(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle WORKER_FENCE = handle(Ucx.ucp_worker_fence$address(),
            FunctionDescriptor.of(JAVA_BYTE, JAVA_LONG));

    /** ucp_put_nbx(ep, buffer, count, remote_addr, rkey, param): a ucs_status_ptr_t. */
    public static long put(long ep, long buffer, long count, long remoteAddr, long rkey, long param) {
        try {
            return (long) PUT.invokeExact(ep, buffer, count, remoteAddr, rkey, param);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** ucp_get_nbx(ep, buffer, count, remote_addr, rkey, param): a ucs_status_ptr_t. */
    public static long get(long ep, long buffer, long count, long remoteAddr, long rkey, long param) {
        try {
            return (long) GET.invokeExact(ep, buffer, count, remoteAddr, rkey, param);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** ucp_atomic_op_nbx(ep, opcode, buffer, count, remote_addr, rkey, param): a ucs_status_ptr_t. */
    public static long atomic(long ep, int opcode, long buffer, long count, long remoteAddr, long rkey, long param) {
        try {
            return (long) ATOMIC.invokeExact(ep, opcode, buffer, count, remoteAddr, rkey, param);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** ucp_ep_flush_nbx(ep, param): a ucs_status_ptr_t. */
    public static long epFlush(long ep, long param) {
        try {
            return (long) EP_FLUSH.invokeExact(ep, param);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** ucp_worker_fence(worker): a ucs_status_t. */
    public static byte workerFence(long worker) {
        try {
            return (byte) WORKER_FENCE.invokeExact(worker);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** ucp_tag_send_nbx(ep, buffer, count, tag, param): a ucs_status_ptr_t. */
    public static long tagSend(long ep, long buffer, long count, long tag, long param) {
        try {
            return (long) TAG_SEND.invokeExact(ep, buffer, count, tag, param);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** ucp_tag_recv_nbx(worker, buffer, count, tag, tag_mask, param): a ucs_status_ptr_t. */
    public static long tagRecv(long worker, long buffer, long count, long tag, long tagMask, long param) {
        try {
            return (long) TAG_RECV.invokeExact(worker, buffer, count, tag, tagMask, param);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** ucp_worker_progress(worker). */
    public static int progress(long worker) {
        try {
            return (int) PROGRESS.invokeExact(worker);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** ucp_request_check_status(request). */
    public static byte checkStatus(long request) {
        try {
            return (byte) CHECK_STATUS.invokeExact(request);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** ucp_request_free(request). */
    public static void free(long request) {
        try {
            REQUEST_FREE.invokeExact(request);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }
}
