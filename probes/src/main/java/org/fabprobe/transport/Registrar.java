package org.fabprobe.transport;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.transport.ofi.OfiRegistration;
import org.fabprobe.transport.ucx.UcxRegistration;

/**
 * A library's memory registration alone (no endpoint, no peer): register a buffer for local and
 * remote one-sided access, deregister it. For `fabprobe register`.
 */
public interface Registrar extends AutoCloseable {
    /** Registers {@code buffer}; the handle for {@link #deregister}. */
    long register(MemorySegment buffer);

    /** Releases what {@link #register} returned. */
    void deregister(long handle);

    /** library, provider or tls, mr_mode, ...: the run header's transport facts. */
    Map<String, String> facts();

    /** Whether the library keeps a registration cache for this transport, and why it says so. */
    Cache cache();

    @Override
    void close();

    /** active: registrations are cached (a re-registration can be a lookup); reason: the setting or fact that says so. */
    record Cache(boolean active, String reason) {}

    /** The registrar of {@code transport} (ofi:PROVIDER or ucx:TLS); others get exit 3 in one line. */
    static Registrar open(String transport) {
        TransportName name = TransportName.parse(transport);
        return switch (name) {
            case TransportName.Ofi ofi -> OfiRegistration.open(transport, ofi.detail());
            case TransportName.Ucx ucx -> UcxRegistration.open(transport, ucx.detail());
            default -> throw new TransportException(ExitCode.UNKNOWN_TRANSPORT, "register times ofi: and ucx: registration; "
                    + transport + " has none of its own (use ofi:PROVIDER or ucx:TLS, see 'fabprobe providers')");
        };
    }
}
