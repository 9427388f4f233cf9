package org.fabprobe.result;

/**
 * The settings of a two-peer session, part of every such command's settings: the timeout, the
 * CPUs ("unpinned" or "MEASURE,MIRROR"), the address bound and how measure and mirror met.
 */
public record PeerSettings(long timeoutMs, String cpus, String sourceAddress, String meeting) {}
