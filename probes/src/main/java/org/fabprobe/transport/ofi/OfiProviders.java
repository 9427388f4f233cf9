package org.fabprobe.transport.ofi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.fabprobe.bindings.libfabric.gen.LibFabric.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fabprobe.bindings.libfabric.Fi;
import org.fabprobe.bindings.libfabric.gen.fi_domain_attr;
import org.fabprobe.bindings.libfabric.gen.fi_ep_attr;
import org.fabprobe.bindings.libfabric.gen.fi_fabric_attr;
import org.fabprobe.bindings.libfabric.gen.fi_info;
import org.fabprobe.bindings.libfabric.gen.fi_tx_attr;
import org.fabprobe.transport.TcpFacts;

/** What fi_getinfo offers on this machine, for `fabprobe providers` and error messages. */
public final class OfiProviders {
    private OfiProviders() {}

    /**
     * One fi_info entry, flattened. rma, atomics: its caps hold FI_RMA, FI_ATOMIC; dataProgress:
     * the domain's data progress (auto: the provider moves data without the application's calls;
     * manual: only inside them, so a one-sided target must call libfabric).
     */
    public record Offer(String provider, String fabric, String domain, String endpointType,
                        String mrMode, long injectSize, long maxMessageSize, boolean tagged, boolean rma, boolean atomics,
                        String dataProgress) {}

    /** libfabric's version as "major.minor". */
    public static String libraryVersion() {
        int v = fi_version();
        return Fi.majorOf(v) + "." + Fi.minorOf(v);
    }

    /** Every fi_info entry fi_getinfo returns without hints. */
    public static List<Offer> offers() {
        List<Offer> offers = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int rc = fi_getinfo(Fi.requestedVersion(), MemorySegment.NULL, MemorySegment.NULL, 0, MemorySegment.NULL, out);
            if (rc != 0) return offers;
            MemorySegment head = out.get(ADDRESS, 0);
            try {
                for (MemorySegment i = head; !i.equals(MemorySegment.NULL); i = fi_info.next(info(i))) {
                    offers.add(offer(info(i)));
                }
            } finally {
                fi_freeinfo(head);
            }
        }
        return offers;
    }

    /** Names of providers that offer tagged RDM endpoints: what `ofi:NAME` accepts. */
    public static List<String> rdmProviderNames() {
        Set<String> names = new LinkedHashSet<>();
        for (Offer o : offers()) {
            if (o.tagged() && o.endpointType().equals("rdm")) names.add(o.provider());
        }
        return List.copyOf(names);
    }

    /** Records the facts of the chosen fi_info into {@code facts}. */
    static void describe(MemorySegment info, Map<String, String> facts) {
        Offer o = offer(info);
        facts.put("library", "libfabric " + libraryVersion());
        facts.put("provider", o.provider());
        facts.put("fabric", o.fabric());
        facts.put("domain", o.domain());
        facts.put("endpoint_type", o.endpointType());
        facts.put("mr_mode", o.mrMode());
        facts.put("inject_size", Long.toString(o.injectSize()));
        facts.put("max_msg_size", Long.toUnsignedString(o.maxMessageSize()));
        if (o.provider().startsWith("tcp") || o.provider().startsWith("sockets")) {
            TcpFacts.record(facts);
        }
    }

    private static MemorySegment info(MemorySegment pointer) {
        return pointer.reinterpret(fi_info.layout().byteSize());
    }

    private static Offer offer(MemorySegment info) {
        MemorySegment fabricAttr = fi_info.fabric_attr(info).reinterpret(fi_fabric_attr.layout().byteSize());
        MemorySegment domainAttr = fi_info.domain_attr(info).reinterpret(fi_domain_attr.layout().byteSize());
        MemorySegment epAttr = fi_info.ep_attr(info).reinterpret(fi_ep_attr.layout().byteSize());
        MemorySegment txAttr = fi_info.tx_attr(info).reinterpret(fi_tx_attr.layout().byteSize());
        return new Offer(string(fi_fabric_attr.prov_name(fabricAttr)), string(fi_fabric_attr.name(fabricAttr)),
                string(fi_domain_attr.name(domainAttr)), endpointType(fi_ep_attr.type(epAttr)),
                mrModeNames(fi_domain_attr.mr_mode(domainAttr)), fi_tx_attr.inject_size(txAttr),
                fi_ep_attr.max_msg_size(epAttr), (fi_info.caps(info) & FI_TAGGED()) != 0,
                (fi_info.caps(info) & FI_RMA()) != 0, (fi_info.caps(info) & FI_ATOMIC()) != 0,
                progressName(fi_domain_attr.data_progress(domainAttr)));
    }

    static String progressName(int progress) {
        if (progress == FI_PROGRESS_AUTO()) return "auto";
        if (progress == FI_PROGRESS_MANUAL()) return "manual";
        return "unspec";
    }

    private static String string(MemorySegment p) {
        return p.equals(MemorySegment.NULL) ? "" : p.reinterpret(Long.MAX_VALUE).getString(0);
    }

    static String endpointType(int type) {
        if (type == FI_EP_RDM()) return "rdm";
        if (type == FI_EP_MSG()) return "msg";
        if (type == FI_EP_DGRAM()) return "dgram";
        return "type" + type;
    }

    static String mrModeNames(int mode) {
        List<String> names = new ArrayList<>();
        long[] bits = {FI_MR_LOCAL(), FI_MR_RAW(), FI_MR_VIRT_ADDR(), FI_MR_ALLOCATED(), FI_MR_PROV_KEY(),
                FI_MR_MMU_NOTIFY(), FI_MR_RMA_EVENT(), FI_MR_ENDPOINT(), FI_MR_HMEM()};
        String[] labels = {"local", "raw", "virt_addr", "allocated", "prov_key", "mmu_notify", "rma_event",
                "endpoint", "hmem"};
        for (int i = 0; i < bits.length; i++) {
            if ((mode & bits[i]) != 0) names.add(labels[i]);
        }
        return names.isEmpty() ? "none" : String.join("|", names);
    }
}
