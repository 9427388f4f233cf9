package org.fabprobe.pattern;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import org.fabprobe.ExitCode;
import org.fabprobe.transport.TransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Both halves of streaming bandwidth in two threads over a loopback pair. */
class StreamInProcessTest {
    /** None is the JIT warm-up's large size (64 KiB), so every count below is exact. */
    private static final long[] SIZES = {8, 1000, 70_000};
    private static final int WINDOW = 8, WARMUP = 2, REPETITIONS = 5;

    @Test
    @Timeout(30)
    void everyWindowArrivesAndIsAcknowledged() throws Exception {
        Stream stream = new Stream(SIZES, WINDOW, WARMUP, REPETITIONS);
        try (InProcess io = new InProcess(70_000, stream.depth(), InProcess.PATIENT)) {
            InProcess.fill(io.measure.sendBuffer(), 3);

            Stream.Samples samples = io.run(stream::measure, stream::mirror);
            double[][] windowNs = samples.windowNs();

            assertEquals(SIZES.length, windowNs.length);
            for (double[] size : windowNs) {
                assertEquals(REPETITIONS, size.length);
                for (double ns : size) assertTrue(ns > 0 && Double.isFinite(ns), "window " + ns + " ns");
            }
            for (int i = 0; i < SIZES.length; i++) {
                long size = SIZES[i], messages = (long) WINDOW * (WARMUP + REPETITIONS) * (1 + samples.remeasured()[i]);
                assertTrue(samples.remeasured()[i] <= PingPong.MAX_REMEASURES);
                assertEquals(messages, io.measure.sendsBySize().get(size), "messages of " + size + " B");
                assertEquals(messages, io.mirror.recvsBySize().get(size), "receives of " + size + " B");
            }
            assertEquals(io.measure.sendsBySize(), io.mirror.recvsBySize(), "the mirror posts a receive per message, at its size");
            assertEquals(java.util.Set.of(0L), io.mirror.sendsBySize().keySet(), "acknowledgements are empty");
            long windows = io.mirror.sendsPosted();
            assertEquals(windows * WINDOW, io.measure.sendsPosted(), "one acknowledgement per window");
            PingPongInProcessTest.assertEverythingCompleted(io);
            assertEquals(-1, InProcess.mismatch(io.mirror.recvBuffer(), 3, 70_000), "measure's payload at the mirror");
        }
    }

    /**
     * A stall in a size's untimed warm-up windows is in no window's time, only in the size's wall
     * time: the size is measured again (both sides), and a stall that stays is flagged.
     */
    @Test
    @Timeout(60)
    void aStallInTheWarmUpWindowsMakesItsSizeMeasuredAgain() throws Exception {
        Stream stream = new Stream(SIZES, WINDOW, WARMUP, REPETITIONS);
        try (InProcess io = new InProcess(70_000, stream.depth(), InProcess.PATIENT)) {
            io.measure.stallOnce(1000, 5, 120); // the fifth message of the first warm-up window
            Stream.Samples samples = io.run(stream::measure, stream::mirror);
            assertTrue(samples.remeasured()[1] >= 1, "the size stalled in its warm-up was not measured again (gap "
                    + samples.gapMs()[1] + " ms)");
            for (double[] attempt : samples.windowNs()) {
                assertFalse(PingPong.stalled(attempt), "the stall is in an untimed window, yet a timed one holds it");
            }
            long messages = (long) WINDOW * (WARMUP + REPETITIONS) * (1 + samples.remeasured()[1]);
            assertEquals(messages, io.measure.sendsBySize().get(1000L), "both sides measured it again");
            assertEquals(messages, io.mirror.recvsBySize().get(1000L));
            PingPongInProcessTest.assertEverythingCompleted(io);
        }
    }

    @Test
    @Timeout(30)
    void aMirrorThatStopsAcknowledgingMakesTheMeasureSideTimeOut() throws Exception {
        Stream stream = new Stream(SIZES, WINDOW, WARMUP, REPETITIONS);
        try (InProcess io = new InProcess(70_000, stream.depth(), Duration.ofMillis(200))) {
            io.mirror.stopAfterSends(2); // acknowledges two windows, then is gone
            var mirrorDone = io.startMirror(stream::mirror);
            TransportException e = assertThrows(TransportException.class,
                    () -> stream.measure(io.measure, io.measureAwait(), io.measureControl));
            assertEquals(ExitCode.PEER_TIMEOUT, e.exitCode(), e.getMessage());
            assertThrows(CountingTransport.Stopped.class, () -> io.awaitMirror(mirrorDone));
        }
    }
}
