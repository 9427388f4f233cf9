package org.fabprobe.report;

import org.fabprobe.model.Summary;

/**
 * One message size of a ping-pong sweep.
 *
 * @param sizeBytes     message size s
 * @param halfRttNs     half round-trip times, one sample per repetition
 * @param bandwidthMBs  sizeBytes / median half-RTT, MB/s (10^6 bytes/s)
 * @param wallMs        wall time this size took, warm-up included
 */
public record SizePoint(long sizeBytes, Summary halfRttNs, double bandwidthMBs, double wallMs) {
}
