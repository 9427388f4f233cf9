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
 * The methods of this class are what both sides' {@link Rendezvous} have in common.
 */
abstract sealed class MpiRendezvous permits MpiRendezvous.MeasureSide, MpiRendezvous.MirrorSide {
    private final MpiWorld world;
    private MpiTransport transport;

    private MpiRendezvous(MpiWorld world) {
        this.world = world;
    }

    /** Rank 0. */
    static final class MeasureSide extends MpiRendezvous implements Rendezvous.Measure {
        MeasureSide(MpiWorld world) {
            super(world);
        }

        @Override
        public String peer() {
            return "rank 1 (mirror)";
        }

        @Override
        public void sendSession(SessionSpec spec) {
            // rank 1 runs the same command line and knows it already
        }

        @Override
        public void awaitDone() {
            // the ranks meet again when they leave MPI (MpiWorld.leave)
        }
    }

    /** Rank 1. */
    static final class MirrorSide extends MpiRendezvous implements Rendezvous.Mirror {
        private final SessionSpec spec;

        MirrorSide(MpiWorld world, SessionSpec spec) {
            super(world);
            this.spec = spec;
        }

        @Override
        public String peer() {
            return "rank 0 (measure)";
        }

        @Override
        public SessionSpec receiveSession() {
            return spec; // the same command line as rank 0's
        }

        @Override
        public void done() {
            // the ranks meet again when they leave MPI (MpiWorld.leave)
        }
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
            MpiWorld world = MpiWorld.open(spec.transport(), spec.op().oneSided());
            size = world.size();
            if (size < 2) {
                throw new FabprobeException(ExitCode.USAGE, spec.transport() + ": needs 2 ranks (measure and mirror), got 1");
            }
            // ranks 0 and 1 are measure and mirror; any others take no part
            return switch (world.rank()) {
                case 0 -> Optional.of(new MeasureSide(world));
                case 1 -> Optional.of(new MirrorSide(world, spec));
                default -> Optional.empty();
            };
        }

        @Override
        String describe() {
            return "MPI ranks 0-1 of " + size;
        }
    }

    public String localInterfaceAddress() {
        return "";
    }

    public Transport openTransport(SessionSpec spec, String sourceNode) {
        transport = MpiTransport.open(spec.transport(), world, spec.options(sourceNode), spec.op());
        return transport;
    }

    public byte[] exchangeAddresses(byte[] mine) {
        return new byte[0]; // MPI_Init connected the ranks
    }

    public Control control() {
        return transport.control();
    }

    public void fail(String message, int exitCode) {
        // each rank reports for itself; mpirun ends the job when one exits with an error
    }

    public void phase(String phase) {
    }

    public boolean peerGone() {
        return false;
    }

    public Map<String, String> peerHost() {
        return Map.of();
    }

    public void close() {
    }
}
