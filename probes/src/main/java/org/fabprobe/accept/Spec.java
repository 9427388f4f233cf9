package org.fabprobe.accept;

import java.nio.file.Path;
import java.util.List;

/**
 * An acceptance spec, parsed and validated ({@link SpecReader}): the system it describes, how
 * to reach the peer (none: this machine), and its checks in the order written.
 *
 * @param peer       a mirror started by hand on the other host (HOST[:PORT]), or null: a local mirror
 * @param secretFile the secret shared with that mirror, or null
 * @param timeout    the longest wait for the peer, as the commands' --timeout takes it, or null (their default)
 * @param cpus       "A,B": measure pinned to CPU A, mirror to B (--cpus), or null: unpinned
 */
public record Spec(Path file, String system, String description, String peer, String secretFile, String timeout,
                   String cpus, List<Check> checks) {}
