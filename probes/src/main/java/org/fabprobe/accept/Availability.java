package org.fabprobe.accept;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.fabprobe.bindings.ucx.UcpResources;
import org.fabprobe.transport.TransportName;
import org.fabprobe.transport.ofi.OfiProviders;

/**
 * Whether the spec's raw transports are offered on this machine, asked of libfabric and UCX
 * before anything is measured (a spec for other hardware is refused at once, not half way).
 * UCX aliases (sm, ib, rc, ...) are left to UCX to resolve; MPI and sim are checked when they run.
 */
public final class Availability {
    /** UCX_TLS entries that name a group or a family rather than one transport UCX lists. */
    private static final Set<String> UCX_ALIASES = Set.of("all", "sm", "shm", "mm", "ib", "rc", "ud", "dc", "rc_v", "rc_x",
            "ud_v", "ud_x", "cuda", "rocm", "ugni");

    private Availability() {}

    public static void check(Spec spec) {
        List<String> ofi = null;
        Set<String> ucx = null;
        for (Check c : spec.checks()) {
            String t = c.transport();
            TransportName parsed = TransportName.parseOrNull(t);
            if (parsed instanceof TransportName.Ofi) {
                if (ofi == null) ofi = OfiProviders.rdmProviderNames();
                String provider = parsed.detail();
                boolean offered = ofi.stream().anyMatch(p -> p.equals(provider) || p.startsWith(provider + ";"));
                if (!offered) {
                    throw new SpecException(c.transportWhere(), "transport '" + t + "' is not offered here (libfabric's tagged RDM"
                            + " providers: " + String.join(", ", ofi) + ")");
                }
            } else if (parsed instanceof TransportName.Ucx) {
                if (ucx == null) {
                    ucx = new LinkedHashSet<>();
                    for (UcpResources.Resource r : UcpResources.list()) ucx.add(r.transport());
                }
                for (String tl : parsed.detail().split(",")) {
                    String name = tl.startsWith("^") ? tl.substring(1) : tl;
                    if (!UCX_ALIASES.contains(name) && !ucx.contains(name) && !tl.startsWith("^")) {
                        throw new SpecException(c.transportWhere(), "transport '" + t + "': UCX offers no '" + name
                                + "' here (its transports: " + String.join(", ", ucx) + ")");
                    }
                }
            }
        }
    }
}
