package org.fabprobe.transport;

import org.fabprobe.ExitCode;

/**
 * A transport as the user names it with {@code -t}, parsed once: {@code ofi:PROVIDER},
 * {@code ucx:TLS}, {@code mpi:IMPL/SELECTION} (or just {@code mpi}) or {@code sim:PARAMETERS}.
 * What callers need to know of a family is asked here, never by testing the text's prefix.
 */
public sealed interface TransportName {
    /** The name exactly as given. */
    String text();

    /** What follows the family's colon: the provider, the UCX transports, the MPI selection, the emulator's parameters. */
    String detail();

    /** The family's prefix: ofi, ucx, mpi or sim. */
    String family();

    /** Whether the transport has blocking send and receive calls (MPI_Send/MPI_Recv): mpi only. */
    default boolean hasBlockingCalls() {
        return false;
    }

    /** Whether its ranks meet through an MPI launcher (mpirun, mpiexec, srun), never a fabprobe mirror. */
    default boolean meetsThroughMpi() {
        return false;
    }

    /** Whether measure and mirror must share one host (the emulator's shared memory). */
    default boolean oneHostOnly() {
        return false;
    }

    /** libfabric provider(s), e.g. {@code shm} or {@code tcp;ofi_rxm}. */
    record Ofi(String text, String detail) implements TransportName {
        public String family() {
            return "ofi";
        }
    }

    /** UCX transports (UCX_TLS), e.g. {@code posix,cma}. */
    record Ucx(String text, String detail) implements TransportName {
        public String family() {
            return "ucx";
        }
    }

    /** An MPI library and its transport selection, e.g. {@code openmpi/ucx:tcp}; empty: the default. */
    record Mpi(String text, String detail) implements TransportName {
        public String family() {
            return "mpi";
        }

        @Override
        public boolean hasBlockingCalls() {
            return true;
        }

        @Override
        public boolean meetsThroughMpi() {
            return true;
        }
    }

    /** The emulator: LogGP parameters in shared memory. */
    record Sim(String text, String detail) implements TransportName {
        public String family() {
            return "sim";
        }

        @Override
        public boolean oneHostOnly() {
            return true;
        }
    }

    /**
     * Parses {@code text}; an unknown family is a {@link TransportException} with
     * {@link ExitCode#UNKNOWN_TRANSPORT} that lists the families, and ofi: and ucx: need a detail.
     */
    static TransportName parse(String text) {
        TransportName name = parseOrNull(text);
        if (name == null) {
            throw new TransportException(ExitCode.UNKNOWN_TRANSPORT, "unknown transport '" + text
                    + "': use ofi:PROVIDER, ucx:TLS (see 'fabprobe providers'), mpi:IMPL/SELECTION or sim:L=..,os=..,or=..,g=..,G=..");
        }
        if (name.detail().isEmpty() && name instanceof Ofi) throw usage(text, "name a provider, e.g. ofi:shm or ofi:tcp");
        if (name.detail().isEmpty() && name instanceof Ucx) throw usage(text, "name UCX transports, e.g. ucx:tcp or ucx:posix,cma");
        return name;
    }

    /** The name's family and detail, or null when it names no family (nothing else is checked). */
    static TransportName parseOrNull(String text) {
        if (text == null) return null;
        if (text.equals("mpi")) return new Mpi(text, "");
        int colon = text.indexOf(':');
        if (colon < 0) return null;
        String detail = text.substring(colon + 1);
        return switch (text.substring(0, colon)) {
            case "ofi" -> new Ofi(text, detail);
            case "ucx" -> new Ucx(text, detail);
            case "mpi" -> new Mpi(text, detail);
            case "sim" -> new Sim(text, detail);
            default -> null;
        };
    }

    /** Whether {@code text} names an MPI transport: for command lines read before they are parsed. */
    static boolean isMpi(String text) {
        return parseOrNull(text) instanceof Mpi;
    }

    /** Whether {@code text} names an MPI and its selection ({@code mpi:IMPL[/SELECTION]}, not the bare {@code mpi}). */
    static boolean isMpiSelection(String text) {
        return parseOrNull(text) instanceof Mpi mpi && !mpi.detail().isEmpty();
    }

    private static TransportException usage(String name, String hint) {
        return new TransportException(ExitCode.USAGE, "transport '" + name + "': " + hint);
    }
}
