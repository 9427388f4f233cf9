package org.fabprobe.api;

import org.fabprobe.model.Summary;

/**
 * One message size of a ping-pong sweep.
 *
 * @param sizeBytes     message size s
 * @param halfRttNs     half round-trip times, one sample per repetition
 * @param bandwidthMBs  sizeBytes / median half-RTT, MB/s (10^6 bytes/s)
 * @param wallMs        wall time this size took, warm-up included
 * @param medianCi95Ns  distribution-free 95 % interval of the median half-RTT, half-width (MedianCi)
 */
public record SizePoint(long sizeBytes, Summary halfRttNs, double bandwidthMBs, double wallMs, double medianCi95Ns) {
    /** A point without the median's interval (NaN). */
    public SizePoint(long sizeBytes, Summary halfRttNs, double bandwidthMBs, double wallMs) {
        this(sizeBytes, halfRttNs, bandwidthMBs, wallMs, Double.NaN);
    }
}
