package org.fabprobe.bindings.mpi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import org.fabprobe.bindings.Downcalls;
import org.fabprobe.bindings.libc.Libc;
import org.fabprobe.bindings.mpi.mpich.gen.MpichH;
import org.fabprobe.bindings.mpi.openmpi.gen.OpenMpiH;

/**
 * One small MPI API over two ABIs. Open MPI's handles are pointers to predefined globals
 * (MPI_COMM_WORLD is &ompi_mpi_comm_world), MPICH's are ints (0x44000000); MPI_Request is a
 * pointer in one and an int in the other; MPI_STATUS_IGNORE is NULL in one and 1 in the
 * other. Here every handle is a {@code long} and every request lives in an 8-byte slot, so
 * callers never see the difference: an {@link Abi} says what differs, and the downcalls are
 * built from it once. Exactly one implementation is loaded per process ({@link #load}).
 *
 * <p>Errors: MPI_ERRORS_RETURN is set on MPI_COMM_WORLD at init, so a failing call returns
 * its code and becomes an {@link MpiException} with MPI_Error_string's text.
 */
public final class Mpi {
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

    /**
     * What differs between the ABIs: the C type of a handle, the predefined handles (as longs:
     * addresses in Open MPI, ints in MPICH) and the header constants used here.
     */
    private record Abi(SymbolLookup library, ValueLayout handle, long commWorld, long byteType, long doubleType,
                       long opSum, long opMax, long errorsReturn, long statusIgnore,
                       int threadSingle, int maxVersionChars, int maxErrorChars, OneSidedAbi oneSided) {
        static Abi of(Implementation implementation) {
            SymbolLookup lib = SymbolLookup.libraryLookup(implementation.library, Arena.global());
            return switch (implementation) {
                // handles are the addresses of predefined globals, which the headers only name in macros
                case OPENMPI -> new Abi(lib, JAVA_LONG, global(lib, "ompi_mpi_comm_world"), global(lib, "ompi_mpi_byte"),
                        global(lib, "ompi_mpi_double"), global(lib, "ompi_mpi_op_sum"), global(lib, "ompi_mpi_op_max"),
                        global(lib, "ompi_mpi_errors_return"), 0L, OpenMpiH.MPI_THREAD_SINGLE(),
                        OpenMpiH.MPI_MAX_LIBRARY_VERSION_STRING(), OpenMpiH.MPI_MAX_ERROR_STRING(),
                        new OneSidedAbi(global(lib, "ompi_mpi_win_null"), global(lib, "ompi_mpi_info_null"),
                                global(lib, "ompi_mpi_int64_t"), global(lib, "ompi_mpi_op_no_op"),
                                global(lib, "ompi_mpi_op_replace"), OpenMpiH.MPI_MODE_NOCHECK(),
                                OpenMpiH.MPI_LOCK_SHARED(), OpenMpiH.MPI_LOCK_EXCLUSIVE()));
                case MPICH -> new Abi(lib, JAVA_INT, MpichH.MPI_COMM_WORLD(), MpichH.MPI_BYTE(), MpichH.MPI_DOUBLE(),
                        MpichH.MPI_SUM(), MpichH.MPI_MAX(), MpichH.MPI_ERRORS_RETURN(), MpichH.MPI_STATUS_IGNORE().address(),
                        MpichH.MPI_THREAD_SINGLE(), MpichH.MPI_MAX_LIBRARY_VERSION_STRING(), MpichH.MPI_MAX_ERROR_STRING(),
                        new OneSidedAbi(MpichH.MPI_WIN_NULL(), MpichH.MPI_INFO_NULL(), MpichH.MPI_INT64_T(),
                                MpichH.MPI_NO_OP(), MpichH.MPI_REPLACE(), MpichH.MPI_MODE_NOCHECK(),
                                MpichH.MPI_LOCK_SHARED(), MpichH.MPI_LOCK_EXCLUSIVE()));
            };
        }

        private static long global(SymbolLookup lib, String name) {
            return lib.find(name).orElseThrow(() -> new UnsatisfiedLinkError(name + " not found in "
                    + Implementation.OPENMPI.library + ": not Open MPI 4.x?")).address();
        }
    }

    /**
     * The handles and constants of one-sided communication, per ABI as above: MPI_WIN_NULL,
     * MPI_INFO_NULL, MPI_INT64_T (the atomics' element type), MPI_NO_OP and MPI_REPLACE (with
     * Abi's MPI_SUM, the ops of MPI_Fetch_and_op), MPI_MODE_NOCHECK and the lock types.
     */
    private record OneSidedAbi(long winNull, long infoNull, long int64Type, long opNoOp, long opReplace,
                               int modeNocheck, int lockShared, int lockExclusive) {}

    /** The op of {@link #fetchAndOp}: MPI_SUM (fetch-and-add), MPI_NO_OP (atomic read), MPI_REPLACE (swap). */
    public enum AtomicOp { SUM, NO_OP, REPLACE }

    /** A window from {@link #winAllocate}: its handle (as every handle here, a long) and its local memory. */
    public record Window(long handle, MemorySegment base) {}

    /** Bytes of one request slot (Open MPI: a pointer, MPICH: an int in the low half). */
    public static final long REQUEST_BYTES = 8;

    /** Stands for an MPI handle in the descriptors below; the ABI's own layout replaces it. */
    private static final ValueLayout HANDLE = JAVA_LONG.withName("MPI handle");

    /** The process's one MPI: both define MPI_Send and the rest, so two cannot share a process. */
    private static volatile Implementation loaded;

    /**
     * The downcalls and handles of the loaded ABI, built on first use after {@link #load}:
     * static finals, so that the JIT treats them as constants in the timed loops.
     */
    private static final class Calls {
        static final Abi ABI = Abi.of(loaded);
        static final long COMM_WORLD = ABI.commWorld(), BYTE = ABI.byteType(), DOUBLE = ABI.doubleType(),
                SUM = ABI.opSum(), MAX = ABI.opMax(), STATUS_IGNORE = ABI.statusIgnore();

        // the timed path: critical downcalls on raw addresses, as in FiHotPath / UcpHotPath
        static final MethodHandle ISEND = critical("MPI_Isend", JAVA_LONG, JAVA_INT, HANDLE, JAVA_INT, JAVA_INT, HANDLE, JAVA_LONG);
        static final MethodHandle IRECV = critical("MPI_Irecv", JAVA_LONG, JAVA_INT, HANDLE, JAVA_INT, JAVA_INT, HANDLE, JAVA_LONG);
        static final MethodHandle TEST = critical("MPI_Test", JAVA_LONG, JAVA_LONG, JAVA_LONG);
        static final MethodHandle SEND_NOW = critical("MPI_Send", JAVA_LONG, JAVA_INT, HANDLE, JAVA_INT, JAVA_INT, HANDLE);
        static final MethodHandle RECV_NOW = critical("MPI_Recv", JAVA_LONG, JAVA_INT, HANDLE, JAVA_INT, JAVA_INT, HANDLE, JAVA_LONG);

        // one-sided, on raw addresses too: MPI_Aint (target displacement, window size) is a long in both ABIs
        static final long WIN_NULL = ABI.oneSided().winNull(), INFO_NULL = ABI.oneSided().infoNull(),
                INT64 = ABI.oneSided().int64Type();
        static final MethodHandle PUT = critical("MPI_Put",
                JAVA_LONG, JAVA_INT, HANDLE, JAVA_INT, JAVA_LONG, JAVA_INT, HANDLE, HANDLE);
        static final MethodHandle GET = critical("MPI_Get",
                JAVA_LONG, JAVA_INT, HANDLE, JAVA_INT, JAVA_LONG, JAVA_INT, HANDLE, HANDLE);
        static final MethodHandle FETCH_AND_OP = critical("MPI_Fetch_and_op",
                JAVA_LONG, JAVA_LONG, HANDLE, JAVA_INT, JAVA_LONG, HANDLE, HANDLE);
        static final MethodHandle COMPARE_AND_SWAP = critical("MPI_Compare_and_swap",
                JAVA_LONG, JAVA_LONG, JAVA_LONG, HANDLE, JAVA_INT, JAVA_LONG, HANDLE);
        static final MethodHandle WIN_FLUSH = critical("MPI_Win_flush", JAVA_INT, HANDLE);
        static final MethodHandle WIN_FLUSH_LOCAL = critical("MPI_Win_flush_local", JAVA_INT, HANDLE);
        static final MethodHandle WIN_SYNC = critical("MPI_Win_sync", HANDLE);
        static final MethodHandle IPROBE = critical("MPI_Iprobe", JAVA_INT, JAVA_INT, HANDLE, JAVA_LONG, JAVA_LONG);
        static final MethodHandle WIN_GET_ATTR = call("MPI_Win_get_attr", JAVA_INT, HANDLE, JAVA_INT, ADDRESS, ADDRESS);
        static final MethodHandle WIN_ALLOCATE = call("MPI_Win_allocate",
                JAVA_INT, JAVA_LONG, JAVA_INT, HANDLE, HANDLE, ADDRESS, ADDRESS);
        static final MethodHandle WIN_SET_ERRHANDLER = call("MPI_Win_set_errhandler", JAVA_INT, HANDLE, HANDLE);
        static final MethodHandle WIN_FREE = call("MPI_Win_free", JAVA_INT, ADDRESS);
        static final MethodHandle WIN_LOCK_ALL = call("MPI_Win_lock_all", JAVA_INT, JAVA_INT, HANDLE);
        static final MethodHandle WIN_UNLOCK_ALL = call("MPI_Win_unlock_all", JAVA_INT, HANDLE);

        static final MethodHandle INIT_THREAD = call("MPI_Init_thread", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS);
        static final MethodHandle SET_ERRHANDLER = call("MPI_Comm_set_errhandler", JAVA_INT, HANDLE, HANDLE);
        static final MethodHandle ABORT = call("MPI_Abort", JAVA_INT, HANDLE, JAVA_INT);
        static final MethodHandle INITIALIZED = call("MPI_Initialized", JAVA_INT, ADDRESS);
        static final MethodHandle FINALIZED = call("MPI_Finalized", JAVA_INT, ADDRESS);
        static final MethodHandle FINALIZE = call("MPI_Finalize", JAVA_INT);
        static final MethodHandle COMM_RANK = call("MPI_Comm_rank", JAVA_INT, HANDLE, ADDRESS);
        static final MethodHandle COMM_SIZE = call("MPI_Comm_size", JAVA_INT, HANDLE, ADDRESS);
        static final MethodHandle LIBRARY_VERSION = call("MPI_Get_library_version", JAVA_INT, ADDRESS, ADDRESS);
        static final MethodHandle ERROR_STRING = call("MPI_Error_string", JAVA_INT, JAVA_INT, ADDRESS, ADDRESS);
        static final MethodHandle WTIME = call("MPI_Wtime", JAVA_DOUBLE);
        static final MethodHandle BARRIER = call("MPI_Barrier", JAVA_INT, HANDLE);
        static final MethodHandle SEND = call("MPI_Send", JAVA_INT, ADDRESS, JAVA_INT, HANDLE, JAVA_INT, JAVA_INT, HANDLE);
        static final MethodHandle RECV = call("MPI_Recv", JAVA_INT, ADDRESS, JAVA_INT, HANDLE, JAVA_INT, JAVA_INT, HANDLE, JAVA_LONG);
        static final MethodHandle BCAST = call("MPI_Bcast", JAVA_INT, ADDRESS, JAVA_INT, HANDLE, JAVA_INT, HANDLE);
        static final MethodHandle GATHER = call("MPI_Gather",
                JAVA_INT, ADDRESS, JAVA_INT, HANDLE, ADDRESS, JAVA_INT, HANDLE, JAVA_INT, HANDLE);
        static final MethodHandle SCATTER = call("MPI_Scatter",
                JAVA_INT, ADDRESS, JAVA_INT, HANDLE, ADDRESS, JAVA_INT, HANDLE, JAVA_INT, HANDLE);
        static final MethodHandle ALLGATHER = call("MPI_Allgather", JAVA_INT, ADDRESS, JAVA_INT, HANDLE, ADDRESS, JAVA_INT, HANDLE, HANDLE);
        static final MethodHandle ALLTOALL = call("MPI_Alltoall", JAVA_INT, ADDRESS, JAVA_INT, HANDLE, ADDRESS, JAVA_INT, HANDLE, HANDLE);
        static final MethodHandle REDUCE = call("MPI_Reduce", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, HANDLE, HANDLE, JAVA_INT, HANDLE);
        static final MethodHandle SCAN = call("MPI_Scan", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, HANDLE, HANDLE, HANDLE);
        static final MethodHandle ALLREDUCE = call("MPI_Allreduce", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, HANDLE, HANDLE, HANDLE);

        /** A critical downcall returning MPI's int: none of these may block for long. */
        private static MethodHandle critical(String function, MemoryLayout... parameters) {
            return downcall(function, true, JAVA_INT, parameters);
        }

        private static MethodHandle call(String function, MemoryLayout result, MemoryLayout... parameters) {
            return downcall(function, false, result, parameters);
        }

        /** The downcall on {@code function}, its HANDLE parameters passed in the ABI's layout but taken as longs. */
        private static MethodHandle downcall(String function, boolean critical, MemoryLayout result, MemoryLayout... parameters) {
            MemoryLayout[] inC = parameters.clone();
            for (int i = 0; i < inC.length; i++) if (inC[i] == HANDLE) inC[i] = ABI.handle();
            MemorySegment symbol = ABI.library().find(function)
                    .orElseThrow(() -> new UnsatisfiedLinkError(function + " not found in " + loaded.library));
            FunctionDescriptor descriptor = FunctionDescriptor.of(result, inC);
            MethodHandle handle = critical ? Downcalls.critical(symbol, descriptor)
                    : Linker.nativeLinker().downcallHandle(symbol, descriptor);
            MethodType takingLongs = handle.type();
            for (int i = 0; i < parameters.length; i++) {
                if (parameters[i] == HANDLE) takingLongs = takingLongs.changeParameterType(i, long.class);
            }
            // an int handle (MPICH) narrowed from the long every caller passes, inlined with the call
            return MethodHandles.explicitCastArguments(handle, takingLongs);
        }
    }

    private final Implementation implementation;
    private final Arena arena = Arena.ofShared();
    /** Scratch for MPI_Test's flag (one thread makes every MPI call). */
    private final MemorySegment flag = arena.allocate(JAVA_INT);
    private final long flagAddress = flag.address();

    private Mpi(Implementation implementation) {
        this.implementation = implementation;
    }

    /** Loads the library of {@code implementation}; nothing else of MPI is touched yet. */
    public static synchronized Mpi load(Implementation implementation) {
        if (loaded == null) {
            openGlobally(implementation.library);
            loaded = implementation;
        } else if (loaded != implementation) {
            throw new IllegalStateException(implementation.id + ": this process already loaded " + loaded.id);
        }
        return new Mpi(implementation);
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

    public Implementation implementation() {
        return implementation;
    }

    /**
     * MPI_Init_thread(MPI_THREAD_SINGLE) and MPI_ERRORS_RETURN on MPI_COMM_WORLD. One Java
     * thread makes every MPI call, from MPI_Init to MPI_Finalize; the JVM's other threads
     * never call MPI. SINGLE, as a C benchmark's MPI_Init: Open MPI 4.1 turns its thread locks
     * on for any level above it (FUNNELED cost 10-40 ns per vader ping-pong half round trip,
     * measured in C: 0.162-0.172 against 0.172-0.212 us).
     */
    public void init() {
        MemorySegment provided = arena.allocate(JAVA_INT);
        try {
            check((int) Calls.INIT_THREAD.invokeExact(MemorySegment.NULL, MemorySegment.NULL, Calls.ABI.threadSingle(),
                    provided), "MPI_Init_thread");
            check((int) Calls.SET_ERRHANDLER.invokeExact(Calls.COMM_WORLD, Calls.ABI.errorsReturn()),
                    "MPI_Comm_set_errhandler");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /**
     * MPI_Abort on MPI_COMM_WORLD: ends every rank of the job with {@code code} (a rank that
     * fails while the others wait for it cannot leave any other way). Does not return.
     */
    public void abort(int code) {
        try {
            int unreached = (int) Calls.ABORT.invokeExact(Calls.COMM_WORLD, code);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** MPI_Finalize unless already finalized (or never initialized). */
    public void finish() {
        MemorySegment done = arena.allocate(JAVA_INT);
        try {
            // return codes unread: these cannot fail, and a failed MPI_Finalize leaves nothing to do
            int ignored = (int) Calls.INITIALIZED.invokeExact(done);
            if (done.get(JAVA_INT, 0) == 0) return;
            ignored = (int) Calls.FINALIZED.invokeExact(done);
            if (done.get(JAVA_INT, 0) == 0) ignored = (int) Calls.FINALIZE.invokeExact();
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    public int rank() {
        return commQuery(Calls.COMM_RANK, "MPI_Comm_rank");
    }

    public int size() {
        return commQuery(Calls.COMM_SIZE, "MPI_Comm_size");
    }

    private int commQuery(MethodHandle call, String name) {
        MemorySegment out = arena.allocate(JAVA_INT);
        try {
            check((int) call.invokeExact(Calls.COMM_WORLD, out), name);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        return out.get(JAVA_INT, 0);
    }

    /** MPI_Get_library_version's text, first line. */
    public String libraryVersion() {
        MemorySegment chars = arena.allocate(Calls.ABI.maxVersionChars());
        MemorySegment length = arena.allocate(JAVA_INT);
        try {
            check((int) Calls.LIBRARY_VERSION.invokeExact(chars, length), "MPI_Get_library_version");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        return text(chars, length.get(JAVA_INT, 0)).lines().findFirst().orElse("");
    }

    public double wtime() {
        try {
            return (double) Calls.WTIME.invokeExact();
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    public void barrier() {
        try {
            check((int) Calls.BARRIER.invokeExact(Calls.COMM_WORLD), "MPI_Barrier");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // --- the timed path: raw addresses, no allocation -----------------------------------

    /** MPI_Isend of {@code bytes} MPI_BYTEs at {@code buffer}; the request goes to {@code requestSlot}. */
    public void isend(long buffer, int bytes, int dest, int tag, long requestSlot) {
        int rc;
        try {
            rc = (int) Calls.ISEND.invokeExact(buffer, bytes, Calls.BYTE, dest, tag, Calls.COMM_WORLD, requestSlot);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Isend");
    }

    public void irecv(long buffer, int bytes, int source, int tag, long requestSlot) {
        int rc;
        try {
            rc = (int) Calls.IRECV.invokeExact(buffer, bytes, Calls.BYTE, source, tag, Calls.COMM_WORLD, requestSlot);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Irecv");
    }

    /** MPI_Test on the request in {@code requestSlot}, status ignored: true once it is complete. */
    public boolean test(long requestSlot) {
        int rc;
        try {
            rc = (int) Calls.TEST.invokeExact(requestSlot, flagAddress, Calls.STATUS_IGNORE);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Test");
        return flag.get(JAVA_INT, 0) != 0;
    }

    /** MPI_Send of {@code bytes} MPI_BYTEs at {@code buffer} (the blocking ping-pong). */
    public void sendNow(long buffer, int bytes, int dest, int tag) {
        int rc;
        try {
            rc = (int) Calls.SEND_NOW.invokeExact(buffer, bytes, Calls.BYTE, dest, tag, Calls.COMM_WORLD);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Send");
    }

    /** MPI_Recv into {@code buffer}, status ignored (the blocking ping-pong). */
    public void recvNow(long buffer, int bytes, int source, int tag) {
        int rc;
        try {
            rc = (int) Calls.RECV_NOW.invokeExact(buffer, bytes, Calls.BYTE, source, tag, Calls.COMM_WORLD,
                    Calls.STATUS_IGNORE);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Recv");
    }

    /** MPI_Send's entry point, for a caller that calls it from machine code of its own. */
    public MemorySegment sendFunction() {
        return Calls.ABI.library().find("MPI_Send").orElseThrow();
    }

    /**
     * The six arguments of {@link #sendNow}'s MPI_Send as raw 64-bit values, in order (buffer,
     * count, MPI_BYTE, dest, tag, MPI_COMM_WORLD): handles are addresses in Open MPI, ints in MPICH.
     */
    public long[] sendArguments(long buffer, int bytes, int dest, int tag) {
        return new long[] {buffer, bytes, Calls.BYTE, dest, tag, Calls.COMM_WORLD};
    }

    /** What {@link #sendNow} does with MPI_Send's return code, for a call made elsewhere. */
    public void checkSend(int rc) {
        if (rc != 0) check(rc, "MPI_Send");
    }

    // --- blocking point-to-point (the timed blocking ping-pong, the control channel) and
    // --- collectives over MPI_COMM_WORLD ---------------------------------------------------

    public void send(MemorySegment buffer, int bytes, int dest, int tag) {
        try {
            check((int) Calls.SEND.invokeExact(buffer, bytes, Calls.BYTE, dest, tag, Calls.COMM_WORLD), "MPI_Send");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    public void recv(MemorySegment buffer, int bytes, int source, int tag) {
        try {
            check((int) Calls.RECV.invokeExact(buffer, bytes, Calls.BYTE, source, tag, Calls.COMM_WORLD,
                    Calls.STATUS_IGNORE), "MPI_Recv");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    public void bcast(MemorySegment buffer, int bytes, int root) {
        try {
            check((int) Calls.BCAST.invokeExact(buffer, bytes, Calls.BYTE, root, Calls.COMM_WORLD), "MPI_Bcast");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    public void gather(MemorySegment send, MemorySegment recv, int bytesPerRank, int root) {
        try {
            check((int) Calls.GATHER.invokeExact(send, bytesPerRank, Calls.BYTE, recv, bytesPerRank, Calls.BYTE, root,
                    Calls.COMM_WORLD), "MPI_Gather");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    public void scatter(MemorySegment send, MemorySegment recv, int bytesPerRank, int root) {
        try {
            check((int) Calls.SCATTER.invokeExact(send, bytesPerRank, Calls.BYTE, recv, bytesPerRank, Calls.BYTE, root,
                    Calls.COMM_WORLD), "MPI_Scatter");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    public void allgather(MemorySegment send, MemorySegment recv, int bytesPerRank) {
        try {
            check((int) Calls.ALLGATHER.invokeExact(send, bytesPerRank, Calls.BYTE, recv, bytesPerRank, Calls.BYTE,
                    Calls.COMM_WORLD), "MPI_Allgather");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    public void alltoall(MemorySegment send, MemorySegment recv, int bytesPerRank) {
        try {
            check((int) Calls.ALLTOALL.invokeExact(send, bytesPerRank, Calls.BYTE, recv, bytesPerRank, Calls.BYTE,
                    Calls.COMM_WORLD), "MPI_Alltoall");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** MPI_Reduce of {@code doubles} MPI_DOUBLEs with MPI_SUM. */
    public void reduce(MemorySegment send, MemorySegment recv, int doubles, int root) {
        try {
            check((int) Calls.REDUCE.invokeExact(send, recv, doubles, Calls.DOUBLE, Calls.SUM, root, Calls.COMM_WORLD),
                    "MPI_Reduce");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** MPI_Scan of {@code doubles} MPI_DOUBLEs with MPI_SUM. */
    public void scan(MemorySegment send, MemorySegment recv, int doubles) {
        try {
            check((int) Calls.SCAN.invokeExact(send, recv, doubles, Calls.DOUBLE, Calls.SUM, Calls.COMM_WORLD), "MPI_Scan");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** MPI_Allreduce of {@code doubles} MPI_DOUBLEs with MPI_MAX (the maximum over ranks). */
    public void allreduceMax(MemorySegment send, MemorySegment recv, int doubles) {
        try {
            check((int) Calls.ALLREDUCE.invokeExact(send, recv, doubles, Calls.DOUBLE, Calls.MAX, Calls.COMM_WORLD),
                    "MPI_Allreduce");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // --- one-sided: a window over MPI_COMM_WORLD, passive target (lock_all / flush) --------

    /**
     * MPI_Win_allocate of {@code bytes} (displacement unit 1, MPI_INFO_NULL) over MPI_COMM_WORLD;
     * collective. The window's memory is MPI's, valid until {@link #winFree}. MPI_ERRORS_RETURN
     * is set on the window too (a window does not inherit MPI_COMM_WORLD's error handler).
     */
    public Window winAllocate(long bytes) {
        MemorySegment base = arena.allocate(ADDRESS);
        MemorySegment win = arena.allocate(JAVA_LONG); // an 8-byte slot: a pointer, or an int in the low half
        try {
            check((int) Calls.WIN_ALLOCATE.invokeExact(bytes, 1, Calls.INFO_NULL, Calls.COMM_WORLD, base, win),
                    "MPI_Win_allocate");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        long handle = Calls.ABI.handle() == JAVA_INT ? win.get(JAVA_INT, 0) : win.get(JAVA_LONG, 0);
        try {
            check((int) Calls.WIN_SET_ERRHANDLER.invokeExact(handle, Calls.ABI.errorsReturn()), "MPI_Win_set_errhandler");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        return new Window(handle, base.get(ADDRESS, 0).reinterpret(bytes));
    }

    /** MPI_Win_free (collective); the window's memory goes with it. */
    public void winFree(Window window) {
        MemorySegment win = arena.allocate(JAVA_LONG);
        if (Calls.ABI.handle() == JAVA_INT) win.set(JAVA_INT, 0, (int) window.handle());
        else win.set(JAVA_LONG, 0, window.handle());
        try {
            check((int) Calls.WIN_FREE.invokeExact(win), "MPI_Win_free");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** MPI_WIN_NULL of this ABI, as a long. */
    public long winNull() {
        return Calls.WIN_NULL;
    }

    /** MPI_Win_lock_all(MPI_MODE_NOCHECK if {@code noCheck}, win): a passive-target epoch on every rank. */
    public void lockAll(Window window, boolean noCheck) {
        try {
            check((int) Calls.WIN_LOCK_ALL.invokeExact(noCheck ? Calls.ABI.oneSided().modeNocheck() : 0,
                    window.handle()), "MPI_Win_lock_all");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    public void unlockAll(Window window) {
        try {
            check((int) Calls.WIN_UNLOCK_ALL.invokeExact(window.handle()), "MPI_Win_unlock_all");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** MPI_Put of {@code bytes} MPI_BYTEs at {@code origin} to {@code target}'s window at byte {@code displacement}. */
    public void put(long origin, int bytes, int target, long displacement, Window window) {
        int rc;
        try {
            rc = (int) Calls.PUT.invokeExact(origin, bytes, Calls.BYTE, target, displacement, bytes, Calls.BYTE,
                    window.handle());
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Put");
    }

    /** MPI_Get of {@code bytes} MPI_BYTEs from {@code target}'s window at byte {@code displacement} into {@code origin}. */
    public void get(long origin, int bytes, int target, long displacement, Window window) {
        int rc;
        try {
            rc = (int) Calls.GET.invokeExact(origin, bytes, Calls.BYTE, target, displacement, bytes, Calls.BYTE,
                    window.handle());
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Get");
    }

    /** MPI_Fetch_and_op on one MPI_INT64_T: {@code result} gets the old value, {@code origin} is the operand. */
    public void fetchAndOp(long origin, long result, int target, long displacement, AtomicOp op, Window window) {
        long mpiOp = switch (op) {
            case SUM -> Calls.SUM;
            case NO_OP -> Calls.ABI.oneSided().opNoOp();
            case REPLACE -> Calls.ABI.oneSided().opReplace();
        };
        int rc;
        try {
            rc = (int) Calls.FETCH_AND_OP.invokeExact(origin, result, Calls.INT64, target, displacement, mpiOp,
                    window.handle());
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Fetch_and_op");
    }

    /**
     * MPI_Compare_and_swap on one MPI_INT64_T: {@code result} gets the old value. Open MPI 4.1's
     * osc/rdma over btl/vader crashes in it (SIGSEGV in mca_btl_vader_send, a C program alike);
     * osc ucx or pt2pt, or btl self,tcp, do not.
     */
    public void compareAndSwap(long origin, long compare, long result, int target, long displacement, Window window) {
        int rc;
        try {
            rc = (int) Calls.COMPARE_AND_SWAP.invokeExact(origin, compare, result, Calls.INT64, target, displacement,
                    window.handle());
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Compare_and_swap");
    }

    /** MPI_Win_flush(target, win): the operations to {@code target} are complete there. */
    public void flush(int target, Window window) {
        int rc;
        try {
            rc = (int) Calls.WIN_FLUSH.invokeExact(target, window.handle());
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Win_flush");
    }

    /** MPI_Win_flush_local(target, win): the origin buffers of the operations to {@code target} are reusable. */
    public void flushLocal(int target, Window window) {
        int rc;
        try {
            rc = (int) Calls.WIN_FLUSH_LOCAL.invokeExact(target, window.handle());
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Win_flush_local");
    }

    /**
     * MPI_Win_sync(win): the window's public and private copies made the same, and a memory
     * barrier; what a rank polling its own window memory for a remote update calls between
     * looks (MPI-3.1 section 11.7).
     */
    public void winSync(Window window) {
        int rc;
        try {
            rc = (int) Calls.WIN_SYNC.invokeExact(window.handle());
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Win_sync");
    }

    /**
     * MPI_Iprobe(source, tag, MPI_COMM_WORLD) for a message that never comes: only a call into
     * the library, which makes progress (MPICH's ch4 serves one-sided operations that need the
     * target only from inside such calls).
     */
    public void progressByProbe(int source, int tag) {
        int rc;
        try {
            rc = (int) Calls.IPROBE.invokeExact(source, tag, Calls.COMM_WORLD, flagAddress, Calls.STATUS_IGNORE);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Iprobe");
    }

    /** The window's memory model (MPI_WIN_MODEL): true for MPI_WIN_SEPARATE, false for MPI_WIN_UNIFIED. */
    public boolean separateModel(Window window) {
        boolean openMpi = loaded == Implementation.OPENMPI;
        int keyval = openMpi ? OpenMpiH.MPI_WIN_MODEL() : MpichH.MPI_WIN_MODEL();
        int separate = openMpi ? OpenMpiH.MPI_WIN_SEPARATE() : MpichH.MPI_WIN_SEPARATE();
        MemorySegment value = arena.allocate(ADDRESS), found = arena.allocate(JAVA_INT);
        try {
            check((int) Calls.WIN_GET_ATTR.invokeExact(window.handle(), keyval, value, found), "MPI_Win_get_attr");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        // the attribute's value is a pointer to the model's int
        return found.get(JAVA_INT, 0) != 0 && value.get(ADDRESS, 0).reinterpret(4).get(JAVA_INT, 0) == separate;
    }

    public String errorString(int code) {
        MemorySegment chars = arena.allocate(Calls.ABI.maxErrorChars());
        MemorySegment length = arena.allocate(JAVA_INT);
        try {
            if ((int) Calls.ERROR_STRING.invokeExact(code, chars, length) != 0) return "unknown error";
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        return text(chars, length.get(JAVA_INT, 0));
    }

    private void check(int rc, String call) {
        if (rc != 0) throw new MpiException(call, rc, errorString(rc));
    }

    /** Frees this object's scratch memory; call after {@link #finish}. */
    public void close() {
        if (arena.scope().isAlive()) arena.close();
    }

    private static String text(MemorySegment chars, int length) {
        byte[] bytes = chars.asSlice(0, Math.max(0, length)).toArray(JAVA_BYTE);
        return new String(bytes, StandardCharsets.UTF_8).replace("\0", "").strip();
    }
}
