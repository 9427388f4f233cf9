package org.fabprobe.report;

import java.util.List;
import org.fabprobe.model.HockneyFit;

/** A ping-pong sweep: per-size half-RTT statistics and the Hockney fit per size range. */
public record PingPongResult(RunFacts run, List<SizePoint> points, List<HockneyFit> fits,
                             double wallSeconds) {
}
