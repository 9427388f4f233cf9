package org.fabprobe;

/** An error that ends the run with a one-line message and a distinct exit code. */
public class FabprobeException extends RuntimeException {
    private final int exitCode;

    public FabprobeException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public FabprobeException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
