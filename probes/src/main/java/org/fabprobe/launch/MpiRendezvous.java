package org.fabprobe.launch;

import java.util.Map;
import java.util.Optional;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.mpi.MpiTransport;
import org.fabprobe.transport.mpi.MpiWorld;

/**
 * The transport is MPI itself: ranks 0 and 1 of MPI_COMM_WORLD are measure and mirror, every
 * rank runs the same command line (so the mirror knows the session without being told), the
 * control channel is MPI_Send/MPI_Recv on a tag of its own, and other ranks wait. In local
 * mode {@link LocalLauncher} starts the MPI's launcher over this same command line first.
 */
final class MpiRendezvous implements Rendezvous {
    private final MpiWorld world;
    private final SessionSpec spec;
    private MpiTransport transport;

    private MpiRendezvous(MpiWorld world, SessionSpec spec) {
        this.world = world;
        this.spec = spec;
    }

    static final class Meeting extends org.fabprobe.launch.Meeting {
        private final SessionSpec spec;
        private int size = -1;

        Meeting(SessionSpec spec) {
            this.spec = spec;
        }

        @Override
        Optional<Rendezvous> meet() {
            if (Launcher.detect() == null) {
                throw new FabprobeException(ExitCode.USAGE, spec.transport() + ": not running under an MPI launcher");
            }
            MpiWorld world = MpiWorld.open(spec.transport());
            size = world.size();
            if (size < 2) {
                throw new FabprobeException(ExitCode.USAGE, spec.transport() + ": needs 2 ranks (measure and mirror), got 1");
            }
            // ranks 0 and 1 are measure and mirror; any others take no part
            return world.rank() < 2 ? Optional.of(new MpiRendezvous(world, spec)) : Optional.empty();
        }

        @Override
        String describe() {
            return "MPI ranks 0-1 of " + size;
        }
    }

    @Override
    public Role role() {
        return world.rank() == 0 ? Role.MEASURE : Role.MIRROR;
    }

    @Override
    public String peer() {
        return world.rank() == 0 ? "rank 1 (mirror)" : "rank 0 (measure)";
    }

    @Override
    public void sendSession(SessionSpec spec) {
        // rank 1 runs the same command line and knows it already
    }

    @Override
    public SessionSpec receiveSession() {
        return spec;
    }

    @Override
    public String localInterfaceAddress() {
        return "";
    }

    @Override
    public Transport openTransport(SessionSpec spec, String sourceNode) {
        transport = MpiTransport.open(spec.transport(), world, spec.options(sourceNode));
        return transport;
    }

    @Override
    public byte[] exchangeAddresses(byte[] mine) {
        return new byte[0]; // MPI_Init connected the ranks
    }

    @Override
    public Control control() {
        return transport.control();
    }

    @Override
    public void finish() {
        // the ranks meet again when they leave MPI (MpiWorld.leave)
    }

    @Override
    public void fail(String message, int exitCode) {
        // each rank reports for itself; mpirun ends the job when one exits with an error
    }

    @Override
    public void phase(String phase) {
    }

    @Override
    public boolean peerGone() {
        return false;
    }

    @Override
    public Map<String, String> peerHost() {
        return Map.of();
    }

    @Override
    public void close() {
    }
}
