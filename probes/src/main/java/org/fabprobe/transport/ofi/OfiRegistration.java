package org.fabprobe.transport.ofi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.fabprobe.bindings.libfabric.gen.LibFabric.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.bindings.NativeEnvironment;
import org.fabprobe.bindings.libc.Libc;
import org.fabprobe.bindings.libfabric.Fi;
import org.fabprobe.bindings.libfabric.gen.fi_domain_attr;
import org.fabprobe.bindings.libfabric.gen.fi_ep_attr;
import org.fabprobe.bindings.libfabric.gen.fi_fabric_attr;
import org.fabprobe.bindings.libfabric.gen.fi_info;
import org.fabprobe.transport.Registrar;
import org.fabprobe.transport.TransportException;

/**
 * fi_mr_reg and fi_close(mr) on a domain of an RDM provider with FI_RMA, nothing else opened.
 * The mr_mode bits asked for are those a registration without an endpoint can honour: the
 * provider's key when FI_MR_PROV_KEY stays set (else a fresh key per registration); a provider
 * that insists on FI_MR_ENDPOINT (binding each region to an endpoint) is not offered here.
 */
public final class OfiRegistration implements Registrar {
    private static final long MR_MODES = FI_MR_LOCAL() | FI_MR_VIRT_ADDR() | FI_MR_ALLOCATED() | FI_MR_PROV_KEY();
    /** Providers whose fi_mr_reg goes to a device (pinning pages) through libfabric's MR cache. */
    private static final List<String> CACHING_PROVIDERS = List.of("verbs", "efa", "cxi", "psm3", "opx", "usnic");
    private static final long ACCESS = FI_READ() | FI_WRITE() | FI_REMOTE_READ() | FI_REMOTE_WRITE();

    private final Arena arena = Arena.ofConfined();
    private final Deque<MemorySegment> fids = new ArrayDeque<>();
    private final Map<String, String> facts = new LinkedHashMap<>();
    private final MemorySegment out = arena.allocate(ADDRESS);
    private MemorySegment info = MemorySegment.NULL, domain;
    private long mrMode, nextKey = 1;
    private String provider;

    private OfiRegistration() {}

    /** A domain of {@code provider} (e.g. "shm", "tcp", "verbs;ofi_rxm") ready to register memory. */
    public static OfiRegistration open(String name, String provider) {
        OfiRegistration r = new OfiRegistration();
        try {
            r.openDomain(name, provider);
            return r;
        } catch (RuntimeException | Error e) {
            r.close();
            throw e;
        }
    }

    private void openDomain(String name, String provider) {
        MemorySegment hints = Fi.allocinfo();
        try {
            fi_info.caps(hints, FI_RMA());
            fi_ep_attr.type(fi_info.ep_attr(hints).reinterpret(fi_ep_attr.layout().byteSize()), FI_EP_RDM());
            fi_domain_attr.mr_mode(fi_info.domain_attr(hints).reinterpret(fi_domain_attr.layout().byteSize()), (int) MR_MODES);
            // fi_freeinfo frees prov_name: it must come from malloc
            fi_fabric_attr.prov_name(fi_info.fabric_attr(hints).reinterpret(fi_fabric_attr.layout().byteSize()),
                    Libc.strdup(provider));
            int rc = fi_getinfo(Fi.requestedVersion(), MemorySegment.NULL, MemorySegment.NULL, 0, hints, out);
            if (rc == -FI_ENODATA()) {
                throw new TransportException(ExitCode.UNKNOWN_TRANSPORT, "libfabric provider '" + provider
                        + "' offers no RDM endpoint with FI_RMA and registration without FI_MR_ENDPOINT here; RDM providers: "
                        + String.join(", ", OfiProviders.rdmProviderNames()));
            }
            check(rc, "fi_getinfo(" + provider + ")");
            info = out.get(ADDRESS, 0).reinterpret(fi_info.layout().byteSize());
        } finally {
            fi_freeinfo(hints);
            NativeEnvironment.reclaimTerminationSignals();
        }
        MemorySegment domainAttr = fi_info.domain_attr(info).reinterpret(fi_domain_attr.layout().byteSize());
        mrMode = fi_domain_attr.mr_mode(domainAttr);
        OfiProviders.describe(info, facts);
        this.provider = facts.get("provider");
        facts.put("mr_key_size", Long.toString(fi_domain_attr.mr_key_size(domainAttr)));
        facts.put("mr_access", "read|write|remote_read|remote_write");
        check(fi_fabric(fi_info.fabric_attr(info), out, MemorySegment.NULL), "fi_fabric");
        MemorySegment fabric = opened();
        check(Fi.domain(fabric, info, out, MemorySegment.NULL), "fi_domain");
        domain = opened();
    }

    @Override
    public long register(MemorySegment buffer) {
        long key = (mrMode & FI_MR_PROV_KEY()) != 0 ? 0 : nextKey++;
        int rc = Fi.mrReg(domain, buffer, buffer.byteSize(), ACCESS, 0, key, 0, out, MemorySegment.NULL);
        if (rc < 0) check(rc, "fi_mr_reg(" + buffer.byteSize() + " bytes)");
        return out.get(ADDRESS, 0).address();
    }

    @Override
    public void deregister(long handle) {
        int rc = Fi.close(MemorySegment.ofAddress(handle));
        if (rc < 0) check(rc, "fi_close(mr)");
    }

    @Override
    public Map<String, String> facts() {
        return facts;
    }

    /**
     * libfabric's MR cache serves only providers that register with a device (see fi_mr(3),
     * "MEMORY REGISTRATION CACHE"); FI_MR_CACHE_MAX_COUNT=0 or FI_MR_CACHE_MONITOR=disabled turn it off.
     */
    @Override
    public Cache cache() {
        String count = System.getenv("FI_MR_CACHE_MAX_COUNT");
        String monitor = System.getenv("FI_MR_CACHE_MONITOR");
        String core = provider.split(";")[0];
        if (!CACHING_PROVIDERS.contains(core)) {
            return new Cache(false, "libfabric " + core + " registers in software (a key map, no device): no MR cache");
        }
        if ("0".equals(count)) return new Cache(false, "FI_MR_CACHE_MAX_COUNT=0");
        if ("disabled".equals(monitor)) return new Cache(false, "FI_MR_CACHE_MONITOR=disabled");
        return new Cache(true, "libfabric MR cache of " + core + " (FI_MR_CACHE_MAX_COUNT=" + (count == null ? "1024 default" : count)
                + ", FI_MR_CACHE_MONITOR=" + (monitor == null ? "default" : monitor) + ")");
    }

    private MemorySegment opened() {
        MemorySegment fid = out.get(ADDRESS, 0);
        fids.push(fid);
        return fid;
    }

    private static void check(long rc, String call) {
        if (rc < 0) throw TransportException.error(call + " failed: " + Fi.strerror(rc) + " (" + rc + ")");
    }

    @Override
    public void close() {
        while (!fids.isEmpty()) Fi.close(fids.pop());
        if (!info.equals(MemorySegment.NULL)) fi_freeinfo(info);
        info = MemorySegment.NULL;
        arena.close();
    }
}
