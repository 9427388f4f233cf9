package org.fabprobe.cli;

import java.util.concurrent.Callable;
import org.fabprobe.transport.ofi.OfiProviders;
import picocli.CommandLine.Command;

/** `fabprobe providers`: what fi_getinfo finds on this machine. */
@Command(name = "providers", mixinStandardHelpOptions = true,
        description = "Lists the libfabric providers (fi_getinfo) usable as ofi:PROVIDER.")
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
        return 0;
    }
}
