package org.fabprobe.launch;

import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.clock.Clock;
import org.fabprobe.pattern.Await;
import org.fabprobe.runtime.CompilerThreads;
import org.fabprobe.runtime.CpuAffinity;
import org.fabprobe.runtime.Shutdown;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.TransportException;
import org.fabprobe.transport.TransportName;

/**
 * One measurement between measure and mirror, the same steps over every {@link Rendezvous}, whose
 * two sides meet as a {@link Group} of two ({@link PairGroup}: the address exchange, the control channel):
 *
 * <pre>
 * measure                                  mirror
 *   meet (child / --peer / launcher / MPI)
 *   session --------------------------->   check, pin
 *   open transport                         open transport
 *   address  <========================>   address        (each connects to the other)
 *   measure half  <== timed traffic ==>   mirror half    (control channel between timed sections)
 *                <----------------------   done
 * </pre>
 */
public final class Session {
    private Session() {}

    /** The measure half of one pattern. */
    public interface MeasureHalf<R> {
        R run(Transport t, Await await, Control control);
    }

    /**
     * What a finished session leaves for the report besides the pattern's own result.
     *
     * @param sharedCpu the one CPU measure and mirror both run on ({@link #sharedCpu}), or -1
     */
    public record Facts(Map<String, String> transport, Map<String, String> peerHost, String meeting, String sourceAddress,
                        int sharedCpu) {}

    /** Thrown on launcher ranks other than measure once their part is done: they leave quietly. */
    public static final class NotMeasure extends RuntimeException {
        NotMeasure() {
            super("this rank is not measure", null, false, false);
        }
    }

    /**
     * Runs {@code measureHalf} against a mirror met as {@code peer} says, and returns its
     * result. On a launcher's mirror or idle rank, serves or waits, then throws {@link NotMeasure}.
     */
    public static <R> R run(PeerOptions peer, SessionSpec spec, int measureCpu, MeasureHalf<R> measureHalf,
                            java.util.function.Consumer<Facts> facts) {
        Leftovers.removeDead();
        Meeting chosen = Meeting.of(peer, spec);
        if (chosen.measuresHere()) Clock.measureFactsInBackground(); // while the peer starts or answers
        try (Meeting meeting = chosen;
             Shutdown.Guard guard = Shutdown.guard(meeting::abandon);
             Rendezvous rv = meet(meeting).orElseThrow(NotMeasure::new)) { // a rank beyond the pair: nothing to do
            Rendezvous.Measure measure = switch (rv) {
                case Rendezvous.Mirror mirror -> {
                    serveMirror(mirror, peer.sourceAddress(), meeting::abandon);
                    throw new NotMeasure();
                }
                case Rendezvous.Measure m -> m;
            };
            try {
                String node = peer.sourceAddress() != null ? peer.sourceAddress() : rv.localInterfaceAddress();
                return measure(measure, spec, node, measureCpu, measureHalf, meeting, facts);
            } catch (RuntimeException e) {
                if (Shutdown.requested()) throw Shutdown.interrupted(); // the meeting's close ends the mirror
                if (e instanceof TcpControl.PeerFailure f) {
                    throw new FabprobeException(f.exitCode(), "mirror: " + f.getMessage());
                }
                String status = meeting.peerStatus();
                if (e instanceof FabprobeException f && f.exitCode() == ExitCode.PEER_TIMEOUT && !status.isEmpty()
                        && !f.getMessage().contains(status)) {
                    throw new FabprobeException(f.exitCode(), f.getMessage() + " [" + status + "]");
                }
                throw e;
            }
        } finally {
            Leftovers.removeDead();
        }
    }

    /** Meets the peer; a signal meanwhile (the mirror killed under our feet) reads as what it is. */
    private static java.util.Optional<Rendezvous> meet(Meeting meeting) {
        try {
            return meeting.meet();
        } catch (RuntimeException e) {
            if (Shutdown.requested()) throw Shutdown.interrupted();
            throw e;
        }
    }

    private static <R> R measure(Rendezvous.Measure rv, SessionSpec spec, String node, int measureCpu, MeasureHalf<R> measureHalf,
                                 Meeting meeting, java.util.function.Consumer<Facts> facts) {
        rv.sendSession(spec);
        int[] allowedBefore = CpuAffinity.allowedCpus(); // what a local mirror inherited
        try (CpuAffinity.Pinned pinned = CpuAffinity.pinCurrentThreadIfChosen(measureCpu);
             Opened opened = new Opened(open(rv, spec, node));
             CompilerThreads.Lowered lowered = CompilerThreads.lower()) {
            Transport t = opened.transport();
            Group pair = PairGroup.of(rv);
            int peer = 1 - pair.rank();
            rv.phase("the address exchange");
            byte[] peerAddress = pair.exchange(t.localAddress())[peer];
            try {
                if (peerAddress.length > 0) t.connect(peerAddress);
            } catch (TransportException e) {
                awaitPeerGone(rv); // shared memory: a dead peer's segment is gone before its socket reads closed
                throw explained(e, rv, meeting, "the connection");
            }
            boolean localMirror = meeting instanceof LocalMirror;
            // the handshake's host facts have the host name; the boot id comes only at the end
            boolean sameHost = localMirror || HostFacts.hostname().equals(rv.peerHost().get("hostname"));
            int shared = sharedCpu(measureCpu, spec.mirrorCpu(), localMirror, sameHost, allowedBefore);
            facts.accept(new Facts(t.facts(), rv.peerHost(), meeting.describe(), node, shared));
            rv.phase("the measurement");
            R result;
            try (Watchdog watchdog = Watchdog.startMeasure(watchdogLimitMs(spec), "the measure process", rv, meeting::abandon)) {
                result = measureHalf.run(t, new Await(spec.timeout().toNanos(), rv.peer()), pair.control(peer, 0));
            } catch (TransportException e) {
                throw explained(e, rv, meeting, "the measurement");
            }
            rv.phase("the good-bye");
            rv.awaitDone();
            return result;
        }
    }

    /**
     * The mirror's whole part in one session: what measure asked for, exactly that, then done.
     * Errors of this side go to measure as one line before they end the session here.
     */
    public static SessionSpec serveMirror(Rendezvous.Mirror rv, String sourceOverride, Runnable onHang) {
        SessionSpec spec;
        try {
            spec = rv.receiveSession();
            TransportName transport = TransportName.parse(spec.transport());
            if (transport.oneHostOnly() && !sameHost(rv.peerHost())) {
                throw new FabprobeException(ExitCode.UNSUPPORTED, transport.family()
                        + ": emulates a network in one machine's shared memory: measure and mirror must run on one host");
            }
        } catch (FabprobeException e) {
            if (!(e instanceof TcpControl.PeerFailure)) rv.fail(e.getMessage(), e.exitCode());
            throw e;
        }
        String node = sourceOverride != null ? sourceOverride : rv.localInterfaceAddress();
        try (CpuAffinity.Pinned pinned = CpuAffinity.pinCurrentThreadIfChosen(spec.mirrorCpu());
             Opened opened = new Opened(open(rv, spec, node));
             CompilerThreads.Lowered lowered = CompilerThreads.lower()) {
            Transport t = opened.transport();
            Group pair = PairGroup.of(rv);
            int peer = 1 - pair.rank();
            rv.phase("the address exchange");
            byte[] peerAddress = pair.exchange(t.localAddress())[peer];
            try {
                if (peerAddress.length > 0) t.connect(peerAddress);
            } catch (TransportException e) {
                awaitPeerGone(rv);
                throw explained(e, rv, null, "the connection");
            }
            rv.phase("the measurement");
            try (Watchdog watchdog = Watchdog.start(watchdogLimitMs(spec), "the mirror process", rv, onHang)) {
                spec.schedule().mirrorHalf().run(t, new Await(spec.timeout().toNanos(), rv.peer()), pair.control(peer, 0));
            } catch (TransportException e) {
                throw explained(e, rv, null, "the measurement");
            }
            rv.phase("the good-bye");
            rv.done();
            return spec;
        } catch (TcpControl.PeerFailure e) {
            throw e;
        } catch (FabprobeException e) {
            if (Shutdown.requested()) {
                rv.fail("the mirror was stopped (Ctrl-C or SIGTERM)", ExitCode.PEER_TIMEOUT); // measure need not wait for its timeout
                throw Shutdown.interrupted();
            }
            if (e.exitCode() != ExitCode.PEER_TIMEOUT) rv.fail(e.getMessage(), e.exitCode());
            throw e;
        } catch (IllegalArgumentException e) {
            rv.fail(e.getMessage(), ExitCode.USAGE);
            throw e;
        }
    }

    /**
     * A session's transport, closed at its end, except after a signal (Ctrl-C, SIGTERM) when the
     * kernel releases it anyway ({@link Transport#releasedByExit}): libfabric's rxm/tcp endpoint
     * crashed in fi_close in 1 of 8 runs stopped mid-transfer of 1 MiB messages, while the peer
     * closed its side too.
     */
    private record Opened(Transport transport) implements AutoCloseable {
        @Override
        public void close() {
            if (Shutdown.requested() && transport.releasedByExit()) return;
            transport.close();
        }
    }

    /** Opens this side's transport; if that fails, the peer hears why before this side gives up. */
    private static Transport open(Rendezvous rv, SessionSpec spec, String node) {
        rv.phase("the transport set-up");
        try {
            return rv.openTransport(spec, node);
        } catch (FabprobeException e) {
            rv.fail(e.getMessage(), e.exitCode());
            throw e;
        } catch (IllegalArgumentException e) {
            rv.fail(e.getMessage(), ExitCode.USAGE);
            throw e;
        }
    }

    /** Gives a peer whose transport endpoint just failed a second to show it went away (a failure is reported either way). */
    private static void awaitPeerGone(Rendezvous rv) {
        long deadline = System.nanoTime() + 1_000_000_000L;
        try {
            while (!rv.peerGone() && System.nanoTime() < deadline) Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A transport failure whose cause is a peer that went away says so: a wait that timed out,
     * or an error completion (the shm provider's CMA reads from a dead process fail with EIO).
     */
    private static FabprobeException explained(TransportException e, Rendezvous rv, Meeting meeting, String phase) {
        String status = meeting == null ? "" : meeting.peerStatus();
        if (rv.peerGone()) {
            return new FabprobeException(ExitCode.PEER_TIMEOUT, rv.peer() + " went away during " + phase
                    + (status.isEmpty() ? "" : " [" + status + "]"));
        }
        if (e.exitCode() != ExitCode.PEER_TIMEOUT) return e;
        return status.isEmpty() ? e : new TransportException(e.exitCode(), e.getMessage() + " [" + status + "]");
    }

    /**
     * The one CPU measure and mirror must share, known before timing, or -1: both pinned to it
     * (--cpus 0,0), or a local mirror started by a thread allowed a single CPU (taskset -c 0),
     * which it inherited. Ranks a launcher placed, or a mirror started by hand, may be bound
     * elsewhere: they are not judged.
     */
    static int sharedCpu(int measureCpu, int mirrorCpu, boolean localMirror, boolean sameHost, int[] allowedBefore) {
        if (!sameHost) return -1;
        if (measureCpu >= 0 && measureCpu == mirrorCpu) return measureCpu;
        if (localMirror && mirrorCpu < 0 && allowedBefore.length == 1) return allowedBefore[0];
        return -1;
    }

    static boolean sameHost(Map<String, String> peerHost) {
        return HostFacts.bootId().equals(peerHost.get("boot_id"));
    }

    /** Longer than any legitimate pause between waits (a control-channel wait is bounded by the timeout). */
    private static long watchdogLimitMs(SessionSpec spec) {
        return 2 * spec.timeout().toMillis() + 10_000;
    }
}
