package org.fabprobe.transport.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.bindings.FaultSignals;
import org.fabprobe.bindings.NativeEnvironment;
import org.fabprobe.bindings.mpi.Mpi;
import org.fabprobe.bindings.mpi.MpiException;
import org.fabprobe.transport.TcpFacts;
import org.fabprobe.transport.TransportException;
import org.fabprobe.transport.ucx.UcxSettings;

/**
 * This process's MPI_COMM_WORLD: initialized once (MPI allows no second MPI_Init), shared by
 * whatever needs it in one run (the mpi: transport, the collectives, the launcher bootstrap
 * of raw transports, both halves of compare), and left once at the end by {@link #leave()}.
 */
public final class MpiWorld {
    private static final int BOOTSTRAP_TAG = 3, RELEASE_TAG = 4;
    /** Bootstrap messages are one fixed-size buffer: a length, then that many bytes. */
    private static final int BOOTSTRAP_BYTES = 8192;
    private static MpiWorld current;

    private final Mpi mpi;
    private final MpiSelection selection;
    private final Map<String, String> facts = new LinkedHashMap<>();
    private final int rank, size;
    /** Whether MPI was initialized for one-sided operations ({@link MpiSelection#oneSided()}). */
    private final boolean oneSided;

    private MpiWorld(String name, MpiSelection selection, boolean overwrite, boolean oneSided) {
        this.selection = selection;
        this.oneSided = oneSided;
        // before MPI_Init reads it; the transport name is the user's explicit choice and
        // overwrites, the bootstrap's defaults do not
        selection.environment().forEach((k, v) -> NativeEnvironment.setenv(k, v, overwrite));
        if (oneSided) selection.oneSided().environment().forEach((k, v) -> NativeEnvironment.setenv(k, v, true));
        mpi = Mpi.load(selection.implementation());
        try {
            // HotSpot's fault handlers back, whatever MPI or a library under it installed
            // (libfabric's shm provider unlinks its regions on any SIGSEGV: see FaultSignals)
            FaultSignals.keptAcross(mpi::init);
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
        if (oneSided) selection.oneSided().environment().forEach((k, v) -> facts.put("env." + k, v));
        if (selection.environment().containsKey("UCX_TLS")) {
            facts.putAll(UcxSettings.facts(Map.of("TLS", selection.environment().get("UCX_TLS"),
                    "NET_DEVICES", selection.environment().getOrDefault("UCX_NET_DEVICES", UcxSettings.UCX_DEFAULT))));
        }
        // as the raw tcp transports record it, so that compare's two sides show the same
        if (selection.underneath().contains("tcp") || selection.underneath().contains("sockets")) {
            TcpFacts.record(facts);
        }
    }

    /** The world for {@code mpi:IMPL/SELECTION}; initializes MPI on first use. */
    public static synchronized MpiWorld open(String name) {
        return open(name, false);
    }

    /**
     * As {@link #open(String)}, for one-sided operations if {@code oneSided}: the selection's
     * one-sided component ({@link MpiSelection#oneSided()}) chosen before MPI_Init.
     */
    public static synchronized MpiWorld open(String name, boolean oneSided) {
        MpiSelection selection = MpiSelection.parse(name);
        if (current == null) {
            current = new MpiWorld(name, selection, true, oneSided);
        } else if (!current.selection.equals(selection) || (oneSided && !current.oneSided)) {
            throw new TransportException(ExitCode.USAGE, name + ": MPI is already initialized in this process for "
                    + current.selection.describe() + (current.oneSided ? " with one-sided operations" : "")
                    + " (MPI_Init runs once per process)");
        }
        return current;
    }

    /**
     * The world for a launcher bootstrap of raw transports: whatever this process already
     * initialized, else {@code impl} with {@link MpiSelection#bootstrap} (kept off the fabric
     * under test where the MPI allows; the user's own settings win).
     */
    public static synchronized MpiWorld bootstrap(Mpi.Implementation impl) {
        if (current == null) current = new MpiWorld("mpi:" + impl.id, MpiSelection.bootstrap(impl), false, false);
        return current;
    }

    /**
     * Ends MPI in this process, if it began: rank 0 releases every other rank, which wait for
     * that without spinning (idle ranks must not take a CPU from a measurement), then all call
     * MPI_Finalize. Every rank calls this once, at the end of its run.
     */
    public static synchronized void leave() {
        if (current == null) return;
        MpiWorld world = current;
        current = null;
        try (Arena arena = Arena.ofConfined()) {
            Mpi mpi = world.mpi;
            int others = Math.max(world.size - 1, 1);
            MemorySegment buf = arena.allocate(8, 8);
            MemorySegment requests = arena.allocate((long) Mpi.REQUEST_BYTES * others, 8);
            if (world.rank == 0) {
                for (int r = 1; r < world.size; r++) {
                    mpi.isend(buf.address(), 8, r, RELEASE_TAG, requests.address() + (long) (r - 1) * Mpi.REQUEST_BYTES);
                }
                for (int r = 1; r < world.size; r++) {
                    long slot = requests.address() + (long) (r - 1) * Mpi.REQUEST_BYTES;
                    while (!mpi.test(slot)) pause();
                }
            } else {
                mpi.irecv(buf.address(), 8, 0, RELEASE_TAG, requests.address());
                while (!mpi.test(requests.address())) pause();
            }
            mpi.finish();
        } finally {
            world.mpi.close();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** This process's rank, or -1 before MPI starts (or without it). */
    public static synchronized int currentRank() {
        return current == null ? -1 : current.rank;
    }

    /** Sends a short untimed message (the launcher bootstrap: secrets and endpoints). */
    public void sendBootstrap(byte[] bytes, int dest) {
        if (bytes.length > BOOTSTRAP_BYTES - 4) throw new IllegalArgumentException("bootstrap message too long");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(BOOTSTRAP_BYTES, 8);
            buf.set(ValueLayout.JAVA_INT, 0, bytes.length);
            MemorySegment.copy(bytes, 0, buf, ValueLayout.JAVA_BYTE, 4, bytes.length);
            mpi.send(buf, BOOTSTRAP_BYTES, dest, BOOTSTRAP_TAG);
        }
    }

    /** Receives what {@link #sendBootstrap} sent. */
    public byte[] receiveBootstrap(int source) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(BOOTSTRAP_BYTES, 8);
            mpi.recv(buf, BOOTSTRAP_BYTES, source, BOOTSTRAP_TAG);
            int n = buf.get(ValueLayout.JAVA_INT, 0);
            if (n < 0 || n > BOOTSTRAP_BYTES - 4) throw new IllegalStateException("bad bootstrap message");
            return buf.asSlice(4, n).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    public String sendBootstrapText(String text, int dest) {
        sendBootstrap(text.getBytes(StandardCharsets.UTF_8), dest);
        return text;
    }

    public String receiveBootstrapText(int source) {
        return new String(receiveBootstrap(source), StandardCharsets.UTF_8);
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

    public MpiSelection selection() {
        return selection;
    }

    public Map<String, String> facts() {
        return facts;
    }

    public boolean oneSided() {
        return oneSided;
    }
}
