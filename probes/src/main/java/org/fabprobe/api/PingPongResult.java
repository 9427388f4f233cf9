package org.fabprobe.api;

import java.util.List;
import org.fabprobe.model.HockneyFit;
import org.fabprobe.result.PingPongDocument;

/**
 * A ping-pong sweep: per-size half-RTT statistics, the Hockney fit per size range, and the flags
 * naming sizes measured while the host ran at another speed, or while a timing thread waited
 * for a CPU (null: none).
 */
public record PingPongResult(RunFacts<PingPongDocument.Settings> run, List<SizePoint> points, List<HockneyFit> fits,
                             double wallSeconds, String driftFlag, String disturbedFlag) {
    public PingPongResult(RunFacts<PingPongDocument.Settings> run, List<SizePoint> points, List<HockneyFit> fits, double wallSeconds) {
        this(run, points, fits, wallSeconds, null, null);
    }

    /** The result as its JSON document (schema fabprobe.pingpong/2). */
    public PingPongDocument document() {
        return PingPongAnalysis.document(this);
    }
}
