package org.fabprobe.bindings.mpi;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import org.fabprobe.bindings.Downcalls;
import org.fabprobe.bindings.mpi.openmpi.gen.OpenMpiH;

/** Open MPI's ABI: handles are addresses of predefined globals; MPI_STATUS_IGNORE is NULL. */
final class OpenMpi extends Mpi {
    private static final MemorySegment STATUS_IGNORE = MemorySegment.NULL;

    private final MemorySegment commWorld, byteType, doubleType, opSum, opMax, errorsReturn;

    // hot path: critical downcalls on raw addresses, as in FiHotPath / UcpHotPath
    private static final MethodHandle ISEND = Downcalls.critical(OpenMpiH.MPI_Isend$address(), FunctionDescriptor.of(
            JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle IRECV = Downcalls.critical(OpenMpiH.MPI_Irecv$address(), FunctionDescriptor.of(
            JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle TEST = Downcalls.critical(OpenMpiH.MPI_Test$address(), FunctionDescriptor.of(
            JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle SEND = Downcalls.critical(OpenMpiH.MPI_Send$address(), FunctionDescriptor.of(
            JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle RECV = Downcalls.critical(OpenMpiH.MPI_Recv$address(), FunctionDescriptor.of(
            JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG));
    private final long commWorldAddress, byteTypeAddress;

    OpenMpi() {
        SymbolLookup lib = SymbolLookup.libraryLookup(Implementation.OPENMPI.library, arena);
        commWorld = global(lib, "ompi_mpi_comm_world");
        byteType = global(lib, "ompi_mpi_byte");
        doubleType = global(lib, "ompi_mpi_double");
        opSum = global(lib, "ompi_mpi_op_sum");
        opMax = global(lib, "ompi_mpi_op_max");
        errorsReturn = global(lib, "ompi_mpi_errors_return");
        commWorldAddress = commWorld.address();
        byteTypeAddress = byteType.address();
    }

    private static MemorySegment global(SymbolLookup lib, String name) {
        return lib.find(name).orElseThrow(() -> new UnsatisfiedLinkError(name + " not found in "
                + Implementation.OPENMPI.library + ": not Open MPI 4.x?"));
    }

    @Override
    public Implementation implementation() {
        return Implementation.OPENMPI;
    }

    @Override
    public void init() {
        MemorySegment provided = arena.allocate(JAVA_INT);
        check(OpenMpiH.MPI_Init_thread(MemorySegment.NULL, MemorySegment.NULL, OpenMpiH.MPI_THREAD_SINGLE(), provided),
                "MPI_Init_thread");
        check(OpenMpiH.MPI_Comm_set_errhandler(commWorld, errorsReturn), "MPI_Comm_set_errhandler");
    }

    @Override
    public void abort(int code) {
        OpenMpiH.MPI_Abort(commWorld, code);
    }

    @Override
    public void finish() {
        MemorySegment done = arena.allocate(JAVA_INT);
        OpenMpiH.MPI_Initialized(done);
        if (done.get(JAVA_INT, 0) == 0) return;
        OpenMpiH.MPI_Finalized(done);
        if (done.get(JAVA_INT, 0) == 0) OpenMpiH.MPI_Finalize();
    }

    @Override
    public int rank() {
        MemorySegment out = arena.allocate(JAVA_INT);
        check(OpenMpiH.MPI_Comm_rank(commWorld, out), "MPI_Comm_rank");
        return out.get(JAVA_INT, 0);
    }

    @Override
    public int size() {
        MemorySegment out = arena.allocate(JAVA_INT);
        check(OpenMpiH.MPI_Comm_size(commWorld, out), "MPI_Comm_size");
        return out.get(JAVA_INT, 0);
    }

    @Override
    public String libraryVersion() {
        MemorySegment chars = arena.allocate(OpenMpiH.MPI_MAX_LIBRARY_VERSION_STRING());
        MemorySegment length = arena.allocate(JAVA_INT);
        check(OpenMpiH.MPI_Get_library_version(chars, length), "MPI_Get_library_version");
        return text(chars, length.get(JAVA_INT, 0)).lines().findFirst().orElse("");
    }

    @Override
    public double wtime() {
        return OpenMpiH.MPI_Wtime();
    }

    @Override
    public void barrier() {
        check(OpenMpiH.MPI_Barrier(commWorld), "MPI_Barrier");
    }

    @Override
    public void isend(long buffer, int bytes, int dest, int tag, long requestSlot) {
        int rc;
        try {
            rc = (int) ISEND.invokeExact(buffer, bytes, byteTypeAddress, dest, tag, commWorldAddress, requestSlot);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Isend");
    }

    @Override
    public void irecv(long buffer, int bytes, int source, int tag, long requestSlot) {
        int rc;
        try {
            rc = (int) IRECV.invokeExact(buffer, bytes, byteTypeAddress, source, tag, commWorldAddress, requestSlot);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Irecv");
    }

    @Override
    public boolean test(long requestSlot) {
        int rc;
        try {
            rc = (int) TEST.invokeExact(requestSlot, flagAddress, 0L);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Test");
        return flag.get(JAVA_INT, 0) != 0;
    }

    @Override
    public void sendNow(long buffer, int bytes, int dest, int tag) {
        int rc;
        try {
            rc = (int) SEND.invokeExact(buffer, bytes, byteTypeAddress, dest, tag, commWorldAddress);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Send");
    }

    @Override
    public MemorySegment sendFunction() {
        return OpenMpiH.MPI_Send$address();
    }

    @Override
    public long[] sendArguments(long buffer, int bytes, int dest, int tag) {
        return new long[] {buffer, bytes, byteTypeAddress, dest, tag, commWorldAddress};
    }

    @Override
    public void recvNow(long buffer, int bytes, int source, int tag) {
        int rc;
        try {
            rc = (int) RECV.invokeExact(buffer, bytes, byteTypeAddress, source, tag, commWorldAddress, 0L);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Recv");
    }

    @Override
    public void send(MemorySegment buffer, int bytes, int dest, int tag) {
        check(OpenMpiH.MPI_Send(buffer, bytes, byteType, dest, tag, commWorld), "MPI_Send");
    }

    @Override
    public void recv(MemorySegment buffer, int bytes, int source, int tag) {
        check(OpenMpiH.MPI_Recv(buffer, bytes, byteType, source, tag, commWorld, STATUS_IGNORE), "MPI_Recv");
    }

    @Override
    public void bcast(MemorySegment buffer, int bytes, int root) {
        check(OpenMpiH.MPI_Bcast(buffer, bytes, byteType, root, commWorld), "MPI_Bcast");
    }

    @Override
    public void gather(MemorySegment send, MemorySegment recv, int bytesPerRank, int root) {
        check(OpenMpiH.MPI_Gather(send, bytesPerRank, byteType, recv, bytesPerRank, byteType, root, commWorld), "MPI_Gather");
    }

    @Override
    public void scatter(MemorySegment send, MemorySegment recv, int bytesPerRank, int root) {
        check(OpenMpiH.MPI_Scatter(send, bytesPerRank, byteType, recv, bytesPerRank, byteType, root, commWorld), "MPI_Scatter");
    }

    @Override
    public void allgather(MemorySegment send, MemorySegment recv, int bytesPerRank) {
        check(OpenMpiH.MPI_Allgather(send, bytesPerRank, byteType, recv, bytesPerRank, byteType, commWorld), "MPI_Allgather");
    }

    @Override
    public void alltoall(MemorySegment send, MemorySegment recv, int bytesPerRank) {
        check(OpenMpiH.MPI_Alltoall(send, bytesPerRank, byteType, recv, bytesPerRank, byteType, commWorld), "MPI_Alltoall");
    }

    @Override
    public void reduce(MemorySegment send, MemorySegment recv, int doubles, int root) {
        check(OpenMpiH.MPI_Reduce(send, recv, doubles, doubleType, opSum, root, commWorld), "MPI_Reduce");
    }

    @Override
    public void scan(MemorySegment send, MemorySegment recv, int doubles) {
        check(OpenMpiH.MPI_Scan(send, recv, doubles, doubleType, opSum, commWorld), "MPI_Scan");
    }

    @Override
    public void allreduceMax(MemorySegment send, MemorySegment recv, int doubles) {
        check(OpenMpiH.MPI_Allreduce(send, recv, doubles, doubleType, opMax, commWorld), "MPI_Allreduce");
    }

    @Override
    public String errorString(int code) {
        MemorySegment chars = arena.allocate(OpenMpiH.MPI_MAX_ERROR_STRING());
        MemorySegment length = arena.allocate(JAVA_INT);
        if (OpenMpiH.MPI_Error_string(code, chars, length) != 0) return "unknown error";
        return text(chars, length.get(JAVA_INT, 0));
    }
}
