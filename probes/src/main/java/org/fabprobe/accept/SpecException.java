package org.fabprobe.accept;

import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;

/** A spec refused before anything runs: one line, file:line:column first, exit 2. */
public final class SpecException extends FabprobeException {
    public SpecException(String where, String message) {
        super(ExitCode.USAGE, where + ": " + message);
    }
}
