package org.fabprobe.api;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.fabprobe.Steps;
import org.fabprobe.clock.Clock;
import org.fabprobe.launch.Session;
import org.fabprobe.launch.SessionSpec;
import org.fabprobe.model.Drift;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.HockneyFit;
import org.fabprobe.model.HockneyFitter;
import org.fabprobe.model.MedianCi;
import org.fabprobe.model.Robust;
import org.fabprobe.model.Segments;
import org.fabprobe.model.Statistics;
import org.fabprobe.model.Summary;
import org.fabprobe.pattern.Await;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.result.HockneyRange;
import org.fabprobe.result.PingPongDocument;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.Transport;

/** A ping-pong sweep from request to typed result: the session, the statistics per size, the Hockney fit and the flags. */
public final class PingPongAnalysis {
    private PingPongAnalysis() {}

    /** Runs {@code request}, telling {@code steps} before each size, and analyses what it measured. */
    public static PingPongResult run(PingPongRequest request, Steps steps) {
        if (request.passiveTarget()) return TargetProgressAnalysis.run(request, steps);
        if (request.op().oneSided()) return OneSidedAnalysis.run(request, steps);
        long[] sizes = request.sizes();
        PingPong pingPong = new PingPong(sizes, request.warmup(), request.repetitions(), request.calls());
        var spec = request.session().spec(sizes[sizes.length - 1], 4, pingPong.schedule());
        return sweep(request, sizes, spec, pingPong.calls().label(), PingPong.JIT_WARMUP, (t, await, control, facts) -> {
            // the session's facts arrive before the timing: on a shared CPU every attempt is disturbed alike
            boolean sharedCpu = facts != null && facts.sharedCpu() >= 0;
            return pingPong.measure(t, await, control, steps, sharedCpu ? 0 : PingPong.MAX_REMEASURES);
        });
    }

    /** The measure half of a sweep, given the session's facts (null if they have not come). */
    interface SweepHalf {
        PingPong.Samples measure(Transport t, Await await, Control control, Session.Facts facts);
    }

    /**
     * One sweep of {@code sizes} through the request's session (two-sided or one-sided), timed,
     * with the run's header and settings, analysed.
     */
    static PingPongResult sweep(PingPongRequest request, long[] sizes, SessionSpec spec, String calls, int jitRounds,
                                SweepHalf half) {
        SessionSettings session = request.session();
        String startedAt = Instant.now().toString();
        long start = System.nanoTime();
        Map<String, String> transportFacts = new LinkedHashMap<>();
        Session.Facts[] facts = new Session.Facts[1];
        PingPong.Samples samples = session.run(spec, (t, await, control) -> {
            transportFacts.putAll(t.facts());
            return half.measure(t, await, control, facts[0]);
        }, f -> facts[0] = f);
        double wallSeconds = (System.nanoTime() - start) / 1e9;
        RunFacts<PingPongDocument.Settings> run = session.runFacts("pingpong", facts[0], transportFacts,
                peer -> new PingPongDocument.Settings(SizeList.asList(sizes), request.warmup(), request.repetitions(),
                        calls, request.op().label(), jitRounds, peer), startedAt);
        return analyze(run, sizes, samples, wallSeconds);
    }

    /** The statistics per size, the Hockney fit per size range and the flags of one sweep's samples. */
    static PingPongResult analyze(RunFacts<PingPongDocument.Settings> run, long[] sizes, PingPong.Samples samples, double wallSeconds) {
        List<PingPongDocument.Size> points = new ArrayList<>();
        double[] medians = new double[sizes.length];
        double resolutionNs = Clock.facts().resolutionNs();
        for (int i = 0; i < sizes.length; i++) {
            double[] halfRtt = samples.halfRttNs()[i];
            // a half round trip is half a difference of two clock reads: its grid is half the clock's quantum
            Summary s = Statistics.summarize(halfRtt, halfRtt.length, resolutionNs / 2);
            medians[i] = s.median();
            points.add(new PingPongDocument.Size(sizes[i], s, MedianCi.of(halfRtt, halfRtt.length, resolutionNs).ci95(),
                    sizes[i] / s.median() * 1e3, samples.wallMs()[i], samples.remeasured()[i], samples.disturbed()[i],
                    samples.gapMs()[i], samples.gapStalled()[i] || PingPong.stalled(halfRtt)));
        }
        PingPongDocument document = document(run, points, HockneyFitter.fit(sizes, medians), wallSeconds,
                samples.sentinelNs() == null ? null : driftFlag(sizes, samples.sentinelNs(), resolutionNs),
                disturbedFlag(sizes, samples.disturbed(), samples.cpuWaitMs(), samples.remeasured(), samples.halfRttNs(),
                        samples.gapMs(), samples.gapStalled()));
        return new PingPongResult(document, run.sharedCpu());
    }

    /**
     * The document of a sweep: its sizes, the fit per size range, and the flags (a shared CPU,
     * sizes left out of the fit, drift, disturbed sizes, poor fits; null: none).
     */
    public static PingPongDocument document(RunFacts<PingPongDocument.Settings> run, List<PingPongDocument.Size> sizes,
                                            List<HockneyFit> fits, double wallSeconds, String driftFlag, String disturbedFlag) {
        return new PingPongDocument(run.header(PingPongDocument.SCHEMA, wallSeconds), sizes,
                fits.stream().map(HockneyRange::of).toList(), flags(run, sizes, fits, driftFlag, disturbedFlag));
    }

    /** Ranges the line fits poorly, and sizes left out of the fit: never printed as if fine. */
    private static List<String> flags(RunFacts<?> run, List<PingPongDocument.Size> sizes, List<HockneyFit> fits,
                                      String driftFlag, String disturbedFlag) {
        List<String> flags = new ArrayList<>();
        if (run.sharedCpuFlag() != null) flags.add(run.sharedCpuFlag());
        String leftOut = HockneyFitter.leftOutNote(sizes.stream().mapToLong(PingPongDocument.Size::sizeBytes).toArray(),
                sizes.stream().mapToDouble(p -> p.halfRttNs().median()).toArray(), fits);
        if (leftOut != null) flags.add(leftOut);
        if (driftFlag != null) flags.add(driftFlag);
        if (disturbedFlag != null) flags.add(disturbedFlag);
        for (HockneyFit f : fits) {
            if (f.rmsRelResidual() > Segments.POOR_FIT) {
                flags.add(String.format(Locale.ROOT, "POOR FIT %s .. %s: t0 + n / r_inf misses by %.1f %% rms (a step or"
                        + " curve inside the range, or noise)", human(f.fromBytes()), human(f.toBytes()),
                        100 * f.rmsRelResidual()));
            }
        }
        return flags;
    }

    /**
     * The sizes whose sentinel before or after (0 B round trips, see PingPong) left the run's
     * reference, the median of all sentinels: a flag naming them, or null.
     *
     * @param sentinelNs sizes.length + 1 batches of 0 B half round trips, size i between i and i + 1
     */
    public static String driftFlag(long[] sizes, double[][] sentinelNs, double resolutionNs) {
        int n = sentinelNs.length;
        double[] medians = new double[n], cis = new double[n];
        for (int i = 0; i < n; i++) {
            Estimate e = MedianCi.of(sentinelNs[i], sentinelNs[i].length, resolutionNs);
            medians[i] = e.value();
            cis[i] = e.ci95();
        }
        double reference = Robust.median(medians), referenceCi = Robust.median(cis);
        List<String> drifted = new ArrayList<>();
        double furthest = reference;
        for (int i = 0; i < sizes.length && i + 1 < n; i++) {
            for (int s : new int[] {i, i + 1}) {
                if (Drift.moved(medians[s], cis[s], reference, referenceCi)) {
                    drifted.add(human(sizes[i]));
                    if (Math.abs(medians[s] - reference) > Math.abs(furthest - reference)) furthest = medians[s];
                    break;
                }
            }
        }
        if (drifted.isEmpty()) return null;
        return String.format(Locale.ROOT, "DRIFT %s: the 0 B half round trip measured beside %s read up to %.3f µs"
                + " instead of the run's %.3f µs (the host changed speed: other work, CPU frequency, or the hypervisor's"
                + " placement of the CPUs); their times and the ranges around them may be artefacts",
                String.join(", ", drifted), drifted.size() == 1 ? "it" : "them", furthest / 1e3, reference / 1e3);
    }

    /**
     * The sizes whose last measurement was disturbed: a timing thread waited for a CPU long
     * enough to move their median (or the emulator missed a deadline), or one round trip
     * stalled ({@link PingPong#stalled}), or its untimed rounds did ({@link PingPong#gapStalled}).
     * A flag naming them, the wait and the stall, or null.
     */
    public static String disturbedFlag(long[] sizes, boolean[] disturbed, double[] cpuWaitMs, int[] remeasured,
                                       double[][] halfRttNs, double[] gapMs, boolean[] gapStalled) {
        List<String> named = new ArrayList<>(), stalls = new ArrayList<>(), gaps = new ArrayList<>();
        double waitMs = 0;
        int attempts = 0;
        for (int i = 0; i < sizes.length; i++) {
            if (!disturbed[i]) continue;
            named.add(human(sizes[i]));
            waitMs += Math.max(cpuWaitMs[i], 0);
            attempts = Math.max(attempts, remeasured[i] + 1);
            if (PingPong.stalled(halfRttNs[i])) {
                stalls.add(String.format(Locale.ROOT, "%s %.0f ms", human(sizes[i]),
                        2 * Arrays.stream(halfRttNs[i]).max().orElse(0) / 1e6));
            }
            if (gapStalled[i]) gaps.add(String.format(Locale.ROOT, "%s %.0f ms", human(sizes[i]), gapMs[i]));
        }
        if (named.isEmpty()) return null;
        String tries = attempts > 1 ? " the last of " + attempts + " times" : "";
        List<String> causes = new ArrayList<>();
        if (stalls.size() + gaps.size() < named.size() || waitMs >= 1) {
            causes.add(String.format(Locale.ROOT, "the timing threads waited %.0f ms for a CPU (other work on these CPUs,"
                    + " or measure and mirror sharing one)", waitMs));
        }
        if (!stalls.isEmpty()) {
            causes.add("one round trip stalled (" + String.join(", ", stalls)
                    + ": a link outage, a retransmission timeout or a stopped process)");
        }
        if (!gaps.isEmpty()) {
            causes.add("STALL outside the timed round trips (" + String.join(", ", gaps) + " of wall time that no round trip"
                    + " nor wait for a CPU accounts for: a link outage or a retransmission timeout in the untimed rounds)");
        }
        return String.format(Locale.ROOT, "DISTURBED %s: %s while %s measured%s; %s times may be inflated",
                String.join(", ", named), String.join("; ", causes), named.size() == 1 ? "it was" : "they were", tries,
                named.size() == 1 ? "its" : "their");
    }

    private static String human(long bytes) {
        return SizeList.human(bytes);
    }
}
