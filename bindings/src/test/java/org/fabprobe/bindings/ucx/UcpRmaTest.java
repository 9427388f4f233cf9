package org.fabprobe.bindings.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.fabprobe.bindings.ucx.gen.Ucx.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.fabprobe.bindings.NativeEnvironment;
import org.fabprobe.bindings.ucx.gen.ucp_ep_params;
import org.fabprobe.bindings.ucx.gen.ucp_mem_attr;
import org.fabprobe.bindings.ucx.gen.ucp_mem_map_params;
import org.fabprobe.bindings.ucx.gen.ucp_params;
import org.fabprobe.bindings.ucx.gen.ucp_request_param_t;
import org.fabprobe.bindings.ucx.gen.ucp_worker_params;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one-sided UCP bindings against the real libucp: one worker with an endpoint to itself,
 * a mapped buffer whose packed and unpacked rkey is the target of put, get and 64-bit atomics.
 */
class UcpRmaTest {
    @BeforeAll
    static void environment() {
        NativeEnvironment.prepare();
    }

    @Test
    void putGetAndAtomicsToOwnWorker() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            MemorySegment params = arena.allocate(ucp_params.layout());
            ucp_params.field_mask(params, UCP_PARAM_FIELD_FEATURES());
            ucp_params.features(params, UCP_FEATURE_RMA() | UCP_FEATURE_AMO64());
            Ucs.check(Ucp.init(params, MemorySegment.NULL, out), "ucp_init");
            MemorySegment context = out.get(ADDRESS, 0);

            MemorySegment workerParams = arena.allocate(ucp_worker_params.layout());
            ucp_worker_params.field_mask(workerParams, UCP_WORKER_PARAM_FIELD_THREAD_MODE());
            ucp_worker_params.thread_mode(workerParams, UCS_THREAD_MODE_SINGLE());
            Ucs.check(ucp_worker_create(context, workerParams, out), "ucp_worker_create");
            MemorySegment worker = out.get(ADDRESS, 0);

            MemorySegment lengthOut = arena.allocate(JAVA_LONG);
            Ucs.check(ucp_worker_get_address(worker, out, lengthOut), "ucp_worker_get_address");
            MemorySegment workerAddress = out.get(ADDRESS, 0);
            MemorySegment epParams = arena.allocate(ucp_ep_params.layout());
            ucp_ep_params.field_mask(epParams, UCP_EP_PARAM_FIELD_REMOTE_ADDRESS());
            ucp_ep_params.address(epParams, workerAddress);
            Ucs.check(ucp_ep_create(worker, epParams, out), "ucp_ep_create");
            MemorySegment ep = out.get(ADDRESS, 0);
            ucp_worker_release_address(worker, workerAddress);

            // the "remote" memory: mapped, queried, its rkey packed and unpacked on the endpoint
            MemorySegment target = arena.allocate(4096, 4096);
            MemorySegment mapParams = arena.allocate(ucp_mem_map_params.layout());
            ucp_mem_map_params.field_mask(mapParams, UCP_MEM_MAP_PARAM_FIELD_ADDRESS() | UCP_MEM_MAP_PARAM_FIELD_LENGTH());
            ucp_mem_map_params.address(mapParams, target);
            ucp_mem_map_params.length(mapParams, target.byteSize());
            Ucs.check(ucp_mem_map(context, mapParams, out), "ucp_mem_map");
            MemorySegment memh = out.get(ADDRESS, 0);

            MemorySegment memAttr = arena.allocate(ucp_mem_attr.layout());
            ucp_mem_attr.field_mask(memAttr, UCP_MEM_ATTR_FIELD_ADDRESS() | UCP_MEM_ATTR_FIELD_LENGTH()
                    | UCP_MEM_ATTR_FIELD_MEM_TYPE());
            Ucs.check(ucp_mem_query(memh, memAttr), "ucp_mem_query");
            assertEquals(target.address(), ucp_mem_attr.address(memAttr).address());
            assertTrue(ucp_mem_attr.length(memAttr) >= target.byteSize());
            assertEquals(UCS_MEMORY_TYPE_HOST(), ucp_mem_attr.mem_type(memAttr));

            MemorySegment rkeySize = arena.allocate(JAVA_LONG);
            Ucs.check(ucp_rkey_pack(context, memh, out, rkeySize), "ucp_rkey_pack");
            MemorySegment rkeyBuffer = out.get(ADDRESS, 0);
            assertTrue(rkeySize.get(JAVA_LONG, 0) > 0);
            Ucs.check(ucp_ep_rkey_unpack(ep, rkeyBuffer, out), "ucp_ep_rkey_unpack");
            MemorySegment rkey = out.get(ADDRESS, 0);
            ucp_rkey_buffer_release(rkeyBuffer);

            MemorySegment param = arena.allocate(ucp_request_param_t.layout()); // no fields: contiguous bytes
            MemorySegment source = arena.allocate(256, 64);
            for (int i = 0; i < 256; i++) source.set(JAVA_BYTE, i, (byte) i);

            // put, then ep flush: the bytes are in the target
            await(worker, ucp_put_nbx(ep, source, 256, target.address() + 512, rkey, param), "ucp_put_nbx");
            await(worker, ucp_ep_flush_nbx(ep, param), "ucp_ep_flush_nbx");
            assertEquals(source.asByteBuffer(), target.asSlice(512, 256).asByteBuffer());

            // get back into a fresh buffer
            MemorySegment back = arena.allocate(256, 64);
            await(worker, ucp_get_nbx(ep, back, 256, target.address() + 512, rkey, param), "ucp_get_nbx");
            assertEquals(source.asByteBuffer(), back.asByteBuffer());

            // 64-bit atomics: post ADD, then fetching SWAP (the old value lands in reply_buffer)
            target.set(JAVA_LONG, 0, 40);
            MemorySegment operand = arena.allocate(JAVA_LONG);
            MemorySegment reply = arena.allocate(JAVA_LONG);
            MemorySegment atomicParam = arena.allocate(ucp_request_param_t.layout());
            ucp_request_param_t.op_attr_mask(atomicParam, UCP_OP_ATTR_FIELD_DATATYPE());
            ucp_request_param_t.datatype(atomicParam, Ucp.dtMakeContig(8));
            operand.set(JAVA_LONG, 0, 2);
            await(worker, ucp_atomic_op_nbx(ep, UCP_ATOMIC_OP_ADD(), operand, 1, target.address(), rkey, atomicParam),
                    "ucp_atomic_op_nbx(ADD)");
            MemorySegment fetchParam = arena.allocate(ucp_request_param_t.layout());
            ucp_request_param_t.op_attr_mask(fetchParam, UCP_OP_ATTR_FIELD_DATATYPE() | UCP_OP_ATTR_FIELD_REPLY_BUFFER());
            ucp_request_param_t.datatype(fetchParam, Ucp.dtMakeContig(8));
            ucp_request_param_t.reply_buffer(fetchParam, reply);
            operand.set(JAVA_LONG, 0, 7);
            await(worker, ucp_atomic_op_nbx(ep, UCP_ATOMIC_OP_SWAP(), operand, 1, target.address(), rkey, fetchParam),
                    "ucp_atomic_op_nbx(SWAP)");
            await(worker, ucp_worker_flush_nbx(worker, param), "ucp_worker_flush_nbx");
            assertEquals(42, reply.get(JAVA_LONG, 0), "SWAP returns the value after ADD");
            assertEquals(7, target.get(JAVA_LONG, 0));

            ucp_rkey_destroy(rkey);
            Ucs.check(ucp_mem_unmap(context, memh), "ucp_mem_unmap");
            await(worker, ucp_ep_close_nbx(ep, param), "ucp_ep_close_nbx"); // flush mode: FORCE needs error mode PEER
            ucp_worker_destroy(worker);
            ucp_cleanup(context);
        }
    }

    /** Progresses the worker until the status pointer of a *_nbx call completes, then frees its request. */
    private static void await(MemorySegment worker, MemorySegment statusPtr, String call) {
        long ptr = statusPtr.address();
        if (!Ucs.ptrIsPtr(ptr)) {
            Ucs.check(Ucs.ptrStatus(ptr), call);
            return;
        }
        byte status = Ucs.INPROGRESS;
        for (long spin = 0; spin < 10_000_000 && status == Ucs.INPROGRESS; spin++) {
            ucp_worker_progress(worker);
            status = ucp_request_check_status(statusPtr);
        }
        ucp_request_free(statusPtr);
        Ucs.check(status, call);
    }
}
