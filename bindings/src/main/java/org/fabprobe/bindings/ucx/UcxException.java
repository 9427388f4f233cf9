package org.fabprobe.bindings.ucx;

/** A UCX call returned an error status; the message carries ucs_status_string. */
public final class UcxException extends RuntimeException {
    private final byte status;

    public UcxException(String call, byte status) {
        super(call + " failed: " + Ucs.string(status) + " (" + status + ")");
        this.status = status;
    }

    public byte status() {
        return status;
    }
}
