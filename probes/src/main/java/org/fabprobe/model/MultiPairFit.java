package org.fabprobe.model;

/**
 * A least-squares fit of {@link MultiPairModel} to measured T_b(x): each parameter with its
 * standard error (NaN where the data do not determine it).
 *
 * @param chunkResolved  false when the best C lies at the edge of the fitted sizes: then it is
 *                       only a bound (below the smallest or above the largest size), not a value
 * @param rmsRelResidual root mean square of (model - measured) / measured over the points
 */
public record MultiPairFit(long fromBytes, long toBytes, int points, double chunkBytes, double chunkErrBytes,
                           double rawBytesPerNs, double rawErrBytesPerNs, double t1Ns, double t1ErrNs,
                           boolean chunkResolved, double rmsRelResidual) {

    public MultiPairModel model() {
        return new MultiPairModel(chunkBytes, rawBytesPerNs, t1Ns);
    }

    /** B_r in MB/s (10^6 B/s). */
    public double rawMBs() {
        return rawBytesPerNs * 1e3;
    }

    public double rawErrMBs() {
        return rawErrBytesPerNs * 1e3;
    }

    /** True when every parameter and its error is a finite number. */
    public boolean finite() {
        for (double d : new double[] {chunkBytes, chunkErrBytes, rawBytesPerNs, rawErrBytesPerNs, t1Ns, t1ErrNs}) {
            if (!Double.isFinite(d)) return false;
        }
        return true;
    }
}
