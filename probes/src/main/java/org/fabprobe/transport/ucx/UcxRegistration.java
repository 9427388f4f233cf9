package org.fabprobe.transport.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.fabprobe.bindings.ucx.gen.Ucx.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.bindings.NativeEnvironment;
import org.fabprobe.bindings.ucx.Ucp;
import org.fabprobe.bindings.ucx.Ucs;
import org.fabprobe.bindings.ucx.gen.ucp_mem_map_params;
import org.fabprobe.bindings.ucx.gen.ucp_params;
import org.fabprobe.transport.Registrar;
import org.fabprobe.transport.TransportException;

/**
 * ucp_mem_map of a user buffer and ucp_mem_unmap on a UCP context of UCX_TLS={@code tls} with
 * the one-sided features (RMA, AMO64): what UcxTransport does for its buffers, without a worker.
 */
public final class UcxRegistration implements Registrar {
    private final Arena arena = Arena.ofConfined();
    private final Map<String, String> facts = new LinkedHashMap<>();
    private final MemorySegment out = arena.allocate(ADDRESS);
    private final MemorySegment params = arena.allocate(ucp_mem_map_params.layout());
    private MemorySegment context = MemorySegment.NULL;

    private UcxRegistration() {}

    /** A UCP context of UCX_TLS={@code tls}; unknown transports get exit 3 in one line. */
    public static UcxRegistration open(String name, String tls) {
        String problem = UcxTransport.tlsProblem(tls);
        if (problem != null) throw new TransportException(ExitCode.UNKNOWN_TRANSPORT, problem);
        UcxRegistration r = new UcxRegistration();
        try {
            r.init(tls);
            return r;
        } catch (RuntimeException | Error e) {
            r.close();
            throw e;
        }
    }

    private void init(String tls) {
        Ucs.check(ucp_config_read(MemorySegment.NULL, MemorySegment.NULL, out), "ucp_config_read");
        MemorySegment config = out.get(ADDRESS, 0);
        try {
            Ucs.check(ucp_config_modify(config, arena.allocateFrom("TLS"), arena.allocateFrom(tls)), "ucp_config_modify(TLS)");
            MemorySegment p = arena.allocate(ucp_params.layout());
            ucp_params.field_mask(p, UCP_PARAM_FIELD_FEATURES());
            ucp_params.features(p, UCP_FEATURE_RMA() | UCP_FEATURE_AMO64());
            byte status = Ucp.init(p, config, out);
            if (status == (byte) UCS_ERR_NO_DEVICE()) {
                throw new TransportException(ExitCode.UNKNOWN_TRANSPORT, "UCX finds no usable device for UCX_TLS=" + tls);
            }
            Ucs.check(status, "ucp_init(UCX_TLS=" + tls + ")");
            context = out.get(ADDRESS, 0);
        } finally {
            ucp_config_release(config);
            NativeEnvironment.reclaimTerminationSignals();
        }
        facts.put("library", "UCX " + Ucp.version());
        facts.put("tls", tls);
        facts.put("features", "rma|amo64");
        ucp_mem_map_params.field_mask(params, UCP_MEM_MAP_PARAM_FIELD_ADDRESS() | UCP_MEM_MAP_PARAM_FIELD_LENGTH());
    }

    @Override
    public long register(MemorySegment buffer) {
        ucp_mem_map_params.address(params, buffer);
        ucp_mem_map_params.length(params, buffer.byteSize());
        Ucs.check(ucp_mem_map(context, params, out), "ucp_mem_map(" + buffer.byteSize() + " bytes)");
        return out.get(ADDRESS, 0).address();
    }

    @Override
    public void deregister(long handle) {
        Ucs.check(ucp_mem_unmap(context, MemorySegment.ofAddress(handle)), "ucp_mem_unmap");
    }

    @Override
    public Map<String, String> facts() {
        return facts;
    }

    /**
     * UCX_RCACHE_ENABLE (UCP's own registration cache; default "try": used where UCX's memory
     * hooks install) and UCX_MEM_EVENTS=no, which leaves the cache nothing to invalidate it with.
     */
    @Override
    public Cache cache() {
        String enable = System.getenv("UCX_RCACHE_ENABLE");
        String events = System.getenv("UCX_MEM_EVENTS");
        if ("n".equals(enable) || "no".equals(enable)) return new Cache(false, "UCX_RCACHE_ENABLE=" + enable);
        if ("n".equals(events) || "no".equals(events)) return new Cache(false, "UCX_MEM_EVENTS=" + events + " (no invalidation: no cache)");
        return new Cache(true, "UCX_RCACHE_ENABLE=" + (enable == null ? "try (default)" : enable) + ": UCP registration cache");
    }

    @Override
    public void close() {
        if (!context.equals(MemorySegment.NULL)) ucp_cleanup(context);
        context = MemorySegment.NULL;
        arena.close();
    }
}
