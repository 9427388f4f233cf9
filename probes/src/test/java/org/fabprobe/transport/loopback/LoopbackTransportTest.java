package org.fabprobe.transport.loopback;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import org.fabprobe.ExitCode;
import org.fabprobe.transport.TransportException;
import org.fabprobe.transport.TransportOptions;
import org.junit.jupiter.api.Test;

/** The loopback pair on its own, in one thread: what each call does to the counters and buffers. */
class LoopbackTransportTest {
    private static final TransportOptions OPTIONS = new TransportOptions(1024, 2, Duration.ofSeconds(1), "");

    @Test
    void aMessageWaitsForItsReceiveAndItsSendCompletesWhenCopied() {
        try (LoopbackTransport.Pair pair = LoopbackTransport.pair(OPTIONS)) {
            LoopbackTransport a = pair.first(), b = pair.second();
            a.sendBuffer().set(JAVA_LONG, 0, 42);
            a.postSend(8);
            a.progress();
            b.progress();
            assertEquals(0, a.sendsCompleted(), "no receive posted: the payload is still in the sender's buffer");
            assertEquals(0, b.recvsCompleted());

            b.postRecv(16);
            b.progress();
            assertEquals(1, b.recvsCompleted());
            assertEquals(42, b.recvBuffer().get(JAVA_LONG, 0));
            a.progress();
            assertEquals(1, a.sendsCompleted());
        }
    }

    @Test
    void messagesArriveInOrderIntoTheReceivesInPostingOrder() {
        try (LoopbackTransport.Pair pair = LoopbackTransport.pair(OPTIONS)) {
            LoopbackTransport a = pair.first(), b = pair.second();
            b.postRecv(8);
            b.postRecv(8);
            a.sendBuffer().set(JAVA_LONG, 0, 1);
            a.postSend(8);
            b.progress();
            assertEquals(1, b.recvBuffer().get(JAVA_LONG, 0));
            a.progress();
            a.sendBuffer().set(JAVA_LONG, 0, 2);
            a.postSend(8);
            b.progress();
            assertEquals(2, b.recvsCompleted());
            assertEquals(2, b.recvBuffer().get(JAVA_LONG, 0));
        }
    }

    @Test
    void theContractIsEnforced() {
        try (LoopbackTransport.Pair pair = LoopbackTransport.pair(OPTIONS)) {
            LoopbackTransport a = pair.first(), b = pair.second();
            a.postSend(0);
            a.postSend(0);
            assertThrows(TransportException.class, () -> a.postSend(0), "more sends outstanding than the depth");
            assertThrows(TransportException.class, () -> b.postRecv(2048), "larger than the buffer");

            b.postRecv(0);
            b.progress();
            assertEquals(1, b.recvsCompleted());
            a.progress();
            assertEquals(1, a.sendsCompleted());
            a.postSend(0); // room again
        }
        try (LoopbackTransport.Pair pair = LoopbackTransport.pair(OPTIONS)) {
            pair.first().postSend(64);
            pair.second().postRecv(8);
            TransportException e = assertThrows(TransportException.class, pair.second()::progress);
            assertTrue(e.getMessage().contains("64 B message arrived for a receive of 8 B"), e.getMessage());
        }
    }

    @Test
    void eachEndpointConnectsOnlyToItsPair() {
        try (LoopbackTransport.Pair pair = LoopbackTransport.pair(OPTIONS);
             LoopbackTransport.Pair other = LoopbackTransport.pair(OPTIONS)) {
            pair.first().connect(pair.second().localAddress());
            pair.second().connect(pair.first().localAddress());
            assertThrows(IllegalArgumentException.class, () -> pair.first().connect(other.second().localAddress()));
        }
    }

    @Test
    void theControlChannelChecksNamesAndTimesOut() {
        LoopbackControl.Pair control = LoopbackControl.pair(Duration.ofMillis(50));
        control.first().sendAll("rounds", 1, 2);
        assertArrayEquals(new long[] {1, 2}, control.second().receiveAll("rounds", 2));
        control.second().send("done", 7);
        assertEquals(7, control.first().receive("done"));

        control.first().send("rounds", 3);
        assertEquals(ExitCode.TRANSPORT_ERROR, assertThrows(TransportException.class,
                () -> control.second().receive("other")).exitCode(), "a message the receiver does not expect");
        assertEquals(ExitCode.PEER_TIMEOUT, assertThrows(TransportException.class,
                () -> control.second().receive("rounds")).exitCode(), "nothing sent");
    }
}
