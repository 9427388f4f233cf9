package org.fabprobe.transport.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static org.fabprobe.bindings.ucx.gen.Ucx.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.fabprobe.ExitCode;
import org.fabprobe.bindings.NativeEnvironment;
import org.fabprobe.bindings.ucx.Ucp;
import org.fabprobe.bindings.ucx.UcpCompletion;
import org.fabprobe.bindings.ucx.UcpHotPath;
import org.fabprobe.bindings.ucx.UcpResources;
import org.fabprobe.bindings.ucx.Ucs;
import org.fabprobe.bindings.ucx.UcxException;
import org.fabprobe.bindings.ucx.gen.ucp_ep_params;
import org.fabprobe.bindings.ucx.gen.ucp_mem_attr;
import org.fabprobe.bindings.ucx.gen.ucp_mem_map_params;
import org.fabprobe.bindings.ucx.gen.ucp_params;
import org.fabprobe.bindings.ucx.gen.ucp_request_param_t;
import org.fabprobe.bindings.ucx.gen.ucp_worker_params;
import org.fabprobe.transport.Buffers;
import org.fabprobe.transport.KnownPeers;
import org.fabprobe.transport.OneSided;
import org.fabprobe.transport.Op;
import org.fabprobe.transport.TcpFacts;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.TransportException;
import org.fabprobe.transport.TransportOptions;

/**
 * {@code ucx:TLS}: a UCP context with the tag feature and UCX_TLS=TLS, one single-threaded
 * worker, one endpoint to the peer's worker address, both buffers mapped once with
 * ucp_mem_map and passed as memh to every *_nbx call.
 *
 * <p>Requests: a send that completes at once returns NULL (UCS_OK); otherwise the request
 * pointer goes into a ring of at least {@code depth} slots and is looked at, in posting order,
 * after ucp_worker_progress: where {@link UcpCompletion} runs, its callback has written the
 * request's status into the request's own status word (a memory read, no call); elsewhere
 * ucp_request_check_status asks. A completed request is freed only when the next post reuses
 * its slot: that post comes after the pattern's reply is on its way, so ucp_request_free is
 * off the round trip's critical path.
 */
public final class UcxTransport implements Transport, OneSided {
    private static final long TAG = 0xFAB;
    private static final long TAG_MASK = -1L;

    private final String name;
    private final Arena arena = Arena.ofShared();
    private final Map<String, String> facts = new LinkedHashMap<>();
    /** Ring slot of operation i: {@code i & slotMask} (see {@link TransportOptions#ringSlots}). */
    private final int slotMask;

    private MemorySegment context = MemorySegment.NULL, worker = MemorySegment.NULL, ep = MemorySegment.NULL;
    private MemorySegment sendMemh = MemorySegment.NULL, recvMemh = MemorySegment.NULL;
    private Buffers buffers;
    private byte[] address;

    /** Raw addresses for the hot path. */
    private long workerAddress, epAddress, sendBufAddress, recvBufAddress, sendParamAddress, recvParamAddress;
    private final long[] sendRequests, recvRequests;
    /** Whether requests carry {@link UcpCompletion}'s callbacks, which write their status words. */
    private final boolean callbacks = UcpCompletion.available();
    /** All of memory: a request's status word is read at the request's own address. */
    private static final MemorySegment MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private long sendsPosted, sendsCompleted, recvsPosted, recvsCompleted;
    private boolean postedSinceLastCheck;
    /** Endpoints by the peer's worker address, each created once. */
    private final KnownPeers<MemorySegment> endpoints = new KnownPeers<>();

    /** One-sided state (see {@link OneSided}): the peer's rkey and base address, params, a ring of requests. */
    private final Op op;
    private MemorySegment rkey = MemorySegment.NULL;
    private long rkeyAddress, remoteBase, putParamAddress, getParamAddress, addParamAddress, swapParamAddress,
            flushParamAddress;
    private final long[] rmaRequests;
    private long rmaPosted, rmaCompleted;
    private String tls;

    /** What {@link UcxSettings} pinned, for the facts. */
    private Map<String, String> pinned = Map.of();

    private UcxTransport(String name, TransportOptions options, Op op) {
        this.name = name;
        this.op = op;
        this.rmaRequests = new long[options.ringSlots()];
        this.slotMask = options.ringSlots() - 1;
        this.sendRequests = new long[options.ringSlots()];
        this.recvRequests = new long[options.ringSlots()];
    }

    /** Opens UCX with UCX_TLS={@code tls} (e.g. "tcp", "posix,cma", "rc"). */
    public static UcxTransport open(String name, String tls, TransportOptions options) {
        return open(name, tls, options, Op.SEND);
    }

    /** As {@link #open(String, String, TransportOptions)}, with UCP's RMA and 64-bit atomics features where {@code op} is one-sided. */
    public static UcxTransport open(String name, String tls, TransportOptions options, Op op) {
        NativeEnvironment.prepare();
        UcxTransport t = new UcxTransport(name, options, op);
        try {
            t.open(tls, options);
            return t;
        } catch (UcxException e) {
            t.close();
            throw TransportException.error(name + ": " + e.getMessage());
        } catch (RuntimeException | Error e) {
            t.close();
            throw e;
        }
    }

    /** UCX's transports and devices on this host, listed once per process (a ucp_init of every transport). */
    private static List<UcpResources.Resource> resources;

    private static synchronized List<UcpResources.Resource> resources() {
        if (resources == null) resources = UcpResources.list();
        return resources;
    }

    /** Loads UCX and lists its resources without opening anything, so that a later open finds that done. */
    public static void initialize() {
        NativeEnvironment.prepare();
        resources();
        NativeEnvironment.reclaimTerminationSignals();
    }

    private void open(String tls, TransportOptions options) {
        List<UcpResources.Resource> resources = resources();
        checkTlsNames(tls, resources);
        MemorySegment out = arena.allocate(ADDRESS);
        Ucs.check(ucp_config_read(MemorySegment.NULL, MemorySegment.NULL, out), "ucp_config_read");
        MemorySegment config = out.get(ADDRESS, 0);
        try {
            pinned = UcxSettings.pinned(tls, options.sourceNode());
            pinned.forEach((key, value) -> modify(config, key, value));
            MemorySegment params = arena.allocate(ucp_params.layout());
            ucp_params.field_mask(params, UCP_PARAM_FIELD_FEATURES()
                    | (callbacks ? UCP_PARAM_FIELD_REQUEST_SIZE() | UCP_PARAM_FIELD_REQUEST_INIT() : 0));
            // the one-sided features only where asked for: they add lanes to every endpoint's wire-up
            ucp_params.features(params, UCP_FEATURE_TAG() | (op.oneSided() ? UCP_FEATURE_RMA() | UCP_FEATURE_AMO64() : 0));
            if (callbacks) { // each request's status word (see UcpCompletion)
                ucp_params.request_size(params, UcpCompletion.STATUS_BYTES);
                ucp_params.request_init(params, UcpCompletion.initCallback());
            }
            byte status = Ucp.init(params, config, out);
            if (status == (byte) UCS_ERR_NO_DEVICE()) {
                throw new TransportException(ExitCode.UNKNOWN_TRANSPORT, "UCX finds no usable device for UCX_TLS="
                        + tls + "; available here: " + available(resources));
            }
            Ucs.check(status, "ucp_init(UCX_TLS=" + tls + ")");
            context = out.get(ADDRESS, 0);
        } finally {
            ucp_config_release(config);
        }

        MemorySegment workerParams = arena.allocate(ucp_worker_params.layout());
        ucp_worker_params.field_mask(workerParams, UCP_WORKER_PARAM_FIELD_THREAD_MODE());
        ucp_worker_params.thread_mode(workerParams, UCS_THREAD_MODE_SINGLE());
        Ucs.check(ucp_worker_create(context, workerParams, out), "ucp_worker_create");
        worker = out.get(ADDRESS, 0);

        MemorySegment lengthOut = arena.allocate(JAVA_LONG);
        Ucs.check(ucp_worker_get_address(worker, out, lengthOut), "ucp_worker_get_address");
        MemorySegment workerAddr = out.get(ADDRESS, 0);
        address = workerAddr.reinterpret(lengthOut.get(JAVA_LONG, 0)).toArray(JAVA_BYTE);
        ucp_worker_release_address(worker, workerAddr);

        if (op.oneSided()) {
            // the target of one-sided operations allocated by UCX: shared-memory transports
            // (posix, sysv) cannot register user memory, only reach memory they allocated, so
            // a put into a registered heap buffer would go through cma or active messages
            long bytes = Buffers.bytes(options);
            recvMemh = allocateMapped(bytes);
            buffers = new Buffers(Buffers.allocateOne(arena, options), mappedAddress(recvMemh, bytes));
            buffers.recv().fill((byte) 0);
        } else {
            buffers = Buffers.allocate(arena, options);
            recvMemh = map(buffers.recv());
        }
        sendMemh = map(buffers.send());

        MemorySegment sendParam = requestParam(sendMemh, false);
        MemorySegment recvParam = requestParam(recvMemh, true);
        workerAddress = worker.address();
        sendBufAddress = buffers.send().address();
        recvBufAddress = buffers.recv().address();
        sendParamAddress = sendParam.address();
        recvParamAddress = recvParam.address();
        this.tls = tls;
        if (op.oneSided()) prepareOneSided();

        facts.put("library", "UCX " + Ucp.version());
        facts.put("tls", tls);
        facts.put("devices", devicesFor(tls, pinned.get("NET_DEVICES"), resources));
        facts.put("err_mode", "none");
        if (List.of(tls.split(",")).contains("tcp")) TcpFacts.record(facts);
        facts.putAll(UcxSettings.facts(pinned));
        NativeEnvironment.reclaimTerminationSignals();
    }

    /**
     * Refuses names UCX could not use here before UCX itself complains on stderr: a name must
     * be a transport UCX lists as a resource here, or an alias one of them answers to.
     */
    private static void checkTlsNames(String tls, List<UcpResources.Resource> resources) {
        String problem = tlsProblem(tls, resources);
        if (problem != null) throw new TransportException(ExitCode.UNKNOWN_TRANSPORT, problem);
    }

    /** Why UCX could not use UCX_TLS={@code tls} here (the names ucx:TLS would refuse), or null. */
    public static String tlsProblem(String tls) {
        initialize();
        return tlsProblem(tls, resources());
    }

    private static String tlsProblem(String tls, List<UcpResources.Resource> resources) {
        TreeSet<String> present = new TreeSet<>();
        resources.forEach(r -> present.add(r.transport()));
        for (String token : tls.split(",")) {
            String t = token.strip().replaceFirst("^[\\^\\\\]", "");
            if (t.isEmpty() || !(present.contains(t) || aliasPresent(t, present))) {
                return "UCX transport '" + t + "' (ucx:" + tls + ") is not available here; available: " + available(resources);
            }
        }
        return null;
    }

    /** UCX_TLS aliases: all; sm/shm/mm for the shared-memory transports; ib, rc, ud, dc, cuda, ... by prefix. */
    private static boolean aliasPresent(String alias, TreeSet<String> present) {
        return switch (alias) {
            case "all" -> true;
            case "sm", "shm", "mm" -> present.stream().anyMatch(List.of("posix", "sysv", "xpmem", "cma", "knem")::contains);
            case "ib" -> present.stream().anyMatch(p -> p.startsWith("rc") || p.startsWith("ud") || p.startsWith("dc"));
            default -> present.stream().anyMatch(p -> p.startsWith(alias + "_"));
        };
    }

    private static String available(List<UcpResources.Resource> resources) {
        return String.join(", ", new TreeSet<>(resources.stream().map(UcpResources.Resource::transport).toList()));
    }

    /**
     * The transport/device pairs UCX may use: those of {@code tls}, on the pinned NET_DEVICES
     * where network devices are pinned (UCX lists every interface as a resource, pinned or not).
     */
    static String devicesFor(String tls, String netDevices, List<UcpResources.Resource> resources) {
        List<String> names = List.of(tls.split(","));
        List<String> pinnedDevices = netDevices == null || netDevices.isEmpty() ? List.of() : List.of(netDevices.split(","));
        return String.join(",", resources.stream()
                .filter(r -> names.contains(r.transport()) || names.contains("all"))
                .filter(r -> pinnedDevices.isEmpty() || !isNetwork(r.transport()) || pinnedDevices.contains(r.device()))
                .map(r -> r.transport() + "/" + r.device()).toList());
    }

    /** Transports whose devices UCX_NET_DEVICES selects (shared memory and self have none to select). */
    private static boolean isNetwork(String transport) {
        return transport.startsWith("tcp") || transport.startsWith("rc") || transport.startsWith("ud")
                || transport.startsWith("dc");
    }

    private void modify(MemorySegment config, String key, String value) {
        Ucs.check(ucp_config_modify(config, arena.allocateFrom(key), arena.allocateFrom(value)),
                "ucp_config_modify(" + key + "=" + value + ")");
    }

    private MemorySegment map(MemorySegment buffer) {
        MemorySegment params = arena.allocate(ucp_mem_map_params.layout());
        ucp_mem_map_params.field_mask(params, UCP_MEM_MAP_PARAM_FIELD_ADDRESS() | UCP_MEM_MAP_PARAM_FIELD_LENGTH());
        ucp_mem_map_params.address(params, buffer);
        ucp_mem_map_params.length(params, buffer.byteSize());
        MemorySegment out = arena.allocate(ADDRESS);
        Ucs.check(ucp_mem_map(context, params, out), "ucp_mem_map");
        return out.get(ADDRESS, 0);
    }

    /** ucp_mem_map with UCP_MEM_MAP_ALLOCATE: memory from the first of UCX's allocation methods that works (UCX_MEM_ALLOC_METHODS). */
    private MemorySegment allocateMapped(long bytes) {
        MemorySegment params = arena.allocate(ucp_mem_map_params.layout());
        ucp_mem_map_params.field_mask(params, UCP_MEM_MAP_PARAM_FIELD_ADDRESS() | UCP_MEM_MAP_PARAM_FIELD_LENGTH()
                | UCP_MEM_MAP_PARAM_FIELD_FLAGS());
        ucp_mem_map_params.address(params, MemorySegment.NULL);
        ucp_mem_map_params.length(params, bytes);
        ucp_mem_map_params.flags(params, UCP_MEM_MAP_ALLOCATE());
        MemorySegment out = arena.allocate(ADDRESS);
        Ucs.check(ucp_mem_map(context, params, out), "ucp_mem_map(ALLOCATE)");
        return out.get(ADDRESS, 0);
    }

    /** The memory UCX allocated for {@code memh}, {@code bytes} of it. */
    private MemorySegment mappedAddress(MemorySegment memh, long bytes) {
        MemorySegment attr = arena.allocate(ucp_mem_attr.layout());
        ucp_mem_attr.field_mask(attr, UCP_MEM_ATTR_FIELD_ADDRESS() | UCP_MEM_ATTR_FIELD_LENGTH());
        Ucs.check(ucp_mem_query(memh, attr), "ucp_mem_query");
        if (ucp_mem_attr.length(attr) < bytes) throw TransportException.error(name + ": UCX allocated less than " + bytes + " B");
        return ucp_mem_attr.address(attr).reinterpret(bytes);
    }

    private void prepareOneSided() {
        putParamAddress = requestParam(sendMemh, false).address();
        getParamAddress = requestParam(sendMemh, false).address();
        flushParamAddress = requestParam(MemorySegment.NULL, false).address();
        // atomics: the operand at the send buffer's offset 0, the reply (a swap's compare value going in) at 8
        addParamAddress = atomicParam().address();
        swapParamAddress = atomicParam().address();
        facts.put("one_sided", op.label() + (emulated(op) ? " (emulated by UCX: active messages the target's progress serves)" : ""));
        if (op == Op.WRITE) facts.put("write_ordering", writeOrdering());
    }

    private MemorySegment atomicParam() {
        MemorySegment param = requestParam(MemorySegment.NULL, false);
        ucp_request_param_t.op_attr_mask(param, (ucp_request_param_t.op_attr_mask(param) & ~UCP_OP_ATTR_FIELD_MEMH())
                | UCP_OP_ATTR_FIELD_DATATYPE() | UCP_OP_ATTR_FIELD_REPLY_BUFFER());
        ucp_request_param_t.datatype(param, Ucp.dtMakeContig(8));
        ucp_request_param_t.reply_buffer(param, buffers.send().asSlice(8, 8));
        return param;
    }

    /** A request param, with {@link UcpCompletion}'s callback (native code, never Java) where it runs. */
    private MemorySegment requestParam(MemorySegment memh, boolean recv) {
        MemorySegment param = arena.allocate(ucp_request_param_t.layout());
        int fields = UCP_OP_ATTR_FIELD_MEMH();
        if (callbacks) {
            fields |= UCP_OP_ATTR_FIELD_CALLBACK();
            MemorySegment cb = ucp_request_param_t.cb(param);
            if (recv) ucp_request_param_t.cb.recv(cb, UcpCompletion.completionCallback());
            else ucp_request_param_t.cb.send(cb, UcpCompletion.completionCallback());
        }
        if (memh.equals(MemorySegment.NULL)) fields &= ~UCP_OP_ATTR_FIELD_MEMH();
        ucp_request_param_t.op_attr_mask(param, fields);
        ucp_request_param_t.memh(param, memh);
        return param;
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
        return Long.MAX_VALUE; // UCP tag messages have no size limit
    }

    @Override
    public byte[] localAddress() {
        return address.clone();
    }

    @Override
    public void connect(byte[] peerAddress) {
        ep = endpoints.connect(peerAddress, this::createEndpoint);
        epAddress = ep.address();
    }

    private MemorySegment createEndpoint(byte[] peerAddress) {
        MemorySegment params = arena.allocate(ucp_ep_params.layout());
        ucp_ep_params.field_mask(params, UCP_EP_PARAM_FIELD_REMOTE_ADDRESS() | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE());
        ucp_ep_params.address(params, arena.allocateFrom(JAVA_BYTE, peerAddress));
        // Error mode NONE, as ucx_perftest and MPI libraries use by default: PEER mode makes
        // UCX drop every rendezvous (rma_bw) lane whose memory domain cannot invalidate
        // registrations -- tcp's among them -- so 1 MiB over ucx:tcp would take the slower
        // active-message rendezvous (~1.6x the time here). A dead peer still shows: UCX 1.13
        // completes the endpoint's requests with an error status when a network transport
        // fails, and pattern.Await's timeout covers everything else.
        ucp_ep_params.err_mode(params, UCP_ERR_HANDLING_MODE_NONE());
        MemorySegment out = arena.allocate(ADDRESS);
        try {
            Ucs.check(ucp_ep_create(worker, params, out), "ucp_ep_create");
        } catch (UcxException e) {
            throw TransportException.error(name + ": " + e.getMessage());
        }
        return out.get(ADDRESS, 0);
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
        long request = UcpHotPath.tagRecv(workerAddress, recvBufAddress, bytes, TAG, TAG_MASK, recvParamAddress);
        if (Ucs.ptrIsErr(request)) throw failed("ucp_tag_recv_nbx", Ucs.ptrStatus(request));
        reuse(recvRequests, recvsPosted++, request);
        postedSinceLastCheck = true;
    }

    @Override
    public void postSend(long bytes) {
        long request = UcpHotPath.tagSend(epAddress, sendBufAddress, bytes, TAG, sendParamAddress);
        if (Ucs.ptrIsErr(request)) throw failed("ucp_tag_send_nbx", Ucs.ptrStatus(request));
        if (request == 0 && sendsCompleted == sendsPosted) {
            // completed inside the call, nothing older pending: count it now, so that the
            // caller's wait for it needs no ucp_worker_progress on the critical path
            sendsPosted++;
            sendsCompleted++;
            return;
        }
        reuse(sendRequests, sendsPosted++, request);
        postedSinceLastCheck = true;
    }

    /** Puts operation {@code index}'s request in its slot, freeing the completed one there. */
    private void reuse(long[] ring, long index, long request) {
        int slot = (int) index & slotMask;
        if (ring[slot] != 0) free(ring[slot]); // completed: the pattern keeps <= depth outstanding
        ring[slot] = request;
    }

    @Override
    public void progress() {
        // Requests change state only inside a UCP call: when progress found no events and
        // nothing was posted since the last look, their status cannot have changed.
        if (UcpHotPath.progress(workerAddress) == 0 && !postedSinceLastCheck) return;
        postedSinceLastCheck = false;
        while (recvsCompleted < recvsPosted && done(recvRequests, recvsCompleted, "receive")) recvsCompleted++;
        while (sendsCompleted < sendsPosted && done(sendRequests, sendsCompleted, "send")) sendsCompleted++;
        while (rmaCompleted < rmaPosted && done(rmaRequests, rmaCompleted, "one-sided operation")) rmaCompleted++;
    }

    // ---- one-sided ---------------------------------------------------------------------

    @Override
    public byte[] describeRegion() {
        requireOneSided();
        MemorySegment out = arena.allocate(ADDRESS);
        MemorySegment size = arena.allocate(JAVA_LONG);
        Ucs.check(ucp_rkey_pack(context, recvMemh, out, size), "ucp_rkey_pack");
        MemorySegment packed = out.get(ADDRESS, 0).reinterpret(size.get(JAVA_LONG, 0));
        byte[] description = new byte[8 + (int) packed.byteSize()];
        MemorySegment.ofArray(description).set(JAVA_LONG_UNALIGNED, 0, buffers.recv().address());
        MemorySegment.copy(packed, 0, MemorySegment.ofArray(description), 8, packed.byteSize());
        ucp_rkey_buffer_release(packed);
        return description;
    }

    @Override
    public void attachPeerRegion(byte[] description) {
        requireOneSided();
        if (!rkey.equals(MemorySegment.NULL)) ucp_rkey_destroy(rkey);
        remoteBase = MemorySegment.ofArray(description).get(JAVA_LONG_UNALIGNED, 0);
        MemorySegment packed = arena.allocate(description.length - 8);
        MemorySegment.copy(MemorySegment.ofArray(description), 8, packed, 0, packed.byteSize());
        MemorySegment out = arena.allocate(ADDRESS);
        Ucs.check(ucp_ep_rkey_unpack(ep, packed, out), "ucp_ep_rkey_unpack");
        rkey = out.get(ADDRESS, 0);
        rkeyAddress = rkey.address();
    }

    private void requireOneSided() {
        if (!op.oneSided()) throw new IllegalStateException(name + " was opened for two-sided messages only");
    }

    @Override
    public void postWrite(long bytes) {
        if (bytes > 1) {
            // UCP orders nothing between two puts by itself; ucp_worker_fence makes the payload
            // land before the flag byte without waiting for it (a flush would cost a round trip)
            track(UcpHotPath.put(epAddress, sendBufAddress, bytes - 1, remoteBase, rkeyAddress, putParamAddress),
                    "ucp_put_nbx");
            byte status = UcpHotPath.workerFence(workerAddress);
            if (status != Ucs.OK) throw failed("ucp_worker_fence", status);
        }
        track(UcpHotPath.put(epAddress, sendBufAddress + bytes - 1, 1, remoteBase + bytes - 1, rkeyAddress, putParamAddress),
                "ucp_put_nbx");
    }

    @Override
    public String writeOrdering() {
        return "put of the payload, ucp_worker_fence, then a 1-byte put of the flag";
    }

    @Override
    public void postWriteUnordered(long bytes) {
        track(UcpHotPath.put(epAddress, sendBufAddress, bytes, remoteBase, rkeyAddress, putParamAddress), "ucp_put_nbx");
    }

    @Override
    public void postFlush() {
        // a put completes when its source is reusable: the flush completes once the puts are done at the target
        track(UcpHotPath.epFlush(epAddress, flushParamAddress), "ucp_ep_flush_nbx");
    }

    @Override
    public String flushing() {
        return "ucp_ep_flush_nbx";
    }

    @Override
    public void postRead(long bytes) {
        track(UcpHotPath.get(epAddress, sendBufAddress, bytes, remoteBase, rkeyAddress, getParamAddress), "ucp_get_nbx");
    }

    @Override
    public void postFetchAdd(long value) {
        buffers.send().set(JAVA_LONG, 0, value);
        track(UcpHotPath.atomic(epAddress, UCP_ATOMIC_OP_ADD(), sendBufAddress, 1, remoteBase, rkeyAddress, addParamAddress),
                "ucp_atomic_op_nbx(ADD)");
    }

    @Override
    public void postCompareSwap(long compare, long swap) {
        // ucp.h's table of atomics: CSWAP compares with the buffer and swaps in the reply buffer's
        // value, which the old value then replaces
        buffers.send().set(JAVA_LONG, 0, compare);
        buffers.send().set(JAVA_LONG, 8, swap);
        track(UcpHotPath.atomic(epAddress, UCP_ATOMIC_OP_CSWAP(), sendBufAddress, 1, remoteBase, rkeyAddress, swapParamAddress),
                "ucp_atomic_op_nbx(CSWAP)");
    }

    @Override
    public long fetched() {
        return buffers.send().get(JAVA_LONG, 8);
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
    public boolean emulated(Op op) {
        return op.oneSided() && UcxSettings.emulatesOneSided(tls);
    }

    @Override
    public boolean writesNeedTargetProgress() {
        // native puts (shared memory, cma, RDMA) land without the target; emulated ones are active messages
        return emulated(Op.WRITE);
    }

    private void track(long request, String call) {
        if (Ucs.ptrIsErr(request)) throw failed(call, Ucs.ptrStatus(request));
        if (request == 0 && rmaCompleted == rmaPosted) {
            rmaPosted++;
            rmaCompleted++;
            return;
        }
        reuse(rmaRequests, rmaPosted++, request);
        postedSinceLastCheck = true;
    }

    /** Whether operation {@code index} of a ring has completed (its request is freed later, by reuse). */
    private boolean done(long[] ring, long index, String what) {
        int slot = (int) index & slotMask;
        long request = ring[slot];
        if (request == 0) return true; // completed in the posting call
        byte status = callbacks ? (byte) MEMORY.get(JAVA_INT, request) : UcpHotPath.checkStatus(request);
        if (status == Ucs.INPROGRESS) return false;
        if (status != Ucs.OK) {
            free(request);
            ring[slot] = 0;
            throw failed(what, status);
        }
        return true;
    }

    /** ucp_request_free, the request's status word set back to "in progress" first (see UcpCompletion). */
    private void free(long request) {
        if (callbacks) MEMORY.set(JAVA_INT, request, UcpCompletion.IN_PROGRESS);
        UcpHotPath.free(request);
    }

    private TransportException failed(String what, byte status) {
        String message = name + " " + what + " failed: " + Ucs.string(status);
        return peerFailure(status) ? new TransportException(ExitCode.PEER_TIMEOUT, message + " (peer died or unreachable)")
                : TransportException.error(message);
    }

    /** Statuses UCX reports when the other side went away (PEER error mode), not a local fault. */
    static boolean peerFailure(byte status) {
        return status == (byte) UCS_ERR_CONNECTION_RESET() || status == (byte) UCS_ERR_UNREACHABLE()
                || status == (byte) UCS_ERR_NOT_CONNECTED()
                // UCS_ERR_FIRST_LINK_FAILURE (-40) down to UCS_ERR_LAST_ENDPOINT_FAILURE (-89)
                || (status <= (byte) UCS_ERR_FIRST_LINK_FAILURE() && status >= (byte) UCS_ERR_LAST_ENDPOINT_FAILURE());
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
        if (!worker.equals(MemorySegment.NULL)) {
            cancelOutstanding(recvRequests, recvsCompleted, recvsPosted);
            cancelOutstanding(sendRequests, sendsCompleted, sendsPosted);
            cancelOutstanding(rmaRequests, rmaCompleted, rmaPosted);
            if (!rkey.equals(MemorySegment.NULL)) ucp_rkey_destroy(rkey);
            rkey = MemorySegment.NULL;
            for (MemorySegment e : endpoints.all()) closeEndpoint(e);
            endpoints.clear();
        }
        if (!context.equals(MemorySegment.NULL)) {
            if (!sendMemh.equals(MemorySegment.NULL)) ucp_mem_unmap(context, sendMemh);
            if (!recvMemh.equals(MemorySegment.NULL)) ucp_mem_unmap(context, recvMemh);
        }
        if (!worker.equals(MemorySegment.NULL)) ucp_worker_destroy(worker);
        if (!context.equals(MemorySegment.NULL)) ucp_cleanup(context);
        worker = ep = context = MemorySegment.NULL;
        if (arena.scope().isAlive()) arena.close();
    }

    /** Cancels operations {@code from..to-1}, then frees every request left in the ring. */
    private void cancelOutstanding(long[] ring, long from, long to) {
        for (long i = from; i < to; i++) {
            long request = ring[(int) i & slotMask];
            if (request == 0) continue;
            ucp_request_cancel(worker, MemorySegment.ofAddress(request));
            for (int spin = 0; spin < 1_000_000 && UcpHotPath.checkStatus(request) == Ucs.INPROGRESS; spin++) {
                UcpHotPath.progress(workerAddress);
            }
        }
        for (int slot = 0; slot < ring.length; slot++) {
            if (ring[slot] != 0) free(ring[slot]);
            ring[slot] = 0;
        }
    }

    /** ucp_ep_close_nbx with FORCE: the peer may already be gone, so no flush handshake. */
    private void closeEndpoint(MemorySegment ep) {
        MemorySegment param = arena.allocate(ucp_request_param_t.layout());
        ucp_request_param_t.op_attr_mask(param, UCP_OP_ATTR_FIELD_FLAGS());
        ucp_request_param_t.flags(param, UCP_EP_CLOSE_FLAG_FORCE());
        long request = ucp_ep_close_nbx(ep, param).address();
        if (Ucs.ptrIsPtr(request)) {
            for (int spin = 0; spin < 1_000_000 && UcpHotPath.checkStatus(request) == Ucs.INPROGRESS; spin++) {
                UcpHotPath.progress(workerAddress);
            }
            free(request);
        }
    }
}
