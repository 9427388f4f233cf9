package org.fabprobe.launch;

import java.nio.file.Path;

/**
 * How measure finds its mirror, as the user said it.
 *
 * @param peer          HOST[:PORT] of a mirror started by hand, or null: a local child mirror,
 *                      or rank 1 under a launcher
 * @param secretFile    --secret-file, or null (then FABPROBE_SECRET, if set)
 * @param insecure      accept a mirror without a secret
 * @param sourceAddress --src-addr: the address network transports bind to, or null: the
 *                      interface the control connection to the peer uses
 */
public record PeerOptions(String peer, Path secretFile, boolean insecure, String sourceAddress) {
    public static final PeerOptions LOCAL = new PeerOptions(null, null, false, null);
}
