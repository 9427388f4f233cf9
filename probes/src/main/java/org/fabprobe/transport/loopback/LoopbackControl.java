package org.fabprobe.transport.loopback;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.TransportException;

/**
 * The untimed control channel between two threads of one JVM ({@link #pair}), for patterns
 * run over a {@link LoopbackTransport}. A receive waits at most the timeout, so a peer that
 * stopped fails its partner instead of hanging it.
 */
public final class LoopbackControl implements Control {
    private record Message(String name, long[] values) {}

    /** Two ends, each the other's peer. */
    public record Pair(LoopbackControl first, LoopbackControl second) {}

    private final BlockingQueue<Message> inbound, outbound;
    private final Duration timeout;

    private LoopbackControl(BlockingQueue<Message> inbound, BlockingQueue<Message> outbound, Duration timeout) {
        this.inbound = inbound;
        this.outbound = outbound;
        this.timeout = timeout;
    }

    /** Two connected ends whose receives give up after {@code timeout}. */
    public static Pair pair(Duration timeout) {
        return pair(timeout, timeout);
    }

    /** Two connected ends, each with a timeout of its own (a test's patient peer beside an impatient one). */
    public static Pair pair(Duration firstTimeout, Duration secondTimeout) {
        BlockingQueue<Message> toFirst = new LinkedBlockingQueue<>(), toSecond = new LinkedBlockingQueue<>();
        return new Pair(new LoopbackControl(toFirst, toSecond, firstTimeout), new LoopbackControl(toSecond, toFirst, secondTimeout));
    }

    @Override
    public void sendAll(String name, long... values) {
        outbound.add(new Message(name, values.clone()));
    }

    @Override
    public long[] receiveAll(String name, int count) {
        Message m;
        try {
            m = inbound.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TransportException.error("interrupted while waiting for control " + name);
        }
        if (m == null) {
            throw TransportException.timeout("no control " + name + " from the peer for " + timeout.toMillis() + " ms");
        }
        if (!m.name().equals(name) || m.values().length != count) {
            throw TransportException.error("expected control " + name + "[" + count + "], got " + m.name() + "["
                    + m.values().length + "]");
        }
        return m.values();
    }
}
