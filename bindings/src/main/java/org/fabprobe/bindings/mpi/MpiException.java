package org.fabprobe.bindings.mpi;

/** A failed MPI call, with MPI_Error_string's text. */
public final class MpiException extends RuntimeException {
    private final int code;

    public MpiException(String call, int code, String text) {
        super(call + " failed: " + text + " (MPI error " + code + ")");
        this.code = code;
    }

    public int code() {
        return code;
    }
}
