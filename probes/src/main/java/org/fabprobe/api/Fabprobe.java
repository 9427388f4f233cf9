package org.fabprobe.api;

import org.fabprobe.Steps;
import org.fabprobe.result.BandwidthDocument;
import org.fabprobe.result.LogGPDocument;
import org.fabprobe.result.PLogPDocument;
import org.fabprobe.result.PingPongDocument;
import org.fabprobe.result.RegisterDocument;
import org.fabprobe.result.SignatureDocument;

/**
 * fabprobe as a Java library: a request in, a typed document out (the same document that
 * {@code --json} writes). A measurement starts its mirror as the command line does: a child
 * JVM on this host, a {@code fabprobe mirror} named by the request's peer, or the launcher's ranks.
 *
 * <pre>{@code
 * PingPongDocument doc = Fabprobe.pingPong(PingPongRequest.of("ofi:shm").sizes(8, 4096).repetitions(1000));
 * for (PingPongDocument.Size s : doc.sizes()) System.out.println(s.sizeBytes() + " B: " + s.halfRttNs().median() + " ns");
 * }</pre>
 */
public final class Fabprobe {
    private Fabprobe() {}

    /** A ping-pong sweep: half round-trip times per size, the Hockney fit per size range, and the flags. */
    public static PingPongDocument pingPong(PingPongRequest request) {
        return LocalRanks.orHere(request.session(), request::commandLine, Steps.NONE, PingPongDocument.class,
                () -> PingPongAnalysis.run(request, Steps.NONE).document());
    }

    /** A streaming-bandwidth sweep: the time of each window of messages (or one-sided operations) per size, bandwidth and message rate. */
    public static BandwidthDocument bandwidth(BandwidthRequest request) {
        return LocalRanks.orHere(request.session(), request::commandLine, Steps.NONE, BandwidthDocument.class,
                () -> BandwidthAnalysis.run(request, Steps.NONE).document());
    }

    /** Memory registration cost per buffer size (first registration of fresh pages, re-registration), in this process alone. */
    public static RegisterDocument register(RegisterRequest request) {
        return RegisterAnalysis.run(request);
    }

    /** Fast parameterized LogP (Kielmann et al.): g(0) by saturation, o_s(m), o_r(m), g(m) per size, L, and LogGP per size range. */
    public static PLogPDocument plogp(PLogPRequest request) {
        return plogp(request, Steps.NONE);
    }

    /** {@link #plogp(PLogPRequest)}, telling {@code steps} before each size (over MPI outside a launcher: the ranks' own line). */
    public static PLogPDocument plogp(PLogPRequest request, Steps steps) {
        return LocalRanks.orHere(request.session(), request::commandLine, steps, PLogPDocument.class,
                () -> MethodAnalysis.plogp(request, steps).document());
    }

    /** LogGP's L, o, g, G per size range from PRTT(n,d,s) round trips (Hoefler et al.), protocol changes located. */
    public static LogGPDocument logGP(LogGPRequest request) {
        return logGP(request, Steps.NONE);
    }

    /** {@link #logGP(LogGPRequest)}, telling {@code steps} before each size (over MPI outside a launcher: the ranks' own line). */
    public static LogGPDocument logGP(LogGPRequest request, Steps steps) {
        return LocalRanks.orHere(request.session(), request::commandLine, steps, LogGPDocument.class,
                () -> MethodAnalysis.logGP(request, steps).document());
    }

    /** Culler's LogP signature: cost per request against burst length M for four delays, o_s, o_r, g, L read off, bulk o_s(n), g(n). */
    public static SignatureDocument signature(SignatureRequest request) {
        return LocalRanks.orHere(request.session(), request::commandLine, Steps.NONE, SignatureDocument.class,
                () -> MethodAnalysis.signature(request, Steps.NONE).document());
    }

    /** This fabprobe's version, from its jar's manifest ("dev" from a class folder). */
    public static String version() {
        String v = Fabprobe.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
