package org.fabprobe.model;

/**
 * Hockney's model t(n) = t0 + n / r_inf fitted over one size range (Santos et al., eqs. 1-2).
 *
 * @param fromBytes      smallest message size in the range
 * @param toBytes        largest message size in the range
 * @param points         sizes used in the fit
 * @param t0Ns           start-up time t0
 * @param t0ErrNs        standard error of t0
 * @param rInfMBs        asymptotic bandwidth r_inf, MB/s (10^6 bytes/s)
 * @param rInfErrMBs     standard error of r_inf
 * @param nHalfBytes     half-performance length n_1/2 = t0 * r_inf
 * @param rmsRelResidual root-mean-square of (measured - fitted) / measured over the range
 */
public record HockneyFit(long fromBytes, long toBytes, int points, double t0Ns, double t0ErrNs,
                         double rInfMBs, double rInfErrMBs, double nHalfBytes, double rmsRelResidual) {
}
