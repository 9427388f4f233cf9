package org.fabprobe.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.fabprobe.launch.PeerOptions;
import org.fabprobe.launch.Session;
import org.fabprobe.launch.SessionSpec;
import org.fabprobe.pattern.Schedule;
import org.fabprobe.result.PeerSettings;

/**
 * Where and how a two-peer measurement runs: the transport, the mirror (a local child unless
 * {@code peer} names a host running {@code fabprobe mirror}), its secret, the timeout, CPUs.
 *
 * @param transport     ofi:PROVIDER, ucx:TLS, mpi:IMPL[/SELECTION] or sim:PARAMETERS
 * @param peer          HOST[:PORT] of a mirror, or null: a local child mirror (or the launcher's ranks)
 * @param secretFile    the secret shared with that mirror, or null: $FABPROBE_SECRET
 * @param insecure      accept a mirror without a secret
 * @param timeout       longest wait for the peer
 * @param cpus          measure's and mirror's CPU, or null: unpinned
 * @param sourceAddress address network transports bind to, or null: the control connection's
 */
public record SessionSettings(String transport, String peer, Path secretFile, boolean insecure, Duration timeout, int[] cpus,
                              String sourceAddress) {
    /** Timed repetitions per size at most: every sample is kept. */
    public static final int MAX_REPETITIONS = 10_000_000;

    public SessionSettings {
        if (cpus != null && cpus.length != 2) throw new IllegalArgumentException("--cpus takes two CPUs: measure,mirror");
    }

    /** Refuses repetition counts that are impossible or would not fit in memory (every sample is kept). */
    public static void checkCounts(int repetitions, int warmup) {
        if (repetitions < 1 || repetitions > MAX_REPETITIONS) {
            throw new IllegalArgumentException("--reps must be 1.." + MAX_REPETITIONS + " (every sample is kept)");
        }
        if (warmup < 0) throw new IllegalArgumentException("--warmup must be >= 0");
    }

    /** A local mirror over {@code transport}, 5 s timeout, unpinned. */
    public static SessionSettings local(String transport) {
        return new SessionSettings(transport, null, null, false, Duration.ofSeconds(5), null, null);
    }

    /**
     * {@code command} with these settings' options (transport, timeout, CPUs; a peer has no place
     * among local MPI ranks) and then {@code options}: a request as {@link LocalRanks} runs it.
     */
    java.util.List<String> commandLine(String command, String... options) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(command, "-t", transport, "--timeout",
                timeout.toMillis() + "ms"));
        if (cpus != null) args.addAll(java.util.List.of("--cpus", cpus[0] + "," + cpus[1]));
        args.addAll(java.util.List.of(options));
        return args;
    }

    /** What the mirror is told to run. */
    public SessionSpec spec(long largestMessage, int depth, Schedule schedule) {
        return new SessionSpec(transport, largestMessage, depth, timeout, cpus == null ? -1 : cpus[1], schedule);
    }

    /** Runs {@code measureHalf} against a mirror met as these settings say; {@code facts} hears what the session found. */
    public <R> R run(SessionSpec spec, Session.MeasureHalf<R> measureHalf, Consumer<Session.Facts> facts) {
        PeerOptions peerOptions = new PeerOptions(peer, secretFile, insecure, sourceAddress);
        return Session.run(peerOptions, spec, cpus == null ? -1 : cpus[0], measureHalf, facts);
    }

    /** The run's facts: the command's own settings, made with these (the session's part), both hosts and the clock. */
    public <S> RunFacts<S> runFacts(String command, Session.Facts facts, Map<String, String> transportFacts,
                                    Function<PeerSettings, S> settings, String startedAt) {
        var peer = new PeerSettings(timeout.toMillis(), cpus == null ? "unpinned" : cpus[0] + "," + cpus[1],
                facts == null || facts.sourceAddress().isEmpty() ? "(transport default)" : facts.sourceAddress(),
                facts == null ? "?" : facts.meeting());
        Map<String, String> transportFactsNow = facts == null ? transportFacts : new LinkedHashMap<>(facts.transport());
        return RunFacts.of(command, transport, transportFactsNow, settings.apply(peer), facts == null ? Map.of() : facts.peerHost(),
                startedAt, facts == null ? -1 : facts.sharedCpu());
    }
}
