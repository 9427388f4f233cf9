package org.fabprobe.cli;

import java.util.concurrent.Callable;
import java.util.List;
import java.util.TreeSet;
import org.fabprobe.bindings.ucx.Ucp;
import org.fabprobe.bindings.ucx.UcpResources;
import org.fabprobe.transport.ofi.OfiProviders;
import picocli.CommandLine.Command;

/** `fabprobe providers`: what fi_getinfo finds on this machine. */
@Command(name = "providers", mixinStandardHelpOptions = true,
        description = "Lists the libfabric providers (fi_getinfo) and UCX transports and devices.")
final class ProvidersCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.out.println("libfabric " + OfiProviders.libraryVersion());
        String format = "%-16s %-14s %-16s %-5s %-7s %-40s %8s %20s%n";
        System.out.printf(format, "provider", "fabric", "domain", "ep", "tagged", "mr_mode", "inject", "max_msg_size");
        for (OfiProviders.Offer o : OfiProviders.offers()) {
            System.out.printf(format, o.provider(), o.fabric(), o.domain(), o.endpointType(), o.tagged() ? "yes" : "no",
                    o.mrMode(), o.injectSize(), Long.toUnsignedString(o.maxMessageSize()));
        }
        System.out.println("usable as ofi:NAME (tagged rdm): " + String.join(", ", OfiProviders.rdmProviderNames()));
        System.out.println();
        System.out.println("UCX " + Ucp.version());
        System.out.printf("%-16s %s%n", "transport", "device");
        List<UcpResources.Resource> resources = UcpResources.list();
        for (UcpResources.Resource r : resources) System.out.printf("%-16s %s%n", r.transport(), r.device());
        System.out.println("usable as ucx:TLS (any UCX_TLS list of these, e.g. ucx:posix,cma): "
                + String.join(", ", new TreeSet<>(resources.stream().map(UcpResources.Resource::transport).toList())));
        return 0;
    }
}
