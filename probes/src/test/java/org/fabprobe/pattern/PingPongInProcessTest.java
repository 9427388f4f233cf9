package org.fabprobe.pattern;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.runtime.CpuAffinity;
import org.fabprobe.transport.TransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Both halves of the ping-pong sweep in two threads over a loopback pair. */
class PingPongInProcessTest {
    private static final long[] SIZES = {1, 100, 4096};
    private static final int WARMUP = 5, REPETITIONS = 50;
    /** What the pingpong command opens its transports with: the measure half keeps two receives posted. */
    private static final int DEPTH = 4;

    @Test
    @Timeout(30)
    void everyRoundTripIsEchoedAndTimed() throws Exception {
        PingPong pingPong = new PingPong(SIZES, WARMUP, REPETITIONS, PingPong.Calls.NONBLOCKING);
        try (InProcess io = new InProcess(4096, DEPTH, InProcess.PATIENT)) {
            InProcess.fill(io.measure.sendBuffer(), 1);
            InProcess.fill(io.mirror.sendBuffer(), 2);

            PingPong.Samples samples = io.run(pingPong::measure, pingPong::mirror);

            assertEquals(SIZES.length, samples.halfRttNs().length);
            for (double[] size : samples.halfRttNs()) {
                assertEquals(REPETITIONS, size.length);
                for (double ns : size) assertTrue(ns > 0 && Double.isFinite(ns), "half round trip " + ns + " ns");
            }
            assertEquals(SIZES.length + 1, samples.sentinelNs().length);
            for (double[] sentinel : samples.sentinelNs()) {
                assertEquals(PingPong.SENTINEL_ROUNDS, sentinel.length);
                for (double ns : sentinel) assertTrue(ns > 0 && Double.isFinite(ns), "sentinel " + ns + " ns");
            }
            for (double ms : samples.wallMs()) assertTrue(ms > 0 && Double.isFinite(ms));

            // per size and measurement (a disturbed size is measured again), warm-up and timed round
            // trips and the one that closes the last interval, each way
            for (int i = 0; i < SIZES.length; i++) {
                long size = SIZES[i], sends = (WARMUP + REPETITIONS + 1L) * (1 + samples.remeasured()[i]);
                assertTrue(samples.remeasured()[i] <= PingPong.MAX_REMEASURES);
                assertEquals(sends, io.measure.sendsBySize().get(size), "measure sends of " + size + " B");
                assertEquals(sends, io.mirror.sendsBySize().get(size), "mirror sends of " + size + " B");
            }
            assertEquals(io.measure.sendsBySize(), io.mirror.sendsBySize(), "every message echoed at its size");
            assertEquals(io.measure.sendsBySize(), io.mirror.recvsBySize());
            assertEquals(io.mirror.sendsBySize(), io.measure.recvsBySize());
            assertEverythingCompleted(io);

            // the largest size came last on each side: its bytes are the other side's send buffer
            assertEquals(-1, InProcess.mismatch(io.mirror.recvBuffer(), 1, 4096), "measure's payload at the mirror");
            assertEquals(-1, InProcess.mismatch(io.measure.recvBuffer(), 2, 4096), "mirror's payload at measure");
        }
    }

    /**
     * Both threads on one CPU (the mirror's thread inherits the pinned caller's CPU): every size is
     * preempted throughout, so it stays disturbed however often it is measured again ({@link
     * Remeasures} stops early where the disturbance persists), and both sides still exchange
     * exactly the same messages.
     */
    @Test
    @Timeout(120)
    void aDisturbedSizeIsMeasuredAgainByBothSides() throws Exception {
        long[] sizes = {8};
        PingPong pingPong = new PingPong(sizes, WARMUP, REPETITIONS, PingPong.Calls.NONBLOCKING);
        PingPong.Samples samples;
        try (InProcess io = new InProcess(4096, DEPTH, InProcess.PATIENT);
             CpuAffinity.Pinned pinned = CpuAffinity.pinCurrentThread(CpuAffinity.allowedCpus()[0])) {
            samples = io.run(pingPong::measure, pingPong::mirror);
            long sends = (WARMUP + REPETITIONS + 1L) * (1 + samples.remeasured()[0]);
            assertEquals(sends, io.measure.sendsBySize().get(8L), "measure sends of 8 B");
            assertEquals(sends, io.mirror.sendsBySize().get(8L), "mirror sends of 8 B");
            assertEverythingCompleted(io);
        }
        assertTrue(samples.disturbed()[0], "two spinning threads on one CPU, yet not disturbed");
        assertTrue(samples.remeasured()[0] <= PingPong.MAX_REMEASURES, "measured again " + samples.remeasured()[0] + " times");
        assertEquals(REPETITIONS, samples.halfRttNs()[0].length, "the last measurement's samples");
    }

    /** A round trip that stalls (a link down for a moment) is no preemption, yet its size is measured again. */
    @Test
    @Timeout(60)
    void aStalledRoundTripMakesItsSizeMeasuredAgain() throws Exception {
        // a loaded host can disturb the first size so that the stalled one looks like a persisting disturbance
        untilUndisturbed(this::stalledRoundTrip);
    }

    private void stalledRoundTrip() throws Exception {
        long[] sizes = {8, 64};
        PingPong pingPong = new PingPong(sizes, WARMUP, REPETITIONS, PingPong.Calls.NONBLOCKING);
        try (InProcess io = new InProcess(4096, DEPTH, InProcess.PATIENT)) {
            io.mirror.stallOnce(64, WARMUP + REPETITIONS / 2, 120);
            PingPong.Samples samples = io.run(pingPong::measure, pingPong::mirror);
            assertTrue(samples.remeasured()[1] >= 1, "the stalled size was not measured again");
            double[] slowest = {0};
            for (double[] attempt : samples.halfRttNs()) for (double ns : attempt) slowest[0] = Math.max(slowest[0], ns);
            // the kept (last) measurement is another attempt: the stall is gone from it
            assertTrue(slowest[0] < 60e6 / 2 || samples.disturbed()[1], "a kept sample still holds the stall: " + slowest[0]);
            assertEverythingCompleted(io);
        }
    }

    /**
     * A stall inside the untimed warm-up rounds is in no sample: only the size's wall time,
     * beyond what its round trips and its wait for a CPU account for, shows it.
     */
    @Test
    @Timeout(60)
    void aStallInTheWarmUpRoundsMakesItsSizeMeasuredAgain() throws Exception {
        // a loaded host's CPU wait can mask the gap, or make the stalled size look like a persisting disturbance
        untilUndisturbed(this::stallInWarmUp);
    }

    private void stallInWarmUp() throws Exception {
        long[] sizes = {8, 64};
        PingPong pingPong = new PingPong(sizes, WARMUP, REPETITIONS, PingPong.Calls.NONBLOCKING);
        try (InProcess io = new InProcess(4096, DEPTH, InProcess.PATIENT)) {
            // long enough that a loaded host's CPU wait, subtracted from the gap, cannot hide it
            io.mirror.stallOnce(64, WARMUP / 2, 500);
            PingPong.Samples samples = io.run(pingPong::measure, pingPong::mirror);
            assertTrue(samples.remeasured()[1] >= 1, "the size stalled in its warm-up was not measured again (gap "
                    + samples.gapMs()[1] + " ms)");
            for (double[] attempt : samples.halfRttNs()) {
                assertFalse(PingPong.stalled(attempt), "the stall is in an untimed round, yet a sample holds it");
            }
            assertEverythingCompleted(io);
        }
    }

    private interface Check {
        void run() throws Exception;
    }

    /** Up to three attempts: a failure on every one is the code's, one on a single attempt the host's. */
    private static void untilUndisturbed(Check check) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                check.run();
                return;
            } catch (AssertionError e) {
                if (attempt == 3) throw e;
                System.err.println("attempt " + attempt + " disturbed, retrying: " + e.getMessage());
            }
        }
    }

    @Test
    void aGapIsAStallOnlyBeyondItsUntimedRoundsAndTheBound() {
        double[] rounds = new double[1000];
        java.util.Arrays.fill(rounds, 20_000); // 20 us round trips: 20 ms timed
        // 100 untimed rounds at the median pace, nothing else: no gap
        assertEquals(0, PingPong.gapNs(20e6 + 100 * 20_000, rounds, 100, 0), 1);
        // 30 ms more that waiting for a CPU explains: no gap
        assertEquals(0, PingPong.gapNs(20e6 + 100 * 20_000 + 30e6, rounds, 100, 30e6), 1);
        // a busy host: 400 of the timed rounds waited 20 us more; the untimed ones at that pace, the
        // wait (each side's) already inside the timed rounds: no gap, not a negative one
        double[] busy = rounds.clone();
        for (int r = 0; r < 400; r++) busy[r] = 40_000;
        assertEquals(0, PingPong.gapNs(28e6 + 100 * 28_000, busy, 100, 8e6), 1);
        // and a 3 s outage in its warm-up stays a 3 s gap on that busy host
        assertEquals(3e9, PingPong.gapNs(28e6 + 100 * 28_000 + 3e9, busy, 100, 8e6), 1);
        assertFalse(PingPong.gapStalled(30e6, rounds, 100), "30 ms: a busy host's slices, below the bound");
        assertTrue(PingPong.gapStalled(3e9, rounds, 100), "3 s: an outage");
        // large messages: 10 ms round trips, 100 untimed ones take 1 s, and a 600 ms gap is theirs to explain
        java.util.Arrays.fill(rounds, 10e6);
        assertFalse(PingPong.gapStalled(600e6, rounds, 100));
        assertTrue(PingPong.gapStalled(3e9, rounds, 100));
    }

    @Test
    void aStallIsALongRoundTripNotASlowOne() {
        double[] steady = new double[1000];
        java.util.Arrays.fill(steady, 10_000);
        assertFalse(PingPong.stalled(steady));
        steady[500] = 30e6; // 30 ms: a scheduler's slice or a compile on a busy host, not a stall
        assertFalse(PingPong.stalled(steady));
        steady[500] = 1.5e9;
        assertTrue(PingPong.stalled(steady));
        double[] slow = new double[1000];
        java.util.Arrays.fill(slow, 100e6); // 100 ms every time: a large message, steady
        slow[3] = 300e6;
        assertFalse(PingPong.stalled(slow));
    }

    @Test
    @Timeout(30)
    void aMirrorThatStopsMakesTheMeasureSideTimeOut() throws Exception {
        PingPong pingPong = new PingPong(SIZES, WARMUP, REPETITIONS, PingPong.Calls.NONBLOCKING);
        try (InProcess io = new InProcess(4096, DEPTH, Duration.ofMillis(200))) {
            io.mirror.stopAfterSends(10); // inside the first probe rounds
            var mirrorDone = io.startMirror(pingPong::mirror);
            long start = System.nanoTime();
            TransportException e = assertThrows(TransportException.class,
                    () -> pingPong.measure(io.measure, io.measureAwait(), io.measureControl));
            assertEquals(ExitCode.PEER_TIMEOUT, e.exitCode(), e.getMessage());
            assertTrue(e.getMessage().contains("no answer from the mirror thread"), e.getMessage());
            assertTrue(System.nanoTime() - start < 10e9, "gave up after the timeout, not much later");
            assertThrows(CountingTransport.Stopped.class, () -> io.awaitMirror(mirrorDone));
        }
    }

    /** Nothing left outstanding: every posted receive completed, every send was received. */
    static void assertEverythingCompleted(InProcess io) {
        assertEquals(io.measure.recvsPosted(), io.measure.recvsCompleted(), "measure's receives");
        assertEquals(io.mirror.recvsPosted(), io.mirror.recvsCompleted(), "mirror's receives");
        assertEquals(io.measure.sendsPosted(), io.measure.sendsCompleted(), "measure's sends");
        assertEquals(io.mirror.sendsPosted(), io.mirror.sendsCompleted(), "mirror's sends");
        assertEquals(io.measure.sendsCompleted(), io.mirror.recvsCompleted());
        assertEquals(io.mirror.sendsCompleted(), io.measure.recvsCompleted());
    }

    static long total(Map<Long, Long> bySize) {
        return bySize.values().stream().mapToLong(Long::longValue).sum();
    }
}
