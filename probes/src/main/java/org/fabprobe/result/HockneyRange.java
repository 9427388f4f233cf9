package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.fabprobe.model.HockneyFit;

/**
 * Hockney's t(n) = t0 + n / r_inf over one size range. r_inf is null for a flat range (infinite),
 * with n_half_bytes and r_inf_err_mb_s null too. aggregate_r_inf_mb_s: collectives only.
 */
@JsonInclude(JsonInclude.Include.NON_NULL) // aggregate_r_inf_mb_s: collectives only
public record HockneyRange(long fromBytes, long toBytes, int points, double t0Ns, double t0ErrNs, double rInfMbS,
                           double rInfErrMbS, double nHalfBytes,
                           @JsonProperty("aggregate_r_inf_mb_s") Double aggregateRInfMbS,
                           double rmsRelResidual) {
    public static HockneyRange of(HockneyFit f) {
        return of(f, null);
    }

    public static HockneyRange of(HockneyFit f, Double aggregateRInfMbS) {
        return new HockneyRange(f.fromBytes(), f.toBytes(), f.points(), f.t0Ns(), f.t0ErrNs(), f.rInfMBs(),
                f.rInfErrMBs(), f.nHalfBytes(), aggregateRInfMbS, f.rmsRelResidual());
    }
}
