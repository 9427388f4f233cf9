package org.fabprobe.transport;

import org.fabprobe.ExitCode;
import org.fabprobe.transport.ofi.OfiTransport;

/** Opens a transport from its name: {@code ofi:PROVIDER}, {@code ucx:TLS}, ... */
public final class Transports {
    private Transports() {}

    public static Transport open(String name, TransportOptions options) {
        int colon = name.indexOf(':');
        String family = colon < 0 ? name : name.substring(0, colon);
        String detail = colon < 0 ? "" : name.substring(colon + 1);
        return switch (family) {
            case "ofi" -> {
                if (detail.isEmpty()) throw usage(name, "name a provider, e.g. ofi:shm or ofi:tcp");
                yield OfiTransport.open(name, detail, options);
            }
            default -> throw new TransportException(ExitCode.UNKNOWN_TRANSPORT,
                    "unknown transport '" + name + "': use ofi:PROVIDER (see 'fabprobe providers')");
        };
    }

    private static TransportException usage(String name, String hint) {
        return new TransportException(ExitCode.UNKNOWN_TRANSPORT, "incomplete transport '" + name + "': " + hint);
    }
}
