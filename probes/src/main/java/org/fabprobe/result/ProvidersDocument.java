package org.fabprobe.result;

import java.util.List;

/**
 * Schema fabprobe.providers/2: what can be measured here. {@code transports}: one row per usable
 * transport and interface, named as -t takes it; the rest are the details it was read from
 * (every fi_info entry, every UCX resource, the MPIs found). max_msg_size is the unsigned 64-bit
 * value as text ("18446744073709551615" is SIZE_MAX: no limit).
 */
public record ProvidersDocument(String schema, String tool, Host host, Libfabric libfabric, Ucx ucx, List<Mpi> mpi,
                                List<Transport> transports) {
    public static final String SCHEMA = "fabprobe.providers/2";

    /** libfabric's version and every entry fi_getinfo returns without hints. */
    public record Libfabric(String version, List<Offer> offers) {}

    /** UCX's version and every transport on every device (ucp_context_print_info). */
    public record Ucx(String version, List<Resource> resources) {}

    public record Resource(String transport, String device) {}

    /** One fi_info entry; rma, atomics: its caps hold FI_RMA, FI_ATOMIC; data_progress: auto, manual or unspec. */
    public record Offer(String provider, String fabric, String domain, String endpointType, boolean tagged,
                        String mrMode, long injectSize, String maxMsgSize, boolean rma, boolean atomics,
                        String dataProgress) {}

    /** An MPI whose library and launcher are installed. */
    public record Mpi(String implementation, String library, String launcher) {}

    /**
     * A usable transport on one interface, as {@code -t} takes it. ops: what it offers (send,
     * write, read, atomics; --op takes write, read, fetch-add and cswap); oneSided: who must
     * progress its one-sided operations, as the library declares it ("" without any).
     */
    public record Transport(String transport, String interfaceName, List<String> addresses, String maxMessage,
                            Long injectSize, String note, List<String> ops, String oneSided) {
        public Transport(String transport, String interfaceName, List<String> addresses, String maxMessage, Long injectSize,
                         String note) {
            this(transport, interfaceName, addresses, maxMessage, injectSize, note, List.of("send"), "");
        }
    }
}
