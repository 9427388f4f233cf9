package org.fabprobe.transport.ofi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.fabprobe.bindings.libfabric.gen.LibFabric.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.bindings.FaultSignals;
import org.fabprobe.bindings.NativeEnvironment;
import org.fabprobe.bindings.libc.Libc;
import org.fabprobe.bindings.libfabric.Fi;
import org.fabprobe.bindings.libfabric.FiHotPath;
import org.fabprobe.bindings.libfabric.gen.fi_av_attr;
import org.fabprobe.bindings.libfabric.gen.fi_cq_attr;
import org.fabprobe.bindings.libfabric.gen.fi_cq_err_entry;
import org.fabprobe.bindings.libfabric.gen.fi_domain_attr;
import org.fabprobe.bindings.libfabric.gen.fi_ep_attr;
import org.fabprobe.bindings.libfabric.gen.fi_info;
import org.fabprobe.bindings.libfabric.gen.fi_tx_attr;
import org.fabprobe.clock.Clock;
import org.fabprobe.transport.Buffers;
import org.fabprobe.transport.KnownPeers;
import org.fabprobe.transport.OneSided;
import org.fabprobe.transport.Op;
import org.fabprobe.bindings.libfabric.gen.fi_msg_rma;
import org.fabprobe.bindings.libfabric.gen.fi_rma_iov;
import org.fabprobe.bindings.libfabric.gen.fi_rx_attr;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.TransportException;
import org.fabprobe.transport.TransportOptions;
import org.fabprobe.transport.ShmNames;

/**
 * {@code ofi:PROVIDER}: a libfabric RDM endpoint with tagged messages.
 *
 * <p>Written to the libfabric contract rather than to the providers at hand, so that
 * verbs, psm2/opx, efa and cxi run unchanged: it asks for every mr_mode bit it can honor
 * and then honors what the provider kept (FI_MR_LOCAL descriptors, FI_MR_PROV_KEY keys,
 * FI_MR_ENDPOINT binding, FI_MR_ALLOCATED/VIRT_ADDR by construction), gives every operation
 * its own fi_context2-sized context (FI_CONTEXT/FI_CONTEXT2), and uses fi_tinject only up
 * to the provider's inject_size.
 */
public final class OfiTransport implements Transport, OneSided {
    /** Every message carries this tag; receives match it exactly. */
    private static final long TAG = 0xFAB;
    /** Room for struct fi_context2 (8 pointers): enough for FI_CONTEXT and FI_CONTEXT2 providers. */
    private static final long CONTEXT_BYTES = 64;
    private static final int CQ_BATCH = 16;
    private static final long MR_MODES_HONORED = FI_MR_LOCAL() | FI_MR_VIRT_ADDR() | FI_MR_ALLOCATED()
            | FI_MR_PROV_KEY() | FI_MR_ENDPOINT();

    private final String name;
    /** Whether the provider works over sockets (everything but shm, whose regions are files in /dev/shm). */
    private boolean socketBased;
    private boolean socketsProvider;
    private final Arena arena = Arena.ofShared();
    /** Native objects to fi_close, most recently opened first. */
    private final Deque<MemorySegment> fids = new ArrayDeque<>();
    private MemorySegment info = MemorySegment.NULL;
    private final Map<String, String> facts = new LinkedHashMap<>();

    private MemorySegment ep, cq, av;
    private FiHotPath.Functions fn;
    private Buffers buffers;
    private MemorySegment sendDesc, recvDesc;
    private MemorySegment recvContexts, cqEntries;
    /** One context per outstanding operation; addresses, so the data path allocates nothing. */
    private long[] sendContextSlots, recvContextSlots;
    /** Raw addresses for the hot path (see FiHotPath). */
    private long epAddress, cqAddress, sendBufAddress, recvBufAddress, sendDescAddress, recvDescAddress, cqEntriesAddress;
    private long maxMessageSize, injectSize, peer = FI_ADDR_UNSPEC();
    /** fi_addr of every peer address inserted so far. */
    private final KnownPeers<Long> peers = new KnownPeers<>();
    private final int depth;
    /** Ring slot of operation i: {@code i & slotMask} (see {@link TransportOptions#ringSlots}). */
    private final int slotMask;
    private final long timeoutTicks;
    private byte[] address;

    private long sendsPosted, sendsCompleted, recvsPosted, recvsCompleted;

    /** One-sided state (see {@link OneSided}); FI_RMA/FI_ATOMIC are asked for only where {@code op} needs them. */
    private final Op op;
    private MemorySegment recvMr = MemorySegment.NULL, rmaContexts = MemorySegment.NULL, writeMsg, compareSlice,
            resultSlice, operandSlice;
    private MemorySegment[] rmaContextSegments;
    private long[] rmaContextSlots;
    private MemorySegment writeFn, readFn, fetchAtomicFn, writemsgFn, injectWriteFn;
    /** Writes up to inject_size go out as fi_inject_write (no completion to read), except over sockets (see open). */
    private boolean injectWrites;
    private long mrModeBits, remoteBase, remoteKey, rmaPosted, rmaCompleted, writeMsgAddress, rmaBase, rmaEnd = 0;
    /** Whether the provider places data in order (FI_ORDER_DATA), so a write's last byte can be its flag. */
    private boolean orderedData;
    /** Writes up to this many bytes (unsigned) are placed after those of earlier writes (FI_ORDER_WAW, max_order_waw_size); 0: none. */
    private long orderedWritesUpTo;

    private OfiTransport(String name, TransportOptions options, Op op) {
        this.name = name;
        this.op = op;
        this.depth = options.depth();
        this.slotMask = options.ringSlots() - 1;
        this.timeoutTicks = Clock.fromNs(options.timeout().toNanos());
    }

    /**
     * Initializes libfabric without opening anything: the first fi_getinfo of a process loads
     * and initializes every provider (here 0.3 s of library constructors and /proc/kallsyms
     * scans, the same in fi_pingpong), and later calls find it done.
     */
    public static void initialize(String provider) {
        MemorySegment hints = Fi.allocinfo();
        try (Arena local = Arena.ofConfined()) {
            fi_ep_attr.type(ref(fi_info.ep_attr(hints), fi_ep_attr.layout().byteSize()), FI_EP_RDM());
            org.fabprobe.bindings.libfabric.gen.fi_fabric_attr.prov_name(
                    ref(fi_info.fabric_attr(hints), org.fabprobe.bindings.libfabric.gen.fi_fabric_attr.layout().byteSize()),
                    Libc.strdup(provider));
            MemorySegment infoOut = local.allocate(ADDRESS);
            if (fi_getinfo(Fi.requestedVersion(), MemorySegment.NULL, MemorySegment.NULL, 0, hints, infoOut) == 0) {
                fi_freeinfo(infoOut.get(ADDRESS, 0));
            }
        } finally {
            fi_freeinfo(hints);
        }
        NativeEnvironment.reclaimTerminationSignals();
    }

    /** Opens provider {@code provider} (e.g. "shm", "tcp", "tcp;ofi_rxm", "verbs"). */
    public static OfiTransport open(String name, String provider, TransportOptions options) {
        return open(name, provider, options, Op.SEND);
    }

    /** As {@link #open(String, String, TransportOptions)}, with the capabilities one-sided {@code op} needs. */
    public static OfiTransport open(String name, String provider, TransportOptions options, Op op) {
        OfiTransport t = new OfiTransport(name, options, op);
        try {
            t.open(provider, options);
            return t;
        } catch (RuntimeException | Error e) {
            t.close();
            throw e;
        }
    }

    private void open(String provider, TransportOptions options) {
        socketBased = socketBased(provider);
        socketsProvider = provider.startsWith("sockets");
        MemorySegment hints = Fi.allocinfo();
        try {
            describe(hints, provider, op);

            String node = socketBased ? options.sourceNode() : "";
            MemorySegment infoOut = arena.allocate(ADDRESS);
            int rc = fi_getinfo(Fi.requestedVersion(), node.isEmpty() ? MemorySegment.NULL : arena.allocateFrom(node),
                    MemorySegment.NULL, node.isEmpty() ? 0 : FI_SOURCE(), hints, infoOut);
            if (rc == -FI_ENODATA() && !node.isEmpty() && !boundToAnyInterface(provider)) {
                // a fabric provider (verbs, efa, cxi, ...) whose devices do not hold the control
                // connection's address (an Ethernet control network, say): its own default device
                facts.put("source_node", "(provider default: no " + provider + " device holds " + node + ")");
                rc = fi_getinfo(Fi.requestedVersion(), MemorySegment.NULL, MemorySegment.NULL, 0, hints, infoOut);
            }
            if (rc == -FI_ENODATA() && op.oneSided()) {
                throw new TransportException(ExitCode.UNKNOWN_TRANSPORT, "libfabric provider '" + provider
                        + "' offers no RDM endpoint with " + ((oneSidedCaps(op) & FI_ATOMIC()) != 0 ? "FI_ATOMIC" : "FI_RMA")
                        + " here (--op " + op.label() + "); providers that may: " + String.join(", ", OfiProviders.rdmProviderNames())
                        + "; transports that can: ucx:posix, ucx:cma, ucx:tcp (emulated)");
            }
            if (rc == -FI_ENODATA()) {
                throw new TransportException(ExitCode.UNKNOWN_TRANSPORT, "libfabric provider '" + provider
                        + "' offers no tagged RDM endpoint here; available: " + String.join(", ", OfiProviders.rdmProviderNames()));
            }
            check(rc, "fi_getinfo(" + provider + ")");
            info = infoOut.get(ADDRESS, 0).reinterpret(fi_info.layout().byteSize());
        } finally {
            fi_freeinfo(hints);
        }

        MemorySegment epAttr = ref(fi_info.ep_attr(info), fi_ep_attr.layout().byteSize());
        MemorySegment txAttr = ref(fi_info.tx_attr(info), fi_tx_attr.layout().byteSize());
        MemorySegment domainAttr = ref(fi_info.domain_attr(info), fi_domain_attr.layout().byteSize());
        maxMessageSize = fi_ep_attr.max_msg_size(epAttr);
        injectSize = fi_tx_attr.inject_size(txAttr);
        long mrMode = fi_domain_attr.mr_mode(domainAttr);
        mrModeBits = mrMode;
        orderedData = (fi_rx_attr.comp_order(ref(fi_info.rx_attr(info), fi_rx_attr.layout().byteSize())) & FI_ORDER_DATA()) != 0;
        if ((fi_tx_attr.msg_order(txAttr) & FI_ORDER_WAW()) != 0) orderedWritesUpTo = fi_ep_attr.max_order_waw_size(epAttr);
        if (op.oneSided()) {
            long keySize = fi_domain_attr.mr_key_size(domainAttr);
            // keys wider than 64 bits travel only as raw keys (FI_MR_RAW), which is not asked for
            if (keySize > 8) throw new TransportException(ExitCode.UNKNOWN_TRANSPORT, name + ": " + keySize
                    + "-byte memory keys need FI_MR_RAW, which fabprobe does not use");
            facts.put("mr_key_size", Long.toString(keySize));
        }
        OfiProviders.describe(info, facts);
        options.checkMessageSize(name, maxMessageSize);

        MemorySegment out = arena.allocate(ADDRESS);
        check(fi_fabric(fi_info.fabric_attr(info), out, MemorySegment.NULL), "fi_fabric");
        MemorySegment fabric = opened(out);
        check(Fi.domain(fabric, info, out, MemorySegment.NULL), "fi_domain");
        MemorySegment domain = opened(out);

        MemorySegment cqAttr = arena.allocate(fi_cq_attr.layout());
        fi_cq_attr.size(cqAttr, 4L * depth + 16);
        fi_cq_attr.format(cqAttr, FI_CQ_FORMAT_CONTEXT());
        fi_cq_attr.wait_obj(cqAttr, FI_WAIT_NONE());
        check(Fi.cqOpen(domain, cqAttr, out, MemorySegment.NULL), "fi_cq_open");
        cq = opened(out);

        MemorySegment avAttr = arena.allocate(fi_av_attr.layout());
        fi_av_attr.type(avAttr, fi_domain_attr.av_type(domainAttr));
        fi_av_attr.count(avAttr, options.peers() + 1); // a hint: the peers this endpoint will meet
        check(Fi.avOpen(domain, avAttr, out, MemorySegment.NULL), "fi_av_open");
        av = opened(out);

        // the shm provider's own handlers unlinked our region on HotSpot's routine faults
        FaultSignals.keptAcross(() -> check(Fi.endpoint(domain, info, out, MemorySegment.NULL), "fi_endpoint"));
        ep = opened(out);
        check(Fi.bind(ep, cq, FI_TRANSMIT() | FI_RECV()), "fi_ep_bind(cq)");
        check(Fi.bind(ep, av, 0), "fi_ep_bind(av)");
        if (!socketBased) {
            // the shm provider names its region in /dev/shm after the endpoint: a name with our
            // pid lets a later run remove what a killed one left (launch.Leftovers)
            MemorySegment shmName = arena.allocateFrom(ShmNames.next());
            check(Fi.setname(ep, shmName, shmName.byteSize()), "fi_setname");
        }
        check(Fi.enable(ep), "fi_enable");

        // zero-filled, so touched and backed (FI_MR_ALLOCATED), and registered once
        buffers = Buffers.allocate(arena, options);
        long local = op.oneSided() ? FI_READ() | FI_WRITE() : 0;
        long remote = op.oneSided() ? FI_REMOTE_READ() | FI_REMOTE_WRITE() : 0;
        sendDesc = register(domain, buffers.send(), FI_SEND() | local, 1, mrMode);
        recvDesc = register(domain, buffers.recv(), FI_RECV() | remote, 2, mrMode);
        recvMr = fids.peek();

        int slots = options.ringSlots();
        MemorySegment sendContexts = arena.allocate(CONTEXT_BYTES * slots, 64);
        recvContexts = arena.allocate(CONTEXT_BYTES * slots, 64);
        sendContextSlots = new long[slots];
        recvContextSlots = new long[slots];
        for (int i = 0; i < slots; i++) {
            sendContextSlots[i] = sendContexts.address() + CONTEXT_BYTES * i;
            recvContextSlots[i] = recvContexts.address() + CONTEXT_BYTES * i;
        }
        cqEntries = arena.allocate(JAVA_LONG, CQ_BATCH);
        if (op.oneSided()) prepareOneSided(slots);
        fn = FiHotPath.Functions.of(ep, cq);
        epAddress = ep.address();
        cqAddress = cq.address();
        sendBufAddress = buffers.send().address();
        recvBufAddress = buffers.recv().address();
        sendDescAddress = sendDesc.address();
        recvDescAddress = recvDesc.address();
        cqEntriesAddress = cqEntries.address();

        MemorySegment len = arena.allocate(JAVA_LONG);
        len.set(JAVA_LONG, 0, 0);
        Fi.getname(ep, MemorySegment.NULL, len); // asks for the length (-FI_ETOOSMALL)
        MemorySegment addr = arena.allocate(Math.max(len.get(JAVA_LONG, 0), 1));
        check(Fi.getname(ep, addr, len), "fi_getname");
        address = addr.asSlice(0, len.get(JAVA_LONG, 0)).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        NativeEnvironment.reclaimTerminationSignals();
    }

    /** The hints of a tagged RDM endpoint of {@code provider} that can run {@code op}, as open and offers ask. */
    private static void describe(MemorySegment hints, String provider, Op op) {
        fi_info.caps(hints, FI_TAGGED() | FI_SEND() | FI_RECV() | oneSidedCaps(op));
        fi_info.mode(hints, FI_CONTEXT() | FI_CONTEXT2());
        fi_ep_attr.type(ref(fi_info.ep_attr(hints), fi_ep_attr.layout().byteSize()), FI_EP_RDM());
        MemorySegment domainAttr = ref(fi_info.domain_attr(hints), fi_domain_attr.layout().byteSize());
        fi_domain_attr.mr_mode(domainAttr, (int) MR_MODES_HONORED);
        fi_domain_attr.threading(domainAttr, FI_THREAD_DOMAIN());
        // fi_freeinfo frees prov_name: it must come from malloc
        org.fabprobe.bindings.libfabric.gen.fi_fabric_attr.prov_name(
                ref(fi_info.fabric_attr(hints), org.fabprobe.bindings.libfabric.gen.fi_fabric_attr.layout().byteSize()),
                Libc.strdup(provider));
    }

    /**
     * Whether {@code provider} offers a tagged RDM endpoint that can run {@code op}, asked as
     * {@link #open} asks (the op's caps in the hints): fi_getinfo without hints lists fewer caps
     * (tcp;ofi_rxm lists no FI_ATOMIC, yet gives atomics when asked).
     */
    public static boolean offers(String provider, Op op) {
        MemorySegment hints = Fi.allocinfo();
        try (Arena arena = Arena.ofConfined()) {
            describe(hints, provider, op);
            MemorySegment out = arena.allocate(ADDRESS);
            if (fi_getinfo(Fi.requestedVersion(), MemorySegment.NULL, MemorySegment.NULL, 0, hints, out) != 0) return false;
            fi_freeinfo(out.get(ADDRESS, 0));
            return true;
        } finally {
            fi_freeinfo(hints);
        }
    }

    /** What {@code op} needs beside tagged messages: nothing for send. */
    private static long oneSidedCaps(Op op) {
        return switch (op) {
            case SEND -> 0;
            case WRITE -> FI_RMA() | FI_WRITE() | FI_REMOTE_WRITE();
            case READ -> FI_RMA() | FI_READ() | FI_REMOTE_READ();
            case FETCH_ADD, CSWAP -> FI_ATOMIC() | FI_READ() | FI_WRITE() | FI_REMOTE_READ() | FI_REMOTE_WRITE();
        };
    }

    private void prepareOneSided(int slots) {
        rmaContexts = arena.allocate(CONTEXT_BYTES * slots, 64);
        rmaBase = rmaContexts.address();
        rmaEnd = rmaBase + rmaContexts.byteSize();
        rmaContextSlots = new long[slots];
        rmaContextSegments = new MemorySegment[slots];
        for (int i = 0; i < slots; i++) {
            rmaContextSegments[i] = rmaContexts.asSlice(CONTEXT_BYTES * i, CONTEXT_BYTES);
            rmaContextSlots[i] = rmaContextSegments[i].address();
        }
        // only the tables of the capabilities asked for: a provider leaves the others unset
        if (op == Op.WRITE) {
            writeFn = FiHotPath.writeOf(ep);
            writemsgFn = FiHotPath.writemsgOf(ep);
            injectWriteFn = FiHotPath.injectWriteOf(ep);
            // sockets, under manual progress, never sent an fi_inject_write that no operation with
            // a completion followed (bench-ofi-rma's ping-pong waited forever there)
            injectWrites = !socketsProvider;
        }
        if (op == Op.READ) readFn = FiHotPath.readOf(ep);
        if (op == Op.FETCH_ADD) fetchAtomicFn = FiHotPath.fetchAtomicOf(ep);
        // one struct fi_msg_rma for the payload writes that need flags: an iovec, a desc and an
        // rma_iov beside it; a post fills in lengths and the context
        writeMsg = arena.allocate(fi_msg_rma.layout().byteSize() + 16 + 8 + fi_rma_iov.layout().byteSize(), 64);
        long msgBytes = fi_msg_rma.layout().byteSize();
        MemorySegment iov = writeMsg.asSlice(msgBytes, 16);
        MemorySegment desc = writeMsg.asSlice(msgBytes + 16, 8);
        MemorySegment rmaIov = writeMsg.asSlice(msgBytes + 24, fi_rma_iov.layout().byteSize());
        iov.set(JAVA_LONG, 0, buffers.send().address());
        desc.set(ADDRESS, 0, sendDesc);
        fi_msg_rma.msg_iov(writeMsg, iov);
        fi_msg_rma.desc(writeMsg, desc);
        fi_msg_rma.iov_count(writeMsg, 1);
        fi_msg_rma.rma_iov(writeMsg, rmaIov);
        fi_msg_rma.rma_iov_count(writeMsg, 1);
        writeMsgAddress = writeMsg.address();
        operandSlice = buffers.send().asSlice(0, 8);
        resultSlice = buffers.send().asSlice(8, 8);
        compareSlice = buffers.send().asSlice(16, 8);
        facts.put("one_sided", op.label() + "; mr_mode 0x" + Long.toHexString(mrModeBits)
                + ((mrModeBits & FI_MR_VIRT_ADDR()) != 0 ? " (remote addresses are virtual addresses)" : " (remote addresses are offsets)"));
        if (op == Op.WRITE) facts.put("write_ordering", writeOrdering());
    }

    /** Providers that run on any IP interface (so any address of this host is theirs to bind). */
    private static boolean boundToAnyInterface(String provider) {
        return provider.startsWith("tcp") || provider.startsWith("udp") || provider.startsWith("sockets");
    }

    /** Providers that bind to an IP address (everything but shared memory). */
    private static boolean socketBased(String provider) {
        return !provider.startsWith("shm");
    }

    private MemorySegment register(MemorySegment domain, MemorySegment buf, long access, long key, long mrMode) {
        MemorySegment out = arena.allocate(ADDRESS);
        long requestedKey = (mrMode & FI_MR_PROV_KEY()) != 0 ? 0 : key;
        check(Fi.mrReg(domain, buf, buf.byteSize(), access, 0, requestedKey, 0, out, MemorySegment.NULL), "fi_mr_reg");
        MemorySegment mr = opened(out);
        if ((mrMode & FI_MR_ENDPOINT()) != 0) {
            check(Fi.bind(mr, ep, 0), "fi_mr_bind");
            check(Fi.enable(mr), "fi_mr_enable");
        }
        return Fi.mrDesc(mr);
    }

    private MemorySegment opened(MemorySegment out) {
        MemorySegment fid = out.get(ADDRESS, 0);
        fids.push(fid);
        return fid;
    }

    private static MemorySegment ref(MemorySegment pointer, long size) {
        return pointer.reinterpret(size);
    }

    private static void check(long rc, String call) {
        if (rc < 0) throw TransportException.error(call + " failed: " + Fi.strerror(rc) + " (" + rc + ")");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean releasedByExit() {
        return socketBased;
    }

    @Override
    public Map<String, String> facts() {
        return facts;
    }

    @Override
    public long maxMessageSize() {
        return maxMessageSize < 0 ? Long.MAX_VALUE : maxMessageSize; // SIZE_MAX: no limit
    }

    @Override
    public byte[] localAddress() {
        return address.clone();
    }

    @Override
    public void connect(byte[] peerAddress) {
        peer = peers.connect(peerAddress, this::insert);
    }

    /** fi_av_insert of one address: its fi_addr. */
    private long insert(byte[] peerAddress) {
        MemorySegment addr = arena.allocateFrom(java.lang.foreign.ValueLayout.JAVA_BYTE, peerAddress);
        MemorySegment fiAddr = arena.allocate(JAVA_LONG);
        int inserted = Fi.avInsert(av, addr, 1, fiAddr, 0, MemorySegment.NULL);
        if (inserted != 1) check(inserted < 0 ? inserted : -FI_EINVAL(), "fi_av_insert");
        return fiAddr.get(JAVA_LONG, 0);
    }

    @Override
    public MemorySegment sendBuffer() {
        return buffers.send();
    }

    @Override
    public MemorySegment recvBuffer() {
        return buffers.recv();
    }

    @Override
    public void postRecv(long bytes) {
        long context = recvContextSlots[(int) recvsPosted & slotMask];
        long rc;
        long deadline = 0;
        while ((rc = FiHotPath.trecv(fn.trecv(), epAddress, recvBufAddress, bytes, recvDescAddress, FI_ADDR_UNSPEC(), TAG, 0, context)) != 0) {
            deadline = retryOrFail(rc, deadline, "fi_trecv");
        }
        recvsPosted++;
    }

    @Override
    public void postSend(long bytes) {
        long rc;
        long deadline = 0;
        if (bytes <= injectSize) {
            // no completion is generated: the buffer is reusable as soon as the call returns
            while ((rc = FiHotPath.tinject(fn.tinject(), epAddress, sendBufAddress, bytes, peer, TAG)) != 0) {
                deadline = retryOrFail(rc, deadline, "fi_tinject");
            }
            sendsPosted++;
            sendsCompleted++;
            return;
        }
        long context = sendContextSlots[(int) sendsPosted & slotMask];
        while ((rc = FiHotPath.tsend(fn.tsend(), epAddress, sendBufAddress, bytes, sendDescAddress, peer, TAG, context)) != 0) {
            deadline = retryOrFail(rc, deadline, "fi_tsend");
        }
        sendsPosted++;
    }

    /** -FI_EAGAIN: the provider needs progress before it takes more; anything else is an error. */
    /** How long a post retries on EAGAIN, 0: the session's timeout ({@link #postRetryLimit}). */
    private long retryTicks;

    @Override
    public void postRetryLimit(long ns) {
        retryTicks = Clock.fromNs(ns);
    }

    private long retryOrFail(long rc, long deadline, String call) {
        if (rc != -FI_EAGAIN()) check(rc, call);
        long now = Clock.now();
        if (deadline == 0) return now + (retryTicks > 0 ? retryTicks : timeoutTicks);
        if (now > deadline) throw TransportException.timeout(call + " kept returning EAGAIN: peer not draining?");
        progress();
        return deadline;
    }

    @Override
    public void progress() {
        long n = FiHotPath.cqRead(fn.cqRead(), cqAddress, cqEntriesAddress, CQ_BATCH);
        if (n > 0) {
            long recvBase = recvContexts.address();
            long recvEnd = recvBase + recvContexts.byteSize();
            for (int i = 0; i < n; i++) {
                long context = cqEntries.getAtIndex(JAVA_LONG, i);
                if (context >= recvBase && context < recvEnd) recvsCompleted++;
                else if (context >= rmaBase && context < rmaEnd) rmaCompleted++;
                else sendsCompleted++;
            }
        } else if (n != -FI_EAGAIN()) {
            throw completionError(n);
        }
    }

    private TransportException completionError(long rc) {
        if (rc != -FI_EAVAIL()) return TransportException.error("fi_cq_read failed: " + Fi.strerror(rc));
        MemorySegment entry = arena.allocate(fi_cq_err_entry.layout());
        long got = Fi.cqReaderr(cq, entry, 0);
        if (got < 0) return TransportException.error("fi_cq_readerr failed: " + Fi.strerror(got));
        int err = fi_cq_err_entry.err(entry);
        int provErrno = fi_cq_err_entry.prov_errno(entry);
        long context = fi_cq_err_entry.op_context(entry).address();
        String op = context >= recvContexts.address() && context < recvContexts.address() + recvContexts.byteSize()
                ? "receive" : "send";
        return TransportException.error(name + " " + op + " completed with error: " + Fi.strerror(err)
                + " (provider: " + Fi.cqStrerror(cq, provErrno, fi_cq_err_entry.err_data(entry)) + ")");
    }

    // ---- one-sided ---------------------------------------------------------------------

    @Override
    public byte[] describeRegion() {
        requireOneSided();
        // FI_MR_VIRT_ADDR: the target address is the buffer's virtual address, else an offset into the region
        long base = (mrModeBits & FI_MR_VIRT_ADDR()) != 0 ? buffers.recv().address() : 0;
        // FI_MR_PROV_KEY: the key the provider chose, else the one asked for (fi_mr_key returns either)
        long key = Fi.mrKey(recvMr);
        byte[] description = new byte[16];
        MemorySegment d = MemorySegment.ofArray(description);
        d.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 0, base);
        d.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 8, key);
        return description;
    }

    @Override
    public void attachPeerRegion(byte[] description) {
        requireOneSided();
        MemorySegment d = MemorySegment.ofArray(description);
        remoteBase = d.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 0);
        remoteKey = d.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 8);
        MemorySegment rmaIov = fi_msg_rma.rma_iov(writeMsg).reinterpret(fi_rma_iov.layout().byteSize());
        fi_rma_iov.key(rmaIov, remoteKey);
        fi_msg_rma.addr(writeMsg, peer);
    }

    private void requireOneSided() {
        if (!op.oneSided()) throw new IllegalStateException(name + " was opened for two-sided messages only");
    }

    @Override
    public void postWrite(long bytes) {
        if (orderedData) {
            write(0, bytes);
            return;
        }
        if (bytes > 1 && Long.compareUnsigned(bytes - 1, orderedWritesUpTo) <= 0) {
            // FI_ORDER_WAW up to max_order_waw_size (tcp;ofi_rxm: any size): the flag's write is
            // placed after the payload's, so both go out back to back
            write(0, bytes - 1);
        } else if (bytes > 1) {
            // no ordering to rely on: the payload with FI_DELIVERY_COMPLETE, its completion, then the flag byte
            long context = rmaContextSlots[(int) rmaPosted & slotMask];
            long iov = writeMsgAddress + fi_msg_rma.layout().byteSize();
            long rmaIov = iov + 24;
            MemorySegment msg = writeMsg;
            msg.set(JAVA_LONG, fi_msg_rma.layout().byteSize() + 8, bytes - 1); // iov_len
            msg.set(JAVA_LONG, rmaIov - writeMsgAddress, remoteBase);          // rma_iov.addr
            msg.set(JAVA_LONG, rmaIov - writeMsgAddress + 8, bytes - 1);       // rma_iov.len
            msg.set(JAVA_LONG, fi_msg_rma.context$offset(), context);
            long rc, deadline = 0;
            while ((rc = FiHotPath.writemsg(writemsgFn, epAddress, writeMsgAddress, FI_DELIVERY_COMPLETE() | FI_COMPLETION())) != 0) {
                deadline = retryOrFail(rc, deadline, "fi_writemsg");
            }
            long target = ++rmaPosted;
            long waitDeadline = Clock.now() + timeoutTicks;
            while (rmaCompleted < target) {
                progress();
                if (Clock.now() > waitDeadline) throw TransportException.timeout(name + ": fi_writemsg never completed");
            }
        }
        write(bytes - 1, 1);
    }

    @Override
    public void postWriteUnordered(long bytes) {
        write(0, bytes);
    }

    @Override
    public String flushing() {
        // the completions' default, FI_TRANSMIT_COMPLETE, as bench-ofi-rma's write_bw
        return "nothing: each fi_write's completion (the provider's default completion level)";
    }

    /**
     * fi_write of {@code bytes} at {@code offset}, with a completion (a context of its own); up
     * to inject_size an fi_inject_write, complete on return (the source is reusable), as
     * bench-ofi-rma writes: one completion fewer to read per message.
     */
    private void write(long offset, long bytes) {
        long rc, deadline = 0;
        if (injectWrites && bytes <= injectSize) {
            while ((rc = FiHotPath.injectWrite(injectWriteFn, epAddress, sendBufAddress + offset, bytes, peer,
                    remoteBase + offset, remoteKey)) != 0) {
                deadline = retryOrFail(rc, deadline, "fi_inject_write");
            }
            rmaPosted++;
            rmaCompleted++;
            return;
        }
        long context = rmaContextSlots[(int) rmaPosted & slotMask];
        while ((rc = FiHotPath.rma(writeFn, epAddress, sendBufAddress + offset, bytes, sendDescAddress, peer,
                remoteBase + offset, remoteKey, context)) != 0) {
            deadline = retryOrFail(rc, deadline, "fi_write");
        }
        rmaPosted++;
    }

    @Override
    public String writeOrdering() {
        if (orderedData) return "one fi_write; its last byte is the flag (the provider reports FI_ORDER_DATA)";
        if (orderedWritesUpTo != 0) {
            return "fi_write of the payload, then a 1-byte fi_write of the flag (FI_ORDER_WAW up to max_order_waw_size "
                    + Long.toUnsignedString(orderedWritesUpTo) + " B; larger payloads: FI_DELIVERY_COMPLETE, its completion, then the flag)";
        }
        return "fi_writemsg of the payload with FI_DELIVERY_COMPLETE, its completion, then a 1-byte fi_write of the flag";
    }

    @Override
    public void postRead(long bytes) {
        long context = rmaContextSlots[(int) rmaPosted & slotMask];
        long rc, deadline = 0;
        while ((rc = FiHotPath.rma(readFn, epAddress, sendBufAddress, bytes, sendDescAddress, peer, remoteBase,
                remoteKey, context)) != 0) {
            deadline = retryOrFail(rc, deadline, "fi_read");
        }
        rmaPosted++;
    }

    @Override
    public void postFetchAdd(long value) {
        operandSlice.set(JAVA_LONG, 0, value);
        long context = rmaContextSlots[(int) rmaPosted & slotMask];
        long rc, deadline = 0;
        while ((rc = FiHotPath.fetchAtomic(fetchAtomicFn, epAddress, sendBufAddress, 1, sendDescAddress,
                sendBufAddress + 8, sendDescAddress, peer, remoteBase, remoteKey, FI_UINT64(), FI_SUM(), context)) != 0) {
            deadline = retryOrFail(rc, deadline, "fi_fetch_atomic");
        }
        rmaPosted++;
    }

    @Override
    public void postCompareSwap(long compare, long swap) {
        operandSlice.set(JAVA_LONG, 0, swap);
        compareSlice.set(JAVA_LONG, 0, compare);
        MemorySegment context = rmaContextSegments[(int) rmaPosted & slotMask];
        long rc, deadline = 0;
        while ((rc = Fi.compareAtomic(ep, operandSlice, 1, sendDesc, compareSlice, sendDesc, resultSlice, sendDesc, peer,
                remoteBase, remoteKey, FI_UINT64(), FI_CSWAP(), context)) != 0) {
            deadline = retryOrFail(rc, deadline, "fi_compare_atomic");
        }
        rmaPosted++;
    }

    @Override
    public long fetched() {
        return resultSlice.get(JAVA_LONG, 0);
    }

    @Override
    public long oneSidedPosted() {
        return rmaPosted;
    }

    @Override
    public long oneSidedCompleted() {
        return rmaCompleted;
    }

    @Override
    public long sendsCompleted() {
        return sendsCompleted;
    }

    @Override
    public long recvsCompleted() {
        return recvsCompleted;
    }

    @Override
    public void close() {
        // endpoint first (it cancels posted receives), then the rest in reverse order of opening
        if (ep != null && fids.remove(ep)) Fi.close(ep);
        while (!fids.isEmpty()) {
            Fi.close(fids.pop());
        }
        if (!info.equals(MemorySegment.NULL)) fi_freeinfo(info);
        info = MemorySegment.NULL;
        if (arena.scope().isAlive()) arena.close();
    }
}
