package org.fabprobe.launch;

import java.util.Map;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.Transport;

/**
 * How the two peers meet (ucx_perftest calls this the run-time environment): what to run, the
 * exchange of transport addresses, the untimed control channel, and the end of a session.
 * {@link Session} runs every command over any of them. What only one role does lives in that
 * role's side, {@link Measure} or {@link Mirror}, so no side has a method it does not serve:
 *
 * <ul>
 *   <li>{@link TcpRendezvous}: a mirror on another host ({@code --peer}), a local child mirror
 *       (the default, {@link LocalMirror}), or rank 1 under a launcher ({@link LauncherRendezvous});
 *   <li>{@link MpiRendezvous}: ranks of MPI_COMM_WORLD when the transport is MPI itself.
 * </ul>
 */
public sealed interface Rendezvous extends AutoCloseable permits Rendezvous.Measure, Rendezvous.Mirror {

    /** The process that times the pattern and reports. */
    non-sealed interface Measure extends Rendezvous {
        /** Tells the mirror what to run. */
        void sendSession(SessionSpec spec);

        /** Waits for the mirror's "my half is done". */
        void awaitDone();
    }

    /** The process that echoes what measure sends. */
    non-sealed interface Mirror extends Rendezvous {
        /** What measure asked for (checked: nothing outside what fabprobe sends is accepted). */
        SessionSpec receiveSession();

        /** Tells measure "my half is done". */
        void done();
    }

    /** How to name the peer in messages: "the mirror at 10.0.0.2:7470", "rank 1 (mirror)". */
    String peer();

    /** The address of the interface the peer is reached through ("" = transport default). */
    String localInterfaceAddress();

    /** Opens the session's transport on this side, bound to {@code sourceNode}. */
    Transport openTransport(SessionSpec spec, String sourceNode);

    /** Sends this side's transport address and returns the peer's. */
    byte[] exchangeAddresses(byte[] mine);

    /** The untimed channel patterns use between timed sections. */
    Control control();

    /** Tells the peer why this side stops (best effort). */
    void fail(String message, int exitCode);

    /** What the session is doing, named in the message if the peer goes away. */
    void phase(String phase);

    /** True when the peer is known to have gone away (checked without waiting). */
    boolean peerGone();

    /** The error the peer sent that this side has not read yet (it stopped), or null. */
    default String peerError() {
        return null;
    }

    /** The peer's host facts (hostname, os, cpu, ...), empty where the peer runs the same command line. */
    Map<String, String> peerHost();

    @Override
    void close();
}
