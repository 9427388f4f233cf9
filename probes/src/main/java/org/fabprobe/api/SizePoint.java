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
 * @param remeasured    how many times it was measured again because it was disturbed
 * @param disturbed     whether its last measurement was disturbed all the same
 */
public record SizePoint(long sizeBytes, Summary halfRttNs, double bandwidthMBs, double wallMs, double medianCi95Ns,
                        int remeasured, boolean disturbed) {
    /** A point measured once, undisturbed. */
    public SizePoint(long sizeBytes, Summary halfRttNs, double bandwidthMBs, double wallMs, double medianCi95Ns) {
        this(sizeBytes, halfRttNs, bandwidthMBs, wallMs, medianCi95Ns, 0, false);
    }

    /** A point without the median's interval (NaN). */
    public SizePoint(long sizeBytes, Summary halfRttNs, double bandwidthMBs, double wallMs) {
        this(sizeBytes, halfRttNs, bandwidthMBs, wallMs, Double.NaN);
    }
}
