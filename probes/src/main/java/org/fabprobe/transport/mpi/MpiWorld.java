package org.fabprobe.transport.mpi;

import java.util.LinkedHashMap;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.bindings.NativeEnvironment;
import org.fabprobe.bindings.mpi.Mpi;
import org.fabprobe.bindings.mpi.MpiException;
import org.fabprobe.transport.TransportException;
import org.fabprobe.transport.ucx.UcxSettings;

/**
 * MPI_COMM_WORLD of any size, for the collectives: the same environment and facts as
 * {@link MpiTransport}, without its two-rank measure/mirror shape.
 */
public final class MpiWorld implements AutoCloseable {
    private final Mpi mpi;
    private final Map<String, String> facts = new LinkedHashMap<>();
    private final int rank, size;
    private boolean closed;

    private MpiWorld(String name, MpiSelection selection) {
        // before MPI_Init reads it; overwrite: the transport name is the user's explicit choice
        selection.environment().forEach((k, v) -> NativeEnvironment.setenv(k, v, true));
        mpi = Mpi.load(selection.implementation());
        try {
            mpi.init();
            rank = mpi.rank();
            size = mpi.size();
            facts.put("library", mpi.libraryVersion());
        } catch (MpiException e) {
            mpi.close();
            throw new TransportException(ExitCode.TRANSPORT_ERROR, name + ": " + e.getMessage());
        }
        facts.put("mpi", selection.implementation().id);
        facts.put("over", selection.underneath().isEmpty() ? "(the MPI's own choice)" : selection.underneath());
        selection.environment().forEach((k, v) -> facts.put("env." + k, v));
        if (selection.environment().containsKey("UCX_TLS")) {
            facts.putAll(UcxSettings.facts(Map.of("TLS", selection.environment().get("UCX_TLS"),
                    "NET_DEVICES", selection.environment().getOrDefault("UCX_NET_DEVICES", UcxSettings.UCX_DEFAULT))));
        }
    }

    public static MpiWorld open(String name) {
        return new MpiWorld(name, MpiSelection.parse(name));
    }

    /** With the address the ranks bind to (UCX devices pinned as for raw ucx:TLS). */
    public static MpiWorld open(String name, String sourceNode) {
        return new MpiWorld(name, MpiSelection.parse(name, sourceNode));
    }

    public Mpi mpi() {
        return mpi;
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public Map<String, String> facts() {
        return facts;
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try {
            mpi.finish();
        } finally {
            mpi.close();
        }
    }
}
