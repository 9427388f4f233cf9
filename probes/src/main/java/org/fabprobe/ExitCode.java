package org.fabprobe;

/** fabprobe's documented exit codes (README, "Exit codes"). */
public final class ExitCode {
    public static final int OK = 0;
    /** An acceptance check failed (results were measured but did not meet the spec). */
    public static final int CHECK_FAILED = 1;
    /** Bad command line: unknown option, malformed size list, ... */
    public static final int USAGE = 2;
    /** The transport named does not exist here (unknown provider or TLS). */
    public static final int UNKNOWN_TRANSPORT = 3;
    /** The request is impossible on this transport (size above max_msg_size, ...). */
    public static final int UNSUPPORTED = 4;
    /** The peer did not answer within --timeout or died. */
    public static final int PEER_TIMEOUT = 5;
    /** The native library reported an error (decoded message printed). */
    public static final int TRANSPORT_ERROR = 6;
    /** A native library or other prerequisite is missing. */
    public static final int MISSING_DEPENDENCY = 7;
    /** The peer refused the session: authentication failed, another protocol version, or busy. */
    public static final int PEER_REFUSED = 8;
    /** An output file (--json, --csv, --plot, --junit) could not be written: disk full, ... */
    public static final int OUTPUT_FAILED = 9;
    /** Interrupted (Ctrl-C). */
    public static final int INTERRUPTED = 130;

    private ExitCode() {}
}
