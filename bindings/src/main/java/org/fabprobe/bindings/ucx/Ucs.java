package org.fabprobe.bindings.ucx;

import org.fabprobe.bindings.ucx.gen.Ucx;

/**
 * ucs_status_t and the ucs_status_ptr_t macros, re-created in Java.
 *
 * <p>ucs_status_t is a packed enum: {@code sizeof(ucs_status_t) == 1} (checked with gcc on
 * UCX 1.13 headers), so jextract returns it as a Java {@code byte}, sign included:
 * UCS_OK = 0, UCS_INPROGRESS = 1, errors negative down to UCS_ERR_LAST = -100. This class
 * is the one place that widens it; everything else passes the byte along.
 */
public final class Ucs {
    public static final byte OK = (byte) Ucx.UCS_OK();
    public static final byte INPROGRESS = (byte) Ucx.UCS_INPROGRESS();
    private static final long ERR_LAST = Ucx.UCS_ERR_LAST(); // -100, sign-extended as C does

    private Ucs() {}

    /** UCS_PTR_IS_ERR(ptr): the pointer encodes an error status. */
    public static boolean ptrIsErr(long ptr) {
        return Long.compareUnsigned(ptr, ERR_LAST) >= 0;
    }

    /** UCS_PTR_IS_PTR(ptr): a real request pointer (neither NULL/UCS_OK nor an error). */
    public static boolean ptrIsPtr(long ptr) {
        return Long.compareUnsigned(ptr - 1, ERR_LAST - 1) < 0;
    }

    /** UCS_PTR_STATUS(ptr). */
    public static byte ptrStatus(long ptr) {
        return ptrIsPtr(ptr) ? INPROGRESS : (byte) ptr;
    }

    /** ucs_status_string(status). */
    public static String string(byte status) {
        return Ucx.ucs_status_string(status).reinterpret(256).getString(0);
    }

    /** Throws {@link UcxException} unless {@code status} is UCS_OK. */
    public static void check(byte status, String call) {
        if (status != OK) throw new UcxException(call, status);
    }

}
