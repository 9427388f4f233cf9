package org.fabprobe.bindings.ucx;

import java.lang.foreign.MemorySegment;
import org.fabprobe.bindings.ExecutablePage;

/**
 * UCP completion callbacks in fabprobe's own x86-64 machine code. A request's status word is
 * the first {@link #STATUS_BYTES} bytes at its pointer, the space UCX reserves there for the
 * application when the context asks for it (ucp_params.request_size): the request-init
 * callback sets it to {@link #IN_PROGRESS} when UCX first makes the request, the completion
 * callback stores the final status (a 32-bit ucs_status_t) when it completes, and the
 * application sets it back before ucp_request_free, so every request UCX hands out reads "in
 * progress" until its own completion. (Setting it after the posting call instead would lose a
 * completion that UCX reported inside that call.)
 *
 * <p>A timing loop then sees a request complete by reading that word after
 * ucp_worker_progress instead of making one more call, ucp_request_check_status, between a
 * message's arrival and its reply. The callbacks never enter the JVM, so the hot-path
 * downcalls stay critical ones.
 *
 * <p>Where they cannot run (not x86-64, or no executable page), {@link #available} is false
 * and requests are polled with ucp_request_check_status.
 */
public final class UcpCompletion {
    private UcpCompletion() {}

    /** A request's status word until its completion callback ran (UCS_INPROGRESS). */
    public static final int IN_PROGRESS = 1;
    /** The request space (ucp_params.request_size) the status word needs. */
    public static final long STATUS_BYTES = Integer.BYTES;

    /**
     * Both completion callbacks take the request and the status first:
     * ucp_tag_recv_nbx_callback_t(void *request, ucs_status_t status, const ucp_tag_recv_info_t *info, void *user_data)
     * and ucp_send_nbx_callback_t(void *request, ucs_status_t status, void *user_data).
     */
    private static final byte[] COMPLETE = {(byte) 0x89, 0x37, (byte) 0xC3}; // mov dword [rdi], esi; ret
    /** void (*ucp_request_init_callback_t)(void *request) */
    private static final byte[] INIT = {(byte) 0xC7, 0x07, 0x01, 0x00, 0x00, 0x00, (byte) 0xC3}; // mov dword [rdi], 1; ret
    private static final int INIT_OFFSET = 16;

    private static final MemorySegment PAGE = map();

    private static MemorySegment map() {
        String arch = System.getProperty("os.arch");
        if (!arch.equals("amd64") && !arch.equals("x86_64")) return null;
        byte[] code = new byte[INIT_OFFSET + INIT.length];
        System.arraycopy(COMPLETE, 0, code, 0, COMPLETE.length);
        System.arraycopy(INIT, 0, code, INIT_OFFSET, INIT.length);
        try {
            return ExecutablePage.map(code);
        } catch (Throwable t) {
            return null; // no executable page here: requests are polled instead
        }
    }

    /** Whether the callbacks exist in this process. */
    public static boolean available() {
        return PAGE != null;
    }

    /** The completion callback, for receives and sends alike; only when {@link #available}. */
    public static MemorySegment completionCallback() {
        return MemorySegment.ofAddress(PAGE.address());
    }

    /** The request-init callback (a ucp_request_init_callback_t, ucp_params.request_init); only when {@link #available}. */
    public static MemorySegment initCallback() {
        return MemorySegment.ofAddress(PAGE.address() + INIT_OFFSET);
    }
}
