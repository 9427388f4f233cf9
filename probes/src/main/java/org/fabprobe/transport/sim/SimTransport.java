package org.fabprobe.transport.sim;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.fabprobe.clock.Clock;
import org.fabprobe.transport.Buffers;
import org.fabprobe.transport.KnownPeers;
import org.fabprobe.transport.OneSided;
import org.fabprobe.transport.Op;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.TransportException;
import org.fabprobe.transport.TransportOptions;

/**
 * {@code sim:...}: an emulated network with the LogGP parameters you set (see
 * {@link SimParameters} for the exact semantics), used to prove the estimators.
 *
 * <p>Measure and mirror are real processes. Each owns an inbox, a ring of message headers
 * (arrival time in TSC ticks, size) in a file under /dev/shm that the peer maps too; the
 * delays are imposed by busy-waiting on the TSC, which is shared by all cores (invariant
 * TSC). It carries timing, not payload: the registered buffers are never copied.
 *
 * <p>One-sided ({@link OneSided}, opened for an op other than send): the receive buffer lives
 * in the inbox file too, so the peer maps it. A write is a message like a send (o_s busy at the
 * origin, the link's g and G, arriving after L) whose arrival sets the flag byte in the
 * target's receive buffer, done by the target's next {@link #progress} without any busy time:
 * the target's overhead is 0. A read or an atomic costs the origin o_s and completes o_s + 2L +
 * (m-1)G after it was posted (request there, data back); atomics act on the peer's first
 * 8 bytes at once, so fetched values are real.
 */
public final class SimTransport implements Transport, OneSided {
    private static final int SLOTS = 1024;
    /**
     * A slot: arrival time (TSC ticks), size, the receiver's o_r (ns, as double bits: the link's, set by the
     * sender), padded to 32 B so that no slot straddles a cache line.
     */
    private static final long TAIL = 0, HEAD = 64, RING = 128, SLOT_BYTES = 32;
    private static final long INBOX_BYTES = RING + SLOTS * SLOT_BYTES;
    /** Where a one-sided transport's receive buffer starts in its inbox file: page-aligned, after the ring. */
    private static final long RECV_AT = (INBOX_BYTES + 4095) / 4096 * 4096;
    private static final VarHandle LONG = JAVA_LONG.varHandle();
    private static final VarHandle BYTE = java.lang.foreign.ValueLayout.JAVA_BYTE.varHandle();
    /** Completion times of reads and atomics outstanding at once, at most (a ring). */
    private static final int RMA_SLOTS = 4096;

    private final String name;
    private final SimParameters spec;
    private final int rank;
    /** The parameters of messages to the current peer (spec.between(rank, peer)). */
    private SimParameters params;
    private final Map<String, String> facts;
    private final Arena arena = Arena.ofShared();
    private final Path inboxFile;
    private final MemorySegment inbox;
    private final Buffers buffers;
    private final long timeoutTicks;
    /**
     * A busy-wait leaves about one clock read after its deadline (the read that sees it, then
     * the way out of the call): each o_s and o_r deadline is set that much earlier, so that the
     * whole call lasts o, not o plus the emulator's own exit.
     */
    private final double exitNs;
    private MemorySegment peerInbox;
    /** Messages in the peer's inbox so far (all senders', one sender at a time): the next slot. */
    private long peerTail;
    /** Peers' inboxes, mapped once each. */
    private final KnownPeers<MemorySegment> inboxes = new KnownPeers<>();

    private long linkFreeTicks;
    /** When the link back from the peer is free for the next read's or atomic's reply. */
    private long replyLinkFreeTicks;
    private long sent, received, recvsPosted;
    /** Ring slots taken from the inbox: received messages and applied writes. */
    private long consumed;
    private final Op op;
    /** One-sided: the receive buffer (in the inbox file), the peer's, and the operations' state. */
    private final MemorySegment recvBuffer;
    private MemorySegment peerRecv;
    private final long[] rmaDone = new long[RMA_SLOTS];
    private long rmaPosted, rmaCompleted, fetchedValue;
    /** A busy-wait that ends this late (2 µs) was preempted, not slowed by a clock read. */
    private final long missedTicks = Clock.fromNs(2_000);
    private long missed;

    private SimTransport(String name, SimParameters params, TransportOptions options, Op op) {
        this.name = name;
        this.op = op;
        this.spec = params;
        this.params = params.between(-1, -1);
        this.rank = options.rank();
        this.facts = params.describe();
        this.timeoutTicks = Clock.fromNs(options.timeout().toNanos());
        double readCost = Clock.facts().readCostNs();
        this.exitNs = Double.isFinite(readCost) && readCost > 0 ? readCost : 0;
        Path dir = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir"));
        inboxFile = dir.resolve(org.fabprobe.transport.ShmNames.nextSim());
        long recvBytes = Math.max(options.bufferBytes(), 64);
        inbox = map(inboxFile, op.oneSided() ? RECV_AT + recvBytes : INBOX_BYTES);
        buffers = Buffers.allocate(arena, options);
        recvBuffer = op.oneSided() ? inbox.asSlice(RECV_AT, recvBytes) : buffers.recv();
        if (op.oneSided()) facts.put("one_sided", op.label() + " (emulated: target overhead 0; the target's progress sets a write's flag byte)");
        if (op == Op.WRITE) facts.put("write_ordering", writeOrdering());
        facts.put("library", "fabprobe emulator");
    }

    public static SimTransport open(String name, String spec, TransportOptions options) {
        return new SimTransport(name, SimParameters.parse(spec), options, Op.SEND);
    }

    /** As {@link #open(String, String, TransportOptions)}, able to do one-sided {@code op} unless it is send. */
    public static SimTransport open(String name, String spec, TransportOptions options, Op op) {
        return new SimTransport(name, SimParameters.parse(spec), options, op);
    }

    /** Creates the file of {@code bytes} and maps it, or (bytes 0) maps the peer's whole file. */
    private MemorySegment map(Path file, long bytes) {
        boolean create = bytes > 0;
        try (FileChannel channel = create
                ? FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (create) channel.write(java.nio.ByteBuffer.allocate(1), bytes - 1); // size the file
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, create ? bytes : channel.size(), arena);
        } catch (IOException e) {
            throw new UncheckedIOException("sim: cannot map " + file, e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Map<String, String> facts() {
        return facts;
    }

    @Override
    public long maxMessageSize() {
        return Long.MAX_VALUE;
    }

    @Override
    public byte[] localAddress() {
        return (rank + "@" + inboxFile).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The peer's rank and inbox ("RANK@PATH"). One sender at a time may use an inbox (a pair
     * talks alone; matrix rounds are separated by barriers), so the next slot is read from the
     * inbox itself when the peer changes.
     */
    @Override
    public void connect(byte[] peerAddress) {
        String address = new String(peerAddress, StandardCharsets.UTF_8);
        int at = address.indexOf('@');
        if (at < 0) throw new IllegalArgumentException("sim: not an emulator address: " + address);
        int peerRank = Integer.parseInt(address.substring(0, at));
        peerInbox = inboxes.connect(peerAddress, unused -> map(Path.of(address.substring(at + 1)), 0));
        peerRecv = peerInbox.byteSize() > RECV_AT ? peerInbox.asSlice(RECV_AT) : null;
        peerTail = (long) LONG.getAcquire(peerInbox, TAIL);
        params = spec.between(rank, peerRank);
    }

    @Override
    public MemorySegment sendBuffer() {
        return buffers.send();
    }

    @Override
    public MemorySegment recvBuffer() {
        return recvBuffer;
    }

    @Override
    public void postRecv(long bytes) {
        recvsPosted++;
    }

    /**
     * Queues the message for the link and is busy o_s. Like a NIC, the link drains its queue
     * at one message per g + (s-1)G; the sender stalls only when more than LogP's capacity
     * ceil(L/g) messages are waiting for it (Culler's "full network").
     */
    @Override
    public void postSend(long bytes) {
        enqueue(bytes, 0);
        sent++;
    }

    /**
     * postSend's message, {@code flag} 0; else a one-sided write whose arrival sets the flag:
     * {@code (offset + 1) << 8 | value} (see {@link #progress}).
     */
    private void enqueue(long bytes, long flag) {
        long start = Clock.now(); // busy o_s from the call: the emulator's own cache misses are part of it
        SimParameters.Set p = params.forSize(bytes);
        long tail = peerTail;
        if (tail - (long) LONG.getAcquire(peerInbox, HEAD) >= SLOTS) start = awaitRingSpace(tail, start);
        double streamNs = Math.max(bytes - 1, 0) * p.gapPerByte();
        long occupancy = Clock.fromNs(p.gap() + streamNs);
        long backlogLimit = occupancy * Math.max(1, (long) Math.ceil(p.latency() / Math.max(p.gap(), 1)));
        while (linkFreeTicks - start > backlogLimit) {
            start = Clock.now();
        }
        long departure = Math.max(start, linkFreeTicks);
        linkFreeTicks = departure + occupancy;
        // the header is published before the o_s spin: the cache-line transfer to the peer
        // overlaps o_s + L instead of adding to them
        long slot = RING + (tail % SLOTS) * SLOT_BYTES;
        peerInbox.set(JAVA_LONG, slot, departure + Clock.fromNs(p.sendOverhead() + p.latency() + streamNs));
        peerInbox.set(JAVA_LONG, slot + 8, bytes);
        peerInbox.set(JAVA_LONG, slot + 16, Double.doubleToRawLongBits(p.recvOverhead()));
        peerInbox.set(JAVA_LONG, slot + 24, flag);
        LONG.setRelease(peerInbox, TAIL, tail + 1);
        peerTail = tail + 1;
        spinUntil(start + busyTicks(p.sendOverhead()));
    }

    /** How long a post waits for ring space, 0: the session's timeout ({@link #postRetryLimit}). */
    private long retryTicks;

    @Override
    public void postRetryLimit(long ns) {
        retryTicks = Clock.fromNs(ns);
    }

    private long awaitRingSpace(long tail, long start) {
        long deadline = start + (retryTicks > 0 ? retryTicks : timeoutTicks);
        while (tail - (long) LONG.getAcquire(peerInbox, HEAD) >= SLOTS) { // the peer's ring is full
            if (Clock.now() - deadline > 0) throw TransportException.timeout(name + ": peer stopped receiving");
            progress();
        }
        return Clock.now();
    }

    /**
     * Completes the oldest message once it has arrived and a receive is posted: o_r busy; or
     * applies the oldest write once it has arrived, without busy time. Then the reads and
     * atomics whose time has come.
     */
    @Override
    public void progress() {
        if (rmaCompleted < rmaPosted) completeReads();
        if (op.oneSided()) applyWrites();
        if (received >= recvsPosted) return;
        // busy o_r from the call: the cache misses on the peer's tail and header (~50-100 ns
        // between vCPUs) are part of it, not added to it
        long entered = Clock.now();
        long head = consumed;
        if ((long) LONG.getAcquire(inbox, TAIL) <= head) return;
        long slot = RING + (head % SLOTS) * SLOT_BYTES;
        long arrival = inbox.get(JAVA_LONG, slot);
        if (entered - arrival < 0 || inbox.get(JAVA_LONG, slot + 24) != 0) return;
        double recvOverhead = Double.longBitsToDouble(inbox.get(JAVA_LONG, slot + 16));
        // the slot is handed back before the o_r spin, for the same reason as the header in postSend
        LONG.setRelease(inbox, HEAD, head + 1);
        consumed = head + 1;
        spinUntil(entered + busyTicks(recvOverhead));
        received++;
    }

    /** Writes at the ring's head that have arrived: their flag bytes set, their slots handed back. */
    private void applyWrites() {
        long now = Clock.now();
        for (long head = consumed; (long) LONG.getAcquire(inbox, TAIL) > head; head++) {
            long slot = RING + (head % SLOTS) * SLOT_BYTES;
            long flag = inbox.get(JAVA_LONG, slot + 24);
            if (flag == 0 || now - inbox.get(JAVA_LONG, slot) < 0) return;
            BYTE.setRelease(recvBuffer, (flag >>> 8) - 1, (byte) flag);
            LONG.setRelease(inbox, HEAD, head + 1);
            consumed = head + 1;
        }
    }

    private void completeReads() {
        long now = Clock.now();
        while (rmaCompleted < rmaPosted && now - rmaDone[(int) (rmaCompleted % RMA_SLOTS)] >= 0) rmaCompleted++;
    }

    // ---- one-sided (OneSided): the peer's receive buffer is mapped from its inbox file

    @Override
    public byte[] describeRegion() {
        requireOneSided();
        return new byte[0]; // the inbox file's name, already in the address, says where
    }

    @Override
    public void attachPeerRegion(byte[] description) {
        requireOneSided();
        if (peerRecv == null) throw new IllegalStateException(name + ": the peer was not opened for one-sided operations");
    }

    /** The message carries the last byte's value and place; the rest is timing, as for sends. */
    @Override
    public void postWrite(long bytes) {
        byte last = (byte) BYTE.get(buffers.send(), bytes - 1);
        enqueue(bytes, (bytes << 8) | (last & 0xFF));
        rmaPosted++;
        rmaCompleted++;
    }

    @Override
    public String writeOrdering() {
        return "the emulator sets the flag byte when the write arrives (it carries no payload)";
    }

    @Override
    public void postRead(long bytes) {
        roundTrip(bytes);
    }

    @Override
    public void postFetchAdd(long value) {
        fetchedValue = (long) LONG.getAndAdd(peerRecv, 0L, value);
        roundTrip(8);
    }

    @Override
    public void postCompareSwap(long compare, long swap) {
        fetchedValue = (long) LONG.compareAndExchange(peerRecv, 0L, compare, swap);
        roundTrip(8);
    }

    /**
     * o_s busy, then complete o_s + 2L + (m-1)G after the call, in posting order; the replies
     * leave the target at most one per g + (m-1)G, as messages leave a sender ({@link #enqueue}).
     */
    private void roundTrip(long bytes) {
        long start = Clock.now();
        SimParameters.Set p = params.forSize(bytes);
        while (rmaPosted - rmaCompleted >= RMA_SLOTS) completeReads();
        double streamNs = Math.max(bytes - 1, 0) * p.gapPerByte();
        long departure = Math.max(start, replyLinkFreeTicks);
        replyLinkFreeTicks = departure + Clock.fromNs(p.gap() + streamNs);
        long done = departure + Clock.fromNs(p.sendOverhead() + 2 * p.latency() + streamNs);
        long previous = rmaPosted == 0 ? done : rmaDone[(int) ((rmaPosted - 1) % RMA_SLOTS)];
        rmaDone[(int) (rmaPosted % RMA_SLOTS)] = Math.max(done, previous);
        rmaPosted++;
        spinUntil(start + busyTicks(p.sendOverhead()));
    }

    @Override
    public long fetched() {
        return fetchedValue;
    }

    @Override
    public long oneSidedPosted() {
        return rmaPosted;
    }

    @Override
    public long oneSidedCompleted() {
        return rmaCompleted;
    }

    /** The emulator's own: whatever it emulates costs the target nothing (overhead 0). */
    @Override
    public boolean emulated(Op op) {
        return false;
    }

    private void requireOneSided() {
        if (!op.oneSided()) throw new IllegalStateException(name + " was opened for two-sided messages only");
    }

    private long busyTicks(double overheadNs) {
        return Clock.fromNs(Math.max(0, overheadNs - exitNs));
    }

    /**
     * No PAUSE in the loop: on current x86 one PAUSE takes tens of ns, and the overshoot of
     * every emulated o_s and o_r would add that much to the overheads the methods read back.
     */
    private void spinUntil(long ticks) {
        long now;
        while ((now = Clock.now()) - ticks < 0) {
            // spin on the clock alone: the overshoot is at most one clock read
        }
        if (now - ticks > missedTicks) missed++; // preempted: the emulated time is wrong
    }

    @Override
    public long missedDeadlines() {
        return missed;
    }

    @Override
    public long sendsCompleted() {
        return sent;
    }

    @Override
    public long recvsCompleted() {
        return received;
    }

    @Override
    public void close() {
        if (arena.scope().isAlive()) arena.close();
        try {
            Files.deleteIfExists(inboxFile);
        } catch (IOException ignored) {
            // named after this pid: the next run removes it (launch.Leftovers)
        }
    }
}
