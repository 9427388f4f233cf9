package org.fabprobe.bindings.mpi;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.fabprobe.bindings.Downcalls;
import org.fabprobe.bindings.mpi.mpich.gen.MpichH;

/** MPICH's ABI: handles are ints, requests ints (the low half of a slot); MPI_STATUS_IGNORE is 1. */
final class Mpich extends Mpi {
    private static final MemorySegment STATUS_IGNORE = MpichH.MPI_STATUS_IGNORE();

    private final int commWorld = MpichH.MPI_COMM_WORLD(), byteType = MpichH.MPI_BYTE(), doubleType = MpichH.MPI_DOUBLE(),
            opSum = MpichH.MPI_SUM(), opMax = MpichH.MPI_MAX(), errorsReturn = MpichH.MPI_ERRORS_RETURN();

    // hot path: critical downcalls on raw addresses, as in FiHotPath / UcpHotPath
    private static final MethodHandle ISEND = Downcalls.critical(MpichH.MPI_Isend$address(), FunctionDescriptor.of(
            JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle IRECV = Downcalls.critical(MpichH.MPI_Irecv$address(), FunctionDescriptor.of(
            JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle TEST = Downcalls.critical(MpichH.MPI_Test$address(), FunctionDescriptor.of(
            JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle SEND = Downcalls.critical(MpichH.MPI_Send$address(), FunctionDescriptor.of(
            JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle RECV = Downcalls.critical(MpichH.MPI_Recv$address(), FunctionDescriptor.of(
            JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    

    Mpich() {
        // the generated class opens libmpich.so.12 on first use
    }

    @Override
    public Implementation implementation() {
        return Implementation.MPICH;
    }

    @Override
    public void init() {
        MemorySegment provided = arena.allocate(JAVA_INT);
        check(MpichH.MPI_Init_thread(MemorySegment.NULL, MemorySegment.NULL, MpichH.MPI_THREAD_SINGLE(), provided),
                "MPI_Init_thread");
        check(MpichH.MPI_Comm_set_errhandler(commWorld, errorsReturn), "MPI_Comm_set_errhandler");
    }

    @Override
    public void abort(int code) {
        MpichH.MPI_Abort(commWorld, code);
    }

    @Override
    public void finish() {
        MemorySegment done = arena.allocate(JAVA_INT);
        MpichH.MPI_Initialized(done);
        if (done.get(JAVA_INT, 0) == 0) return;
        MpichH.MPI_Finalized(done);
        if (done.get(JAVA_INT, 0) == 0) MpichH.MPI_Finalize();
    }

    @Override
    public int rank() {
        MemorySegment out = arena.allocate(JAVA_INT);
        check(MpichH.MPI_Comm_rank(commWorld, out), "MPI_Comm_rank");
        return out.get(JAVA_INT, 0);
    }

    @Override
    public int size() {
        MemorySegment out = arena.allocate(JAVA_INT);
        check(MpichH.MPI_Comm_size(commWorld, out), "MPI_Comm_size");
        return out.get(JAVA_INT, 0);
    }

    @Override
    public String libraryVersion() {
        MemorySegment chars = arena.allocate(MpichH.MPI_MAX_LIBRARY_VERSION_STRING());
        MemorySegment length = arena.allocate(JAVA_INT);
        check(MpichH.MPI_Get_library_version(chars, length), "MPI_Get_library_version");
        return text(chars, length.get(JAVA_INT, 0)).lines().findFirst().orElse("");
    }

    @Override
    public double wtime() {
        return MpichH.MPI_Wtime();
    }

    @Override
    public void barrier() {
        check(MpichH.MPI_Barrier(commWorld), "MPI_Barrier");
    }

    @Override
    public void isend(long buffer, int bytes, int dest, int tag, long requestSlot) {
        int rc;
        try {
            rc = (int) ISEND.invokeExact(buffer, bytes, byteType, dest, tag, commWorld, requestSlot);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Isend");
    }

    @Override
    public void irecv(long buffer, int bytes, int source, int tag, long requestSlot) {
        int rc;
        try {
            rc = (int) IRECV.invokeExact(buffer, bytes, byteType, source, tag, commWorld, requestSlot);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Irecv");
    }

    @Override
    public boolean test(long requestSlot) {
        int rc;
        try {
            rc = (int) TEST.invokeExact(requestSlot, flagAddress, STATUS_IGNORE.address());
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
            rc = (int) SEND.invokeExact(buffer, bytes, byteType, dest, tag, commWorld);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Send");
    }

    @Override
    public MemorySegment sendFunction() {
        return MpichH.MPI_Send$address();
    }

    @Override
    public long[] sendArguments(long buffer, int bytes, int dest, int tag) {
        return new long[] {buffer, bytes, byteType, dest, tag, commWorld};
    }

    @Override
    public void recvNow(long buffer, int bytes, int source, int tag) {
        int rc;
        try {
            rc = (int) RECV.invokeExact(buffer, bytes, byteType, source, tag, commWorld, STATUS_IGNORE.address());
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
        if (rc != 0) check(rc, "MPI_Recv");
    }

    @Override
    public void send(MemorySegment buffer, int bytes, int dest, int tag) {
        check(MpichH.MPI_Send(buffer, bytes, byteType, dest, tag, commWorld), "MPI_Send");
    }

    @Override
    public void recv(MemorySegment buffer, int bytes, int source, int tag) {
        check(MpichH.MPI_Recv(buffer, bytes, byteType, source, tag, commWorld, STATUS_IGNORE), "MPI_Recv");
    }

    @Override
    public void bcast(MemorySegment buffer, int bytes, int root) {
        check(MpichH.MPI_Bcast(buffer, bytes, byteType, root, commWorld), "MPI_Bcast");
    }

    @Override
    public void gather(MemorySegment send, MemorySegment recv, int bytesPerRank, int root) {
        check(MpichH.MPI_Gather(send, bytesPerRank, byteType, recv, bytesPerRank, byteType, root, commWorld), "MPI_Gather");
    }

    @Override
    public void scatter(MemorySegment send, MemorySegment recv, int bytesPerRank, int root) {
        check(MpichH.MPI_Scatter(send, bytesPerRank, byteType, recv, bytesPerRank, byteType, root, commWorld), "MPI_Scatter");
    }

    @Override
    public void allgather(MemorySegment send, MemorySegment recv, int bytesPerRank) {
        check(MpichH.MPI_Allgather(send, bytesPerRank, byteType, recv, bytesPerRank, byteType, commWorld), "MPI_Allgather");
    }

    @Override
    public void alltoall(MemorySegment send, MemorySegment recv, int bytesPerRank) {
        check(MpichH.MPI_Alltoall(send, bytesPerRank, byteType, recv, bytesPerRank, byteType, commWorld), "MPI_Alltoall");
    }

    @Override
    public void reduce(MemorySegment send, MemorySegment recv, int doubles, int root) {
        check(MpichH.MPI_Reduce(send, recv, doubles, doubleType, opSum, root, commWorld), "MPI_Reduce");
    }

    @Override
    public void scan(MemorySegment send, MemorySegment recv, int doubles) {
        check(MpichH.MPI_Scan(send, recv, doubles, doubleType, opSum, commWorld), "MPI_Scan");
    }

    @Override
    public void allreduceMax(MemorySegment send, MemorySegment recv, int doubles) {
        check(MpichH.MPI_Allreduce(send, recv, doubles, doubleType, opMax, commWorld), "MPI_Allreduce");
    }

    @Override
    public String errorString(int code) {
        MemorySegment chars = arena.allocate(MpichH.MPI_MAX_ERROR_STRING());
        MemorySegment length = arena.allocate(JAVA_INT);
        if (MpichH.MPI_Error_string(code, chars, length) != 0) return "unknown error";
        return text(chars, length.get(JAVA_INT, 0));
    }
}
