package org.fabprobe.transport;

import java.lang.foreign.MemorySegment;
import java.util.Map;

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
}
