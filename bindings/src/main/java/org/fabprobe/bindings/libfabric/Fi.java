package org.fabprobe.bindings.libfabric;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import org.fabprobe.bindings.libfabric.gen.LibFabric;
import org.fabprobe.bindings.libfabric.gen.fi_ops;
import org.fabprobe.bindings.libfabric.gen.fi_ops_atomic;
import org.fabprobe.bindings.libfabric.gen.fi_ops_av;
import org.fabprobe.bindings.libfabric.gen.fi_ops_cm;
import org.fabprobe.bindings.libfabric.gen.fi_ops_cq;
import org.fabprobe.bindings.libfabric.gen.fi_ops_domain;
import org.fabprobe.bindings.libfabric.gen.fi_ops_fabric;
import org.fabprobe.bindings.libfabric.gen.fi_ops_mr;
import org.fabprobe.bindings.libfabric.gen.fi_ops_msg;
import org.fabprobe.bindings.libfabric.gen.fi_ops_rma;
import org.fabprobe.bindings.libfabric.gen.fi_ops_tagged;
import org.fabprobe.bindings.libfabric.gen.fid;
import org.fabprobe.bindings.libfabric.gen.fid_av;
import org.fabprobe.bindings.libfabric.gen.fid_cq;
import org.fabprobe.bindings.libfabric.gen.fid_domain;
import org.fabprobe.bindings.libfabric.gen.fid_ep;
import org.fabprobe.bindings.libfabric.gen.fid_fabric;
import org.fabprobe.bindings.libfabric.gen.fid_mr;

/**
 * libfabric's static-inline functions and function-like macros, re-created in Java.
 *
 * <p>libfabric exports only a handful of symbols (fi_getinfo, fi_fabric, fi_strerror, ...);
 * everything else in rdma/fi_*.h is a static inline that calls through the ops table of a
 * fid. jextract cannot bind those, so each method here does what the C inline does, field
 * for field. Arguments and results keep the C meaning: negative return values are
 * -FI_E* error codes, out-parameters are pointer-sized segments.
 *
 * <p>These calls go through jextract's generic invokers and suit set-up and tear-down. The
 * timing loops use {@link FiHotPath}, which resolves the function pointer once.
 */
public final class Fi {
    private Fi() {}

    /** FI_VERSION(major, minor). */
    public static int version(int major, int minor) {
        return (major << 16) | minor;
    }

    public static int majorOf(int version) {
        return version >>> 16;
    }

    public static int minorOf(int version) {
        return version & 0xFFFF;
    }

    /** The API version fabprobe asks for: the headers it was generated from, or the library's if older. */
    public static int requestedVersion() {
        int headers = version(LibFabric.FI_MAJOR_VERSION(), LibFabric.FI_MINOR_VERSION());
        return Math.min(headers, LibFabric.fi_version());
    }

    /** fi_allocinfo(): fi_dupinfo(NULL). */
    public static MemorySegment allocinfo() {
        return LibFabric.fi_dupinfo(MemorySegment.NULL);
    }

    /** fi_strerror(-rc) as a Java string; accepts the negative return codes directly. */
    public static String strerror(long rc) {
        return LibFabric.fi_strerror((int) Math.abs(rc)).reinterpret(Long.MAX_VALUE).getString(0);
    }

    // ---- fid / fi_ops ------------------------------------------------------------------

    private static MemorySegment ops(MemorySegment fidPtr) {
        return fid.ops(fidPtr.reinterpret(fid.layout().byteSize())).reinterpret(fi_ops.layout().byteSize());
    }

    /** fi_close(fid): fid->ops->close(fid). */
    public static int close(MemorySegment fidPtr) {
        return fi_ops.close.invoke(fi_ops.close(ops(fidPtr)), fidPtr);
    }

    /** fi_ep_bind(ep, bfid, flags) (also fi_cq_bind and friends): ep->fid.ops->bind(...). */
    public static int bind(MemorySegment fidPtr, MemorySegment boundFid, long flags) {
        return fi_ops.bind.invoke(fi_ops.bind(ops(fidPtr)), fidPtr, boundFid, flags);
    }

    /** fi_control(fid, command, arg). */
    public static int control(MemorySegment fidPtr, int command, MemorySegment arg) {
        return fi_ops.control.invoke(fi_ops.control(ops(fidPtr)), fidPtr, command, arg);
    }

    /** fi_enable(ep): fi_control(&ep->fid, FI_ENABLE, NULL). */
    public static int enable(MemorySegment ep) {
        return control(ep, LibFabric.FI_ENABLE(), MemorySegment.NULL);
    }

    // ---- fabric / domain ---------------------------------------------------------------

    /** fi_domain(fabric, info, &domain, context). */
    public static int domain(MemorySegment fabric, MemorySegment info, MemorySegment domainOut, MemorySegment context) {
        MemorySegment ops = opsTable(fabric, fid_fabric.layout(), fid_fabric.ops$offset(), fi_ops_fabric.layout());
        return fi_ops_fabric.domain.invoke(fi_ops_fabric.domain(ops), fabric, info, domainOut, context);
    }

    private static MemorySegment domainOps(MemorySegment domain) {
        return opsTable(domain, fid_domain.layout(), fid_domain.ops$offset(), fi_ops_domain.layout());
    }

    /** fi_endpoint(domain, info, &ep, context). */
    public static int endpoint(MemorySegment domain, MemorySegment info, MemorySegment epOut, MemorySegment context) {
        return fi_ops_domain.endpoint.invoke(fi_ops_domain.endpoint(domainOps(domain)), domain, info, epOut, context);
    }

    /** fi_cq_open(domain, attr, &cq, context). */
    public static int cqOpen(MemorySegment domain, MemorySegment attr, MemorySegment cqOut, MemorySegment context) {
        return fi_ops_domain.cq_open.invoke(fi_ops_domain.cq_open(domainOps(domain)), domain, attr, cqOut, context);
    }

    /** fi_av_open(domain, attr, &av, context). */
    public static int avOpen(MemorySegment domain, MemorySegment attr, MemorySegment avOut, MemorySegment context) {
        return fi_ops_domain.av_open.invoke(fi_ops_domain.av_open(domainOps(domain)), domain, attr, avOut, context);
    }

    /** fi_mr_reg(domain, buf, len, access, offset, requested_key, flags, &mr, context): domain->mr->reg(&domain->fid, ...). */
    public static int mrReg(MemorySegment domain, MemorySegment buf, long len, long access, long offset,
                            long requestedKey, long flags, MemorySegment mrOut, MemorySegment context) {
        MemorySegment mrOps = opsTable(domain, fid_domain.layout(), fid_domain.mr$offset(), fi_ops_mr.layout());
        return fi_ops_mr.reg.invoke(fi_ops_mr.reg(mrOps), domain, buf, len, access, offset, requestedKey, flags, mrOut, context);
    }

    /** fi_mr_desc(mr): mr->mem_desc. */
    public static MemorySegment mrDesc(MemorySegment mr) {
        return fid_mr.mem_desc(mr.reinterpret(fid_mr.layout().byteSize()));
    }

    /** fi_mr_key(mr): mr->key. */
    public static long mrKey(MemorySegment mr) {
        return fid_mr.key(mr.reinterpret(fid_mr.layout().byteSize()));
    }

    // ---- endpoint / address vector -----------------------------------------------------

    /** fi_getname(&ep->fid, addr, &addrlen): ep->cm->getname(...). */
    public static int getname(MemorySegment ep, MemorySegment addr, MemorySegment addrlenInOut) {
        MemorySegment cm = opsTable(ep, fid_ep.layout(), fid_ep.cm$offset(), fi_ops_cm.layout());
        return fi_ops_cm.getname.invoke(fi_ops_cm.getname(cm), ep, addr, addrlenInOut);
    }

    /** fi_setname(&ep->fid, addr, addrlen): ep->cm->setname(...). */
    public static int setname(MemorySegment ep, MemorySegment addr, long addrlen) {
        MemorySegment cm = opsTable(ep, fid_ep.layout(), fid_ep.cm$offset(), fi_ops_cm.layout());
        return fi_ops_cm.setname.invoke(fi_ops_cm.setname(cm), ep, addr, addrlen);
    }

    /** fi_av_insert(av, addr, count, fi_addr, flags, context). */
    public static int avInsert(MemorySegment av, MemorySegment addr, long count, MemorySegment fiAddrOut,
                               long flags, MemorySegment context) {
        MemorySegment ops = opsTable(av, fid_av.layout(), fid_av.ops$offset(), fi_ops_av.layout());
        return fi_ops_av.insert.invoke(fi_ops_av.insert(ops), av, addr, count, fiAddrOut, flags, context);
    }

    /** fi_tsend(ep, buf, len, desc, dest_addr, tag, context). */
    public static long tsend(MemorySegment ep, MemorySegment buf, long len, MemorySegment desc, long dest, long tag,
                             MemorySegment context) {
        MemorySegment t = taggedOps(ep);
        return fi_ops_tagged.send.invoke(fi_ops_tagged.send(t), ep, buf, len, desc, dest, tag, context);
    }

    /** fi_trecv(ep, buf, len, desc, src_addr, tag, ignore, context). */
    public static long trecv(MemorySegment ep, MemorySegment buf, long len, MemorySegment desc, long src, long tag,
                             long ignore, MemorySegment context) {
        MemorySegment t = taggedOps(ep);
        return fi_ops_tagged.recv.invoke(fi_ops_tagged.recv(t), ep, buf, len, desc, src, tag, ignore, context);
    }

    /** fi_tinject(ep, buf, len, dest_addr, tag). */
    public static long tinject(MemorySegment ep, MemorySegment buf, long len, long dest, long tag) {
        MemorySegment t = taggedOps(ep);
        return fi_ops_tagged.inject.invoke(fi_ops_tagged.inject(t), ep, buf, len, dest, tag);
    }

    /** fi_send(ep, buf, len, desc, dest_addr, context). */
    public static long send(MemorySegment ep, MemorySegment buf, long len, MemorySegment desc, long dest, MemorySegment context) {
        MemorySegment m = msgOps(ep);
        return fi_ops_msg.send.invoke(fi_ops_msg.send(m), ep, buf, len, desc, dest, context);
    }

    /** fi_recv(ep, buf, len, desc, src_addr, context). */
    public static long recv(MemorySegment ep, MemorySegment buf, long len, MemorySegment desc, long src, MemorySegment context) {
        MemorySegment m = msgOps(ep);
        return fi_ops_msg.recv.invoke(fi_ops_msg.recv(m), ep, buf, len, desc, src, context);
    }

    /** fi_inject(ep, buf, len, dest_addr). */
    public static long inject(MemorySegment ep, MemorySegment buf, long len, long dest) {
        MemorySegment m = msgOps(ep);
        return fi_ops_msg.inject.invoke(fi_ops_msg.inject(m), ep, buf, len, dest);
    }

    static MemorySegment taggedOps(MemorySegment ep) {
        return opsTable(ep, fid_ep.layout(), fid_ep.tagged$offset(), fi_ops_tagged.layout());
    }

    static MemorySegment msgOps(MemorySegment ep) {
        return opsTable(ep, fid_ep.layout(), fid_ep.msg$offset(), fi_ops_msg.layout());
    }

    // ---- RMA (rdma/fi_rma.h): ep->rma->* ------------------------------------------------

    static MemorySegment rmaOps(MemorySegment ep) {
        return opsTable(ep, fid_ep.layout(), fid_ep.rma$offset(), fi_ops_rma.layout());
    }

    /** fi_read(ep, buf, len, desc, src_addr, addr, key, context): remote (addr, key) into buf. */
    public static long read(MemorySegment ep, MemorySegment buf, long len, MemorySegment desc, long src, long addr,
                            long key, MemorySegment context) {
        MemorySegment r = rmaOps(ep);
        return fi_ops_rma.read.invoke(fi_ops_rma.read(r), ep, buf, len, desc, src, addr, key, context);
    }

    /** fi_write(ep, buf, len, desc, dest_addr, addr, key, context): buf to remote (addr, key). */
    public static long write(MemorySegment ep, MemorySegment buf, long len, MemorySegment desc, long dest, long addr,
                             long key, MemorySegment context) {
        MemorySegment r = rmaOps(ep);
        return fi_ops_rma.write.invoke(fi_ops_rma.write(r), ep, buf, len, desc, dest, addr, key, context);
    }

    /** fi_inject_write(ep, buf, len, dest_addr, addr, key): no completion, buf reusable at return. */
    public static long injectWrite(MemorySegment ep, MemorySegment buf, long len, long dest, long addr, long key) {
        MemorySegment r = rmaOps(ep);
        return fi_ops_rma.inject.invoke(fi_ops_rma.inject(r), ep, buf, len, dest, addr, key);
    }

    /** fi_writedata(ep, buf, len, desc, data, dest_addr, addr, key, context): a write with remote CQ data. */
    public static long writedata(MemorySegment ep, MemorySegment buf, long len, MemorySegment desc, long data, long dest,
                                 long addr, long key, MemorySegment context) {
        MemorySegment r = rmaOps(ep);
        return fi_ops_rma.writedata.invoke(fi_ops_rma.writedata(r), ep, buf, len, desc, data, dest, addr, key, context);
    }

    // ---- atomics (rdma/fi_atomic.h): ep->atomic->*; datatype is an enum fi_datatype (FI_UINT64, ...),
    // ---- op an enum fi_op (FI_SUM, FI_CSWAP, FI_ATOMIC_READ, ...); count is in elements, not bytes

    static MemorySegment atomicOps(MemorySegment ep) {
        return opsTable(ep, fid_ep.layout(), fid_ep.atomic$offset(), fi_ops_atomic.layout());
    }

    /** fi_atomic(ep, buf, count, desc, dest_addr, addr, key, datatype, op, context). */
    public static long atomic(MemorySegment ep, MemorySegment buf, long count, MemorySegment desc, long dest, long addr,
                              long key, int datatype, int op, MemorySegment context) {
        MemorySegment a = atomicOps(ep);
        return fi_ops_atomic.write.invoke(fi_ops_atomic.write(a), ep, buf, count, desc, dest, addr, key, datatype, op,
                context);
    }

    /** fi_inject_atomic(ep, buf, count, dest_addr, addr, key, datatype, op). */
    public static long injectAtomic(MemorySegment ep, MemorySegment buf, long count, long dest, long addr, long key,
                                    int datatype, int op) {
        MemorySegment a = atomicOps(ep);
        return fi_ops_atomic.inject.invoke(fi_ops_atomic.inject(a), ep, buf, count, dest, addr, key, datatype, op);
    }

    /** fi_fetch_atomic(ep, buf, count, desc, result, result_desc, dest_addr, addr, key, datatype, op, context). */
    public static long fetchAtomic(MemorySegment ep, MemorySegment buf, long count, MemorySegment desc,
                                   MemorySegment result, MemorySegment resultDesc, long dest, long addr, long key,
                                   int datatype, int op, MemorySegment context) {
        MemorySegment a = atomicOps(ep);
        return fi_ops_atomic.readwrite.invoke(fi_ops_atomic.readwrite(a), ep, buf, count, desc, result, resultDesc,
                dest, addr, key, datatype, op, context);
    }

    /**
     * fi_compare_atomic(ep, buf, count, desc, compare, compare_desc, result, result_desc, dest_addr, addr, key,
     * datatype, op, context).
     */
    public static long compareAtomic(MemorySegment ep, MemorySegment buf, long count, MemorySegment desc,
                                     MemorySegment compare, MemorySegment compareDesc, MemorySegment result,
                                     MemorySegment resultDesc, long dest, long addr, long key, int datatype, int op,
                                     MemorySegment context) {
        MemorySegment a = atomicOps(ep);
        return fi_ops_atomic.compwrite.invoke(fi_ops_atomic.compwrite(a), ep, buf, count, desc, compare, compareDesc,
                result, resultDesc, dest, addr, key, datatype, op, context);
    }

    /** fi_atomicvalid(ep, datatype, op, &count): 0 and the largest count if the provider supports it. */
    public static int atomicValid(MemorySegment ep, int datatype, int op, MemorySegment countOut) {
        MemorySegment a = atomicOps(ep);
        return fi_ops_atomic.writevalid.invoke(fi_ops_atomic.writevalid(a), ep, datatype, op, countOut);
    }

    /** fi_fetch_atomicvalid(ep, datatype, op, &count). */
    public static int fetchAtomicValid(MemorySegment ep, int datatype, int op, MemorySegment countOut) {
        MemorySegment a = atomicOps(ep);
        return fi_ops_atomic.readwritevalid.invoke(fi_ops_atomic.readwritevalid(a), ep, datatype, op, countOut);
    }

    /** fi_compare_atomicvalid(ep, datatype, op, &count). */
    public static int compareAtomicValid(MemorySegment ep, int datatype, int op, MemorySegment countOut) {
        MemorySegment a = atomicOps(ep);
        return fi_ops_atomic.compwritevalid.invoke(fi_ops_atomic.compwritevalid(a), ep, datatype, op, countOut);
    }

    // ---- completion queue --------------------------------------------------------------

    static MemorySegment cqOps(MemorySegment cq) {
        return opsTable(cq, fid_cq.layout(), fid_cq.ops$offset(), fi_ops_cq.layout());
    }

    /** fi_cq_read(cq, buf, count). */
    public static long cqRead(MemorySegment cq, MemorySegment buf, long count) {
        return fi_ops_cq.read.invoke(fi_ops_cq.read(cqOps(cq)), cq, buf, count);
    }

    /** fi_cq_readerr(cq, buf, flags). */
    public static long cqReaderr(MemorySegment cq, MemorySegment errEntry, long flags) {
        return fi_ops_cq.readerr.invoke(fi_ops_cq.readerr(cqOps(cq)), cq, errEntry, flags);
    }

    /** fi_cq_strerror(cq, prov_errno, err_data, buf, len) as a Java string. */
    public static String cqStrerror(MemorySegment cq, int provErrno, MemorySegment errData) {
        MemorySegment s = fi_ops_cq.strerror.invoke(fi_ops_cq.strerror(cqOps(cq)), cq, provErrno, errData,
                MemorySegment.NULL, 0);
        return s.equals(MemorySegment.NULL) ? "provider error " + provErrno : s.reinterpret(Long.MAX_VALUE).getString(0);
    }

    /**
     * Reads the ops-table pointer stored at {@code offset} inside the object {@code obj}
     * (a fid_* struct of layout {@code objLayout}) and returns it sized as {@code opsLayout}.
     */
    static MemorySegment opsTable(MemorySegment obj, MemoryLayout objLayout, long offset, MemoryLayout opsLayout) {
        MemorySegment table = obj.reinterpret(objLayout.byteSize()).get(ADDRESS, offset);
        if (table.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("libfabric object has no ops table at offset " + offset);
        }
        return table.reinterpret(opsLayout.byteSize());
    }

    /** The `size` field every fi_ops_* table starts with: how much of the table the provider filled in. */
    static long opsSize(MemorySegment opsTable) {
        return opsTable.get(JAVA_LONG, 0);
    }
}
