package org.fabprobe.transport;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compare-and-swap's operands reach the library in the right places (UCX: the reply buffer
 * holds the swap value on input; libfabric: buf is the swap value, compare the compare value):
 * two endpoints of the real library in one process, the target's word read afterwards.
 */
class CompareSwapOperandsTest {
    private static final TransportOptions OPTIONS = new TransportOptions(4096, 4, Duration.ofSeconds(10), "127.0.0.1");

    @ParameterizedTest
    @ValueSource(strings = {"ucx:posix", "ofi:shm"})
    void theSwapValueLandsWhereTheCompareValueMatchedAndNothingElse(String name) {
        try (Transport origin = Transports.open(name, OPTIONS, Op.CSWAP);
             Transport target = Transports.open(name, OPTIONS, Op.CSWAP)) {
            origin.connect(target.localAddress());
            target.connect(origin.localAddress());
            OneSided o = (OneSided) origin, t = (OneSided) target;
            o.attachPeerRegion(t.describeRegion());
            t.attachPeerRegion(o.describeRegion());
            target.recvBuffer().set(JAVA_LONG, 0, 5);
            // the target progresses on a thread of its own (libfabric's shm serves atomics from
            // the target's completion queue); the origin's calls stay on this thread
            AtomicBoolean done = new AtomicBoolean();
            Thread progress = Thread.ofPlatform().daemon().start(() -> {
                while (!done.get()) target.progress();
            });
            try {
                operate(origin, target, o);
            } finally {
                done.set(true);
                joinQuietly(progress);
            }
        }
    }

    private static void operate(Transport origin, Transport target, OneSided o) {
        o.postCompareSwap(5, 9); // matches: 9 goes in
        complete(origin, target, o);
        assertEquals(5, o.fetched(), "the old value comes back");
        assertEquals(9, target.recvBuffer().get(JAVA_LONG, 0), "the swap value, not the compare value, is written");

        o.postCompareSwap(5, 11); // does not match: nothing changes
        complete(origin, target, o);
        assertEquals(9, o.fetched());
        assertEquals(9, target.recvBuffer().get(JAVA_LONG, 0), "a failed compare leaves the word alone");
    }

    private static void joinQuietly(Thread thread) {
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The origin's progress until its operations complete. */
    private static void complete(Transport origin, Transport target, OneSided o) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (o.oneSidedCompleted() < o.oneSidedPosted()) {
            origin.progress();
            assertTrue(System.nanoTime() < deadline, "one-sided operation did not complete in 10 s");
        }
    }
}
