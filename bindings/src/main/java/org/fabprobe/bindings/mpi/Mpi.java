package org.fabprobe.bindings.mpi;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.fabprobe.bindings.libc.Libc;

/**
 * One small MPI API over two ABIs. Open MPI's handles are pointers to predefined globals
 * (MPI_COMM_WORLD is &ompi_mpi_comm_world), MPICH's are ints (0x44000000); MPI_Request is a
 * pointer in one and an int in the other; MPI_STATUS_IGNORE is NULL in one and 1 in the
 * other. Here every handle is a {@code long} and every request lives in an 8-byte slot, so
 * callers never see the difference. Exactly one implementation is loaded per process
 * ({@link #load}); the hot calls (isend, irecv, test) are then monomorphic.
 *
 * <p>Errors: MPI_ERRORS_RETURN is set on MPI_COMM_WORLD at init, so a failing call returns
 * its code and becomes an {@link MpiException} with MPI_Error_string's text.
 */
public abstract sealed class Mpi permits OpenMpi, Mpich {
    /** Which MPI library: the ABI and the library file. */
    public enum Implementation {
        OPENMPI("openmpi", "libmpi.so.40"), MPICH("mpich", "libmpich.so.12");

        public final String id;
        public final String library;

        Implementation(String id, String library) {
            this.id = id;
            this.library = library;
        }

        public static Implementation of(String id) {
            for (Implementation i : values()) if (i.id.equals(id)) return i;
            throw new IllegalArgumentException("unknown MPI '" + id + "': use openmpi or mpich");
        }
    }

    /** Bytes of one request slot (Open MPI: a pointer, MPICH: an int in the low half). */
    public static final long REQUEST_BYTES = 8;

    protected final Arena arena = Arena.ofShared();
    /** Scratch for MPI_Test's flag (one thread makes every MPI call). */
    protected final MemorySegment flag = arena.allocate(JAVA_INT);
    protected final long flagAddress = flag.address();

    /** Loads the library of {@code implementation}; nothing else of MPI is touched yet. */
    public static Mpi load(Implementation implementation) {
        openGlobally(implementation.library);
        return switch (implementation) {
            case OPENMPI -> new OpenMpi();
            case MPICH -> new Mpich();
        };
    }

    /**
     * dlopen(RTLD_NOW | RTLD_GLOBAL) before the bindings open the library: the MPI's plugins
     * (Open MPI's mca_pml_ucx.so, ...) resolve their symbols against it, which a JVM's
     * RTLD_LOCAL load would hide (Open MPI's own Java bindings do the same).
     */
    private static void openGlobally(String library) {
        MemorySegment handle;
        try {
            handle = Libc.dlopen(library, 0x2 | 0x100);
        } catch (Throwable t) {
            throw new IllegalStateException("dlopen " + library, t);
        }
        if (handle.address() == 0) {
            throw new UnsatisfiedLinkError("cannot open " + library + " (install "
                    + (library.startsWith("libmpich") ? "libmpich12" : "libopenmpi3") + ")");
        }
    }

    public abstract Implementation implementation();

    /**
     * MPI_Init_thread(MPI_THREAD_SINGLE) and MPI_ERRORS_RETURN on MPI_COMM_WORLD. One Java
     * thread makes every MPI call, from MPI_Init to MPI_Finalize; the JVM's other threads
     * never call MPI. SINGLE, as a C benchmark's MPI_Init: Open MPI 4.1 turns its thread locks
     * on for any level above it (FUNNELED cost 10-40 ns per vader ping-pong half round trip,
     * measured in C: 0.162-0.172 against 0.172-0.212 us).
     */
    public abstract void init();

    /**
     * MPI_Abort on MPI_COMM_WORLD: ends every rank of the job with {@code code} (a rank that
     * fails while the others wait for it cannot leave any other way). Does not return.
     */
    public abstract void abort(int code);

    /** MPI_Finalize unless already finalized (or never initialized). */
    public abstract void finish();

    public abstract int rank();

    public abstract int size();

    /** MPI_Get_library_version's text, first line. */
    public abstract String libraryVersion();

    public abstract double wtime();

    public abstract void barrier();

    // --- the timed path: raw addresses, no allocation -----------------------------------

    /** MPI_Isend of {@code bytes} MPI_BYTEs at {@code buffer}; the request goes to {@code requestSlot}. */
    public abstract void isend(long buffer, int bytes, int dest, int tag, long requestSlot);

    public abstract void irecv(long buffer, int bytes, int source, int tag, long requestSlot);

    /** MPI_Test on the request in {@code requestSlot}, status ignored: true once it is complete. */
    public abstract boolean test(long requestSlot);

    /** MPI_Send of {@code bytes} MPI_BYTEs at {@code buffer} (the blocking ping-pong). */
    public abstract void sendNow(long buffer, int bytes, int dest, int tag);

    /** MPI_Recv into {@code buffer}, status ignored (the blocking ping-pong). */
    public abstract void recvNow(long buffer, int bytes, int source, int tag);

    /** MPI_Send's entry point, for a caller that calls it from machine code of its own. */
    public abstract MemorySegment sendFunction();

    /**
     * The six arguments of {@link #sendNow}'s MPI_Send as raw 64-bit values, in order (buffer,
     * count, MPI_BYTE, dest, tag, MPI_COMM_WORLD): handles are addresses in Open MPI, ints in MPICH.
     */
    public abstract long[] sendArguments(long buffer, int bytes, int dest, int tag);

    /** What {@link #sendNow} does with MPI_Send's return code, for a call made elsewhere. */
    public final void checkSend(int rc) {
        if (rc != 0) check(rc, "MPI_Send");
    }

    // --- blocking point-to-point (the timed blocking ping-pong, the control channel) and
    // --- collectives over MPI_COMM_WORLD ---------------------------------------------------

    public abstract void send(MemorySegment buffer, int bytes, int dest, int tag);

    public abstract void recv(MemorySegment buffer, int bytes, int source, int tag);

    public abstract void bcast(MemorySegment buffer, int bytes, int root);

    public abstract void gather(MemorySegment send, MemorySegment recv, int bytesPerRank, int root);

    public abstract void scatter(MemorySegment send, MemorySegment recv, int bytesPerRank, int root);

    public abstract void allgather(MemorySegment send, MemorySegment recv, int bytesPerRank);

    public abstract void alltoall(MemorySegment send, MemorySegment recv, int bytesPerRank);

    /** MPI_Reduce of {@code doubles} MPI_DOUBLEs with MPI_SUM. */
    public abstract void reduce(MemorySegment send, MemorySegment recv, int doubles, int root);

    /** MPI_Scan of {@code doubles} MPI_DOUBLEs with MPI_SUM. */
    public abstract void scan(MemorySegment send, MemorySegment recv, int doubles);

    /** MPI_Allreduce of {@code doubles} MPI_DOUBLEs with MPI_MAX (the maximum over ranks). */
    public abstract void allreduceMax(MemorySegment send, MemorySegment recv, int doubles);

    public abstract String errorString(int code);

    protected final void check(int rc, String call) {
        if (rc != 0) throw new MpiException(call, rc, errorString(rc));
    }

    /** Frees this object's scratch memory; call after {@link #finish}. */
    public void close() {
        if (arena.scope().isAlive()) arena.close();
    }

    protected static String text(MemorySegment chars, int length) {
        byte[] bytes = chars.asSlice(0, Math.max(0, length)).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8).replace("\0", "").strip();
    }
}
