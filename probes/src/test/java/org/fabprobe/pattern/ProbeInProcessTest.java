package org.fabprobe.pattern;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import org.fabprobe.ExitCode;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.TransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Both halves of the LogP probes in two threads over a loopback pair. */
class ProbeInProcessTest {
    private static final int DEPTH = 8, REPS = 10;

    @Test
    @Timeout(30)
    void everyProbeRunsItsMessagesAndTimesThem() throws Exception {
        try (InProcess io = new InProcess(4096, DEPTH, InProcess.PATIENT)) {
            InProcess.fill(io.measure.sendBuffer(), 4);
            InProcess.fill(io.mirror.sendBuffer(), 5);
            // each probe at sizes of its own, so the counts below tell them apart
            double[][] results = io.run((t, await, control) -> {
                Probe probe = new Probe(t, await, control, DEPTH, PingPong.Calls.NONBLOCKING);
                Probe.RoundTrips roundTrips = probe.roundTrip(64, 32, REPS);
                double[] recvAfterDelay = probe.recvAfterDelay(48, 2_000, REPS);
                double[] train = probe.train(DEPTH + 4, 4096, 100, 16, REPS); // longer than the depth: the sender stalls
                double[] burst = probe.burst(DEPTH, 200, 0, REPS);
                probe.end();
                return new double[][] {roundTrips.sendNs(), roundTrips.rttNs(), recvAfterDelay, train, burst};
            }, (t, await, control) -> Probe.mirror(t, await, control, DEPTH, PingPong.Calls.NONBLOCKING));

            for (double[] series : results) {
                assertEquals(REPS, series.length);
                for (double ns : series) assertTrue(ns >= 0 && Double.isFinite(ns), ns + " ns");
            }
            for (int r = 0; r < REPS; r++) assertTrue(results[1][r] > 0, "a round trip takes time");

            var sent = io.measure.sendsBySize();
            assertEquals(REPS, sent.get(64L), "round trips");
            assertEquals((long) (DEPTH + 4) * REPS, sent.get(4096L), "train messages");
            assertEquals((long) DEPTH * REPS, sent.get(200L), "burst requests");
            var replies = io.mirror.sendsBySize();
            assertEquals(REPS, replies.get(32L), "round trip replies");
            assertEquals(REPS, replies.get(48L), "replies received after the delay");
            assertEquals(REPS, replies.get(16L), "one reply per train");
            assertEquals(io.measure.sendsBySize(), io.mirror.recvsBySize(), "the mirror posts a receive per message, at its size");
            PingPongInProcessTest.assertEverythingCompleted(io);
            assertEquals(-1, InProcess.mismatch(io.mirror.recvBuffer(), 4, 4096), "measure's payload at the mirror");
            assertEquals(-1, InProcess.mismatch(io.measure.recvBuffer(), 5, 16), "the last reply's payload at measure");
        }
    }

    @Test
    @Timeout(30)
    void aMirrorThatStopsReportingMakesTheMeasureSideTimeOutOnTheControlChannel() throws Exception {
        try (InProcess io = new InProcess(4096, DEPTH, Duration.ofMillis(200), SilentAfterFirstBatch::new)) {
            var mirrorDone = io.startMirror((t, await, control) -> Probe.mirror(t, await, control, DEPTH, PingPong.Calls.NONBLOCKING));
            // the transport waits patiently: only the control channel's timeout may end this run
            Probe probe = new Probe(io.measure, new Await(InProcess.PATIENT.toNanos(), "the mirror thread"), io.measureControl,
                    DEPTH, PingPong.Calls.NONBLOCKING);
            TransportException e = assertThrows(TransportException.class, () -> probe.roundTrip(64, 64, REPS));
            assertEquals(ExitCode.PEER_TIMEOUT, e.exitCode(), e.getMessage());
            assertTrue(e.getMessage().contains("batch_end"), e.getMessage());
            assertThrows(CountingTransport.Stopped.class, () -> io.awaitMirror(mirrorDone));
        }
    }

    /** A mirror's control end that stops where it would report the end of its first batch. */
    private record SilentAfterFirstBatch(Control control) implements Control {
        @Override
        public void sendAll(String name, long... values) {
            if (name.equals("batch_end")) throw new CountingTransport.Stopped();
            control.sendAll(name, values);
        }

        @Override
        public long[] receiveAll(String name, int count) {
            return control.receiveAll(name, count);
        }
    }
}
