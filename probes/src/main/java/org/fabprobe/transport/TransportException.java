package org.fabprobe.transport;

import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;

/** A transport failed: the message names the library call and its decoded error. */
public class TransportException extends FabprobeException {
    public TransportException(int exitCode, String message) {
        super(exitCode, message);
    }

    public static TransportException error(String message) {
        return new TransportException(ExitCode.TRANSPORT_ERROR, message);
    }

    public static TransportException timeout(String message) {
        return new TransportException(ExitCode.PEER_TIMEOUT, message);
    }
}
