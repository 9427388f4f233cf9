package org.fabprobe.api;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.fabprobe.Steps;
import org.fabprobe.launch.Session;
import org.fabprobe.model.Robust;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.pattern.TargetProgress;
import org.fabprobe.result.PingPongDocument;

/**
 * {@code pingpong --op OP --target passive}: who must progress a one-sided op, measured
 * ({@link TargetProgress}). The sizes' statistics are the active-target run's operations (one
 * operation each, a write with its completion at the target); per size the document adds
 * whether the op completes with a passive target and what it costs the target's CPU.
 */
final class TargetProgressAnalysis {
    private TargetProgressAnalysis() {}

    static PingPongResult run(PingPongRequest request, Steps steps) {
        long[] sizes = OneSidedAnalysis.sizes(request);
        TargetProgress pattern = new TargetProgress(sizes, request.warmup(), request.repetitions(), request.op());
        SessionSettings session = request.session();
        var spec = session.spec(Math.max(sizes[sizes.length - 1], OneSidedAnalysis.MIN_BUFFER_BYTES), 4, pattern.schedule());
        String startedAt = Instant.now().toString();
        long start = System.nanoTime();
        Map<String, String> transportFacts = new LinkedHashMap<>();
        Session.Facts[] facts = new Session.Facts[1];
        TargetProgress.Size[] measured = session.run(spec, (t, await, control) -> {
            transportFacts.putAll(t.facts());
            boolean sharedCpu = facts[0] != null && facts[0].sharedCpu() >= 0;
            return pattern.measure(t, await, control, steps, sharedCpu ? 0 : PingPong.MAX_REMEASURES);
        }, f -> facts[0] = f);
        double wallSeconds = (System.nanoTime() - start) / 1e9;
        RunFacts<PingPongDocument.Settings> run = session.runFacts("pingpong", facts[0], transportFacts,
                peer -> new PingPongDocument.Settings(SizeList.asList(sizes), request.warmup(), request.repetitions(),
                        PingPong.Calls.NONBLOCKING.label(), request.op().label(), 0, peer), startedAt);
        int n = sizes.length;
        double[][] active = new double[n][];
        double[] wallMs = new double[n], cpuWaitMs = new double[n], gapMs = new double[n];
        boolean[] disturbed = new boolean[n], gapStalled = new boolean[n];
        int[] remeasured = new int[n];
        List<PingPongDocument.TargetProgress> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            TargetProgress.Size s = measured[i];
            active[i] = s.activeNs();
            wallMs[i] = s.activeWallMs();
            cpuWaitMs[i] = s.cpuWaitMs();
            disturbed[i] = s.disturbed();
            remeasured[i] = s.remeasured();
        }
        PingPong.Samples samples = new PingPong.Samples(active, wallMs, null, cpuWaitMs, disturbed, remeasured, gapMs,
                gapStalled);
        PingPongResult result = PingPongAnalysis.analyze(run, sizes, samples, wallSeconds);
        // the active run's median as the sizes' statistics give it, so that table and JSON agree
        for (int i = 0; i < n; i++) rows.add(row(measured[i], result.document().sizes().get(i).halfRttNs().median()));
        return new PingPongResult(result.document().withTargetProgress(rows), result.sharedCpu());
    }

    /** One size's verdict: native where the op completed without the target, else emulated at the measured cost. */
    static PingPongDocument.TargetProgress row(TargetProgress.Size s, double activeMedianNs) {
        boolean completes = !s.passiveStalled() && s.passiveSeen();
        // an estimate below 0 is the idle calls' noise: no CPU measurable
        Double cpu = Double.isFinite(s.targetCpuNsPerOp()) ? Math.max(0, s.targetCpuNsPerOp()) : null;
        String verdict = completes ? "native: no target CPU"
                : String.format(Locale.ROOT, "emulated: needs the target to progress, %s µs target CPU per op",
                        cpu == null ? "?" : String.format(Locale.ROOT, "%.2f", cpu / 1e3));
        return new PingPongDocument.TargetProgress(s.sizeBytes(),
                completes ? PingPongDocument.TargetProgress.COMPLETES : PingPongDocument.TargetProgress.DOES_NOT_COMPLETE,
                s.passiveOps(), s.passiveNs().length == 0 ? null : Robust.median(s.passiveNs()), s.passiveSeen(),
                s.activeOps(), activeMedianNs, s.pacedCalls(), s.idleCallNs(), cpu, s.disturbed(),
                verdict);
    }
}
