package org.fabprobe.bindings.libfabric;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.fabprobe.bindings.libfabric.gen.LibFabric.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.fabprobe.bindings.libfabric.gen.fi_av_attr;
import org.fabprobe.bindings.libfabric.gen.fi_cq_attr;
import org.fabprobe.bindings.libfabric.gen.fi_cq_err_entry;
import org.fabprobe.bindings.libfabric.gen.fi_domain_attr;
import org.fabprobe.bindings.libfabric.gen.fi_ep_attr;
import org.fabprobe.bindings.libfabric.gen.fi_fabric_attr;
import org.fabprobe.bindings.libfabric.gen.fi_info;
import org.junit.jupiter.api.Test;

/**
 * The re-created static inlines against the real libfabric: an RDM endpoint on the shm
 * provider sends tagged messages to itself through every call of the layer.
 */
class FiTest {

    @Test
    void versionMacroMatchesTheCDefinition() {
        assertEquals((1 << 16) | 17, Fi.version(1, 17));
        assertEquals(1, Fi.majorOf(Fi.version(1, 17)));
        assertEquals(17, Fi.minorOf(Fi.version(1, 17)));
        assertTrue(Fi.requestedVersion() >= Fi.version(1, 5), "libfabric too old: " + Integer.toHexString(fi_version()));
    }

    @Test
    void strerrorDecodesNegativeReturnCodes() {
        assertEquals(Fi.strerror(FI_EAGAIN()), Fi.strerror(-FI_EAGAIN()));
        assertTrue(Fi.strerror(-FI_ENODATA()).toLowerCase().contains("no data"), Fi.strerror(-FI_ENODATA()));
    }

    @Test
    void selfSendThroughEveryInlineOnShm() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment hints = Fi.allocinfo();
            assertNotEquals(MemorySegment.NULL, hints);
            fi_info.caps(hints, FI_TAGGED() | FI_MSG());
            fi_info.mode(hints, FI_CONTEXT());
            fi_ep_attr.type(fi_info.ep_attr(hints).reinterpret(fi_ep_attr.layout().byteSize()), FI_EP_RDM());
            MemorySegment out = arena.allocate(ADDRESS);
            int rc = fi_getinfo(Fi.requestedVersion(), MemorySegment.NULL, MemorySegment.NULL, 0, hints, out);
            fi_freeinfo(hints);
            assertEquals(0, rc, () -> "fi_getinfo: " + Fi.strerror(rc));
            MemorySegment info = out.get(ADDRESS, 0).reinterpret(fi_info.layout().byteSize());
            // prefer shm: walk the list for it, the first entry may be another provider
            MemorySegment shm = info;
            for (MemorySegment i = info; !i.equals(MemorySegment.NULL);
                 i = fi_info.next(i.reinterpret(fi_info.layout().byteSize()))) {
                MemorySegment fa = fi_info.fabric_attr(i.reinterpret(fi_info.layout().byteSize()))
                        .reinterpret(org.fabprobe.bindings.libfabric.gen.fi_fabric_attr.layout().byteSize());
                String prov = org.fabprobe.bindings.libfabric.gen.fi_fabric_attr.prov_name(fa).reinterpret(64).getString(0);
                if (prov.equals("shm")) {
                    shm = i.reinterpret(fi_info.layout().byteSize());
                    break;
                }
            }

            check(fi_fabric(fi_info.fabric_attr(shm), out, MemorySegment.NULL));
            MemorySegment fabric = out.get(ADDRESS, 0);
            check(Fi.domain(fabric, shm, out, MemorySegment.NULL));
            MemorySegment domain = out.get(ADDRESS, 0);

            MemorySegment cqAttr = arena.allocate(fi_cq_attr.layout());
            fi_cq_attr.format(cqAttr, FI_CQ_FORMAT_CONTEXT());
            fi_cq_attr.size(cqAttr, 16);
            check(Fi.cqOpen(domain, cqAttr, out, MemorySegment.NULL));
            MemorySegment cq = out.get(ADDRESS, 0);
            MemorySegment avAttr = arena.allocate(fi_av_attr.layout());
            fi_av_attr.type(avAttr, FI_AV_TABLE());
            check(Fi.avOpen(domain, avAttr, out, MemorySegment.NULL));
            MemorySegment av = out.get(ADDRESS, 0);
            check(Fi.endpoint(domain, shm, out, MemorySegment.NULL));
            MemorySegment ep = out.get(ADDRESS, 0);
            check(Fi.bind(ep, cq, FI_TRANSMIT() | FI_RECV()));
            check(Fi.bind(ep, av, 0));
            check(Fi.enable(ep));

            MemorySegment sendBuf = arena.allocate(4096, 4096);
            MemorySegment recvBuf = arena.allocate(4096, 4096);
            check(Fi.mrReg(domain, sendBuf, 4096, FI_SEND(), 0, 1, 0, out, MemorySegment.NULL));
            MemorySegment sendMr = out.get(ADDRESS, 0);
            check(Fi.mrReg(domain, recvBuf, 4096, FI_RECV(), 0, 2, 0, out, MemorySegment.NULL));
            MemorySegment recvMr = out.get(ADDRESS, 0);

            MemorySegment len = arena.allocate(JAVA_LONG);
            len.set(JAVA_LONG, 0, 256);
            MemorySegment name = arena.allocate(256);
            check(Fi.getname(ep, name, len));
            assertTrue(len.get(JAVA_LONG, 0) > 0);
            MemorySegment self = arena.allocate(JAVA_LONG);
            assertEquals(1, Fi.avInsert(av, name, 1, self, 0, MemorySegment.NULL));
            long selfAddr = self.get(JAVA_LONG, 0);

            MemorySegment contexts = arena.allocate(64 * 4, 64);
            MemorySegment entries = arena.allocate(JAVA_LONG, 8);

            // tagged send/recv with descriptors
            sendBuf.fill((byte) 7);
            post(cq, () -> Fi.trecv(ep, recvBuf, 100, Fi.mrDesc(recvMr), FI_ADDR_UNSPEC(), 42, 0, contexts.asSlice(0, 64)));
            post(cq, () -> Fi.tsend(ep, sendBuf, 100, Fi.mrDesc(sendMr), selfAddr, 42, contexts.asSlice(64, 64)));
            assertEquals(2, drain(cq, entries, 2));
            assertEquals(7, recvBuf.get(JAVA_BYTE, 99));

            // inject: no send completion, data delivered
            sendBuf.fill((byte) 9);
            post(cq, () -> Fi.trecv(ep, recvBuf, 8, MemorySegment.NULL, FI_ADDR_UNSPEC(), 43, 0, contexts.asSlice(128, 64)));
            post(cq, () -> Fi.tinject(ep, sendBuf, 8, selfAddr, 43));
            assertEquals(1, drain(cq, entries, 1));
            assertEquals(9, recvBuf.get(JAVA_BYTE, 7));

            // untagged messages through fi_recv / fi_send / fi_inject, and the hot-path handles
            FiHotPath.Functions fn = FiHotPath.Functions.of(ep, cq);
            post(cq, () -> Fi.recv(ep, recvBuf, 16, MemorySegment.NULL, FI_ADDR_UNSPEC(), contexts.asSlice(0, 64)));
            post(cq, () -> Fi.inject(ep, sendBuf, 16, selfAddr));
            assertEquals(1, drain(cq, entries, 1));
            post(cq, () -> FiHotPath.trecv(fn.trecv(), ep.address(), recvBuf.address(), 0, 0, FI_ADDR_UNSPEC(), 44, 0, contexts.address()));
            post(cq, () -> FiHotPath.tsend(fn.tsend(), ep.address(), sendBuf.address(), 0, 0, selfAddr, 44, contexts.address() + 64));
            long completions = 0;
            for (int spin = 0; spin < 1_000_000 && completions < 2; spin++) {
                long n = FiHotPath.cqRead(fn.cqRead(), cq.address(), entries.address(), 8);
                if (n > 0) completions += n;
            }
            assertEquals(2, completions, "zero-byte tagged message through the hot path");

            // an empty queue answers -FI_EAGAIN; a too-short receive yields an error entry decoded by fi_cq_strerror
            assertEquals(-FI_EAGAIN(), Fi.cqRead(cq, entries, 8));
            post(cq, () -> Fi.trecv(ep, recvBuf, 4, MemorySegment.NULL, FI_ADDR_UNSPEC(), 45, 0, contexts.asSlice(0, 64)));
            post(cq, () -> Fi.tsend(ep, sendBuf, 64, MemorySegment.NULL, selfAddr, 45, contexts.asSlice(64, 64)));
            boolean sawError = false;
            for (int spin = 0; spin < 1_000_000 && !sawError; spin++) {
                long n = Fi.cqRead(cq, entries, 8);
                if (n == -FI_EAVAIL()) {
                    MemorySegment err = arena.allocate(fi_cq_err_entry.layout());
                    assertEquals(1, Fi.cqReaderr(cq, err, 0));
                    // the spec says a positive errno; shm 1.17 reports it negated, so compare magnitudes
                    assertEquals(FI_ETRUNC(), Math.abs(fi_cq_err_entry.err(err)));
                    assertFalse(Fi.cqStrerror(cq, fi_cq_err_entry.prov_errno(err), fi_cq_err_entry.err_data(err)).isEmpty());
                    sawError = true;
                }
            }
            assertTrue(sawError, "truncated receive must produce an error completion");

            for (MemorySegment fid : new MemorySegment[] {ep, sendMr, recvMr, av, cq, domain, fabric}) {
                assertEquals(0, Fi.close(fid));
            }
            fi_freeinfo(info);
        }
    }

    @Test
    void rmaWriteReadAndAtomicsToSelfOnShm() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment hints = Fi.allocinfo();
            fi_info.caps(hints, FI_RMA() | FI_ATOMIC() | FI_READ() | FI_WRITE() | FI_REMOTE_READ() | FI_REMOTE_WRITE());
            fi_info.mode(hints, FI_CONTEXT());
            fi_ep_attr.type(fi_info.ep_attr(hints).reinterpret(fi_ep_attr.layout().byteSize()), FI_EP_RDM());
            MemorySegment domainHints = fi_info.domain_attr(hints).reinterpret(fi_domain_attr.layout().byteSize());
            fi_domain_attr.mr_mode(domainHints, FI_MR_VIRT_ADDR() | FI_MR_ALLOCATED() | FI_MR_PROV_KEY() | FI_MR_LOCAL());
            MemorySegment out = arena.allocate(ADDRESS);
            int rc = fi_getinfo(Fi.requestedVersion(), MemorySegment.NULL, MemorySegment.NULL, 0, hints, out);
            fi_freeinfo(hints);
            assertEquals(0, rc, () -> "fi_getinfo(FI_RMA | FI_ATOMIC): " + Fi.strerror(rc));
            MemorySegment info = out.get(ADDRESS, 0).reinterpret(fi_info.layout().byteSize());
            MemorySegment shm = null;
            for (MemorySegment i = info; !i.equals(MemorySegment.NULL);
                 i = fi_info.next(i.reinterpret(fi_info.layout().byteSize()))) {
                MemorySegment fa = fi_info.fabric_attr(i.reinterpret(fi_info.layout().byteSize()))
                        .reinterpret(fi_fabric_attr.layout().byteSize());
                if (fi_fabric_attr.prov_name(fa).reinterpret(64).getString(0).equals("shm")) {
                    shm = i.reinterpret(fi_info.layout().byteSize());
                    break;
                }
            }
            assertNotNull(shm, "shm offers no FI_RMA | FI_ATOMIC endpoint");
            int mrMode = fi_domain_attr.mr_mode(fi_info.domain_attr(shm).reinterpret(fi_domain_attr.layout().byteSize()));

            check(fi_fabric(fi_info.fabric_attr(shm), out, MemorySegment.NULL));
            MemorySegment fabric = out.get(ADDRESS, 0);
            check(Fi.domain(fabric, shm, out, MemorySegment.NULL));
            MemorySegment domain = out.get(ADDRESS, 0);
            MemorySegment cqAttr = arena.allocate(fi_cq_attr.layout());
            fi_cq_attr.format(cqAttr, FI_CQ_FORMAT_CONTEXT());
            fi_cq_attr.size(cqAttr, 16);
            check(Fi.cqOpen(domain, cqAttr, out, MemorySegment.NULL));
            MemorySegment cq = out.get(ADDRESS, 0);
            MemorySegment avAttr = arena.allocate(fi_av_attr.layout());
            fi_av_attr.type(avAttr, FI_AV_TABLE());
            check(Fi.avOpen(domain, avAttr, out, MemorySegment.NULL));
            MemorySegment av = out.get(ADDRESS, 0);
            check(Fi.endpoint(domain, shm, out, MemorySegment.NULL));
            MemorySegment ep = out.get(ADDRESS, 0);
            check(Fi.bind(ep, cq, FI_TRANSMIT() | FI_RECV()));
            check(Fi.bind(ep, av, 0));
            check(Fi.enable(ep));

            MemorySegment len = arena.allocate(JAVA_LONG);
            len.set(JAVA_LONG, 0, 256);
            MemorySegment name = arena.allocate(256);
            check(Fi.getname(ep, name, len));
            MemorySegment self = arena.allocate(JAVA_LONG);
            assertEquals(1, Fi.avInsert(av, name, 1, self, 0, MemorySegment.NULL));
            long selfAddr = self.get(JAVA_LONG, 0);

            // the target buffer, registered for remote access; the local one for local access
            MemorySegment target = arena.allocate(4096, 4096);
            MemorySegment local = arena.allocate(4096, 4096);
            check(Fi.mrReg(domain, target, 4096, FI_REMOTE_READ() | FI_REMOTE_WRITE(), 0, 11, 0, out, MemorySegment.NULL));
            MemorySegment targetMr = out.get(ADDRESS, 0);
            check(Fi.mrReg(domain, local, 4096, FI_READ() | FI_WRITE(), 0, 12, 0, out, MemorySegment.NULL));
            MemorySegment localMr = out.get(ADDRESS, 0);
            // FI_MR_VIRT_ADDR: the target is addressed by its virtual address, else by offset
            long base = (mrMode & FI_MR_VIRT_ADDR()) != 0 ? target.address() : 0;
            long key = Fi.mrKey(targetMr);
            MemorySegment desc = Fi.mrDesc(localMr);
            MemorySegment contexts = arena.allocate(64 * 4, 64);
            MemorySegment entries = arena.allocate(JAVA_LONG, 8);

            // fi_write, then fi_read back through the hot-path handles
            for (int i = 0; i < 128; i++) local.set(JAVA_BYTE, i, (byte) (i * 3));
            post(cq, () -> Fi.write(ep, local, 128, desc, selfAddr, base + 256, key, contexts.asSlice(0, 64)));
            assertEquals(1, drain(cq, entries, 1));
            assertEquals(local.asSlice(0, 128).asByteBuffer(), target.asSlice(256, 128).asByteBuffer());
            FiHotPath.RmaFunctions fn = FiHotPath.RmaFunctions.of(ep);
            post(cq, () -> FiHotPath.rma(fn.read(), ep.address(), local.address() + 1024, 128, desc.address(), selfAddr,
                    base + 256, key, contexts.address() + 64));
            assertEquals(1, drain(cq, entries, 1));
            assertEquals(target.asSlice(256, 128).asByteBuffer(), local.asSlice(1024, 128).asByteBuffer());

            // 64-bit atomics: FI_SUM, fetch FI_SUM (old value in result), compare-and-swap
            MemorySegment count = arena.allocate(JAVA_LONG);
            check(Fi.atomicValid(ep, FI_UINT64(), FI_SUM(), count));
            assertTrue(count.get(JAVA_LONG, 0) >= 1);
            check(Fi.fetchAtomicValid(ep, FI_UINT64(), FI_SUM(), count));
            check(Fi.compareAtomicValid(ep, FI_UINT64(), FI_CSWAP(), count));
            target.set(JAVA_LONG, 0, 40);
            MemorySegment operand = local.asSlice(2048, 8), result = local.asSlice(2056, 8), compare = local.asSlice(2064, 8);
            operand.set(JAVA_LONG, 0, 1);
            post(cq, () -> Fi.atomic(ep, operand, 1, desc, selfAddr, base, key, FI_UINT64(), FI_SUM(), contexts.asSlice(0, 64)));
            assertEquals(1, drain(cq, entries, 1));
            post(cq, () -> Fi.fetchAtomic(ep, operand, 1, desc, result, desc, selfAddr, base, key, FI_UINT64(), FI_SUM(),
                    contexts.asSlice(64, 64)));
            assertEquals(1, drain(cq, entries, 1));
            assertEquals(41, result.get(JAVA_LONG, 0));
            assertEquals(42, target.get(JAVA_LONG, 0));
            operand.set(JAVA_LONG, 0, 7);
            compare.set(JAVA_LONG, 0, 42);
            post(cq, () -> Fi.compareAtomic(ep, operand, 1, desc, compare, desc, result, desc, selfAddr, base, key,
                    FI_UINT64(), FI_CSWAP(), contexts.asSlice(128, 64)));
            assertEquals(1, drain(cq, entries, 1));
            assertEquals(42, result.get(JAVA_LONG, 0));
            assertEquals(7, target.get(JAVA_LONG, 0));
            post(cq, () -> FiHotPath.fetchAtomic(fn.fetchAtomic(), ep.address(), operand.address(), 1, desc.address(),
                    result.address(), desc.address(), selfAddr, base, key, FI_UINT64(), FI_ATOMIC_READ(),
                    contexts.address() + 192));
            assertEquals(1, drain(cq, entries, 1));
            assertEquals(7, result.get(JAVA_LONG, 0), "FI_ATOMIC_READ through the hot path");

            for (MemorySegment fid : new MemorySegment[] {ep, targetMr, localMr, av, cq, domain, fabric}) {
                assertEquals(0, Fi.close(fid));
            }
            fi_freeinfo(info);
        }
    }

    private static long drain(MemorySegment cq, MemorySegment entries, int expected) {
        long got = 0;
        for (int spin = 0; spin < 1_000_000 && got < expected; spin++) {
            long n = Fi.cqRead(cq, entries, 8);
            if (n > 0) got += n;
            else assertEquals(-FI_EAGAIN(), n, () -> "fi_cq_read: " + Fi.strerror(n));
        }
        return got;
    }

    /** Posts a data-path operation, retrying on -FI_EAGAIN (the provider wants progress first). */
    private static void post(MemorySegment cq, java.util.function.LongSupplier op) {
        long rc;
        for (int spin = 0; (rc = op.getAsLong()) == -FI_EAGAIN() && spin < 1_000_000; spin++) {
            // a progress call that may complete nothing yet; completions are counted later
            pending += Math.max(0, Fi.cqRead(cq, PENDING_ENTRIES, 0));
        }
        check(rc);
    }

    private static long pending;
    private static final MemorySegment PENDING_ENTRIES = Arena.global().allocate(JAVA_LONG, 8);

    private static void check(long rc) {
        assertEquals(0, rc, () -> "libfabric call failed: " + Fi.strerror(rc));
    }
}
