package org.fabprobe.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.api.Durations;
import org.fabprobe.api.RunFacts;
import org.fabprobe.api.SizeList;
import org.fabprobe.bindings.mpi.Mpi;
import org.fabprobe.launch.Group;
import org.fabprobe.launch.HostFacts;
import org.fabprobe.launch.Launcher;
import org.fabprobe.launch.LocalLauncher;
import org.fabprobe.launch.MpiGroup;
import org.fabprobe.method.CpuSharing;
import org.fabprobe.method.MatrixMethod;
import org.fabprobe.method.MatrixReduction;
import org.fabprobe.method.RoundRobin;
import org.fabprobe.report.MatrixReport;
import org.fabprobe.result.MatrixDocument;
import org.fabprobe.result.ResultJson;
import org.fabprobe.transport.Transport;
import org.fabprobe.transport.TransportName;
import org.fabprobe.transport.TransportOptions;
import org.fabprobe.transport.Transports;
import org.fabprobe.transport.mpi.MpiSelection;
import org.fabprobe.transport.mpi.MpiTransport;
import org.fabprobe.transport.mpi.MpiWorld;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `fabprobe matrix`: every pair of the launcher's n ranks, in n - 1 rounds of disjoint pairs
 * ({@link MatrixMethod}); the matrix, per rank and per host figures, the outliers named, and
 * the cost of 1 000 and 10 000 ranks. In local mode it starts the MPI's launcher with
 * {@code --ranks} ranks running this same measurement. {@link #measure} is the same from Java.
 */
@Command(name = "matrix", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"All pairs of the launcher's ranks (JSC LinkTest's scheme): round-robin rounds of disjoint pairs,",
                "per pair the 8 B half round trip and the bandwidth at a large size; per rank and per host; outliers",
                "beyond k MADs from the median named; heatmap with --plot; the cost of 1 000 and 10 000 ranks."})
public final class MatrixCommand implements Callable<Integer> {
    @Option(names = {"-t", "--transport"}, defaultValue = "ofi:shm",
            description = "Any transport: ofi:PROVIDER, ucx:TLS, mpi:IMPL/SELECTION, sim:... (with link(A,B): and rank(R): sets). Default: ${DEFAULT-VALUE}")
    String transport;

    @Option(names = "--mode", defaultValue = "serial",
            description = "serial: one pair at a time (the links alone); parallel: every pair of a round at once (the fabric under load). Default: ${DEFAULT-VALUE}")
    String mode;

    @Option(names = "--ranks", paramLabel = "N",
            description = "Local mode only: start the MPI's launcher with N ranks on this host (oversubscribed beyond its CPUs). Default: 4")
    Integer ranks;

    @Option(names = "--latency-size", defaultValue = "8", description = "Ping-pong size of the latency. Default: ${DEFAULT-VALUE}")
    String latencySize;

    @Option(names = "--bandwidth-size", defaultValue = "1M", description = "Ping-pong size of the bandwidth. Default: ${DEFAULT-VALUE}")
    String bandwidthSize;

    @Option(names = {"-n", "--reps"}, defaultValue = "200", description = "Timed round trips at the latency size, per pair. Default: ${DEFAULT-VALUE}")
    int reps;

    @Option(names = "--bandwidth-reps", defaultValue = "20", description = "Timed round trips at the bandwidth size, per pair. Default: ${DEFAULT-VALUE}")
    int bandwidthReps;

    @Option(names = "--warmup", defaultValue = "50", description = "Untimed round trips before the latency rounds of each pair. Default: ${DEFAULT-VALUE}")
    int warmup;

    @Option(names = "--bandwidth-warmup", defaultValue = "3", description = "Untimed round trips before the bandwidth rounds. Default: ${DEFAULT-VALUE}")
    int bandwidthWarmup;

    @Option(names = "--jit-warmup", defaultValue = "4000",
            description = "Untimed round trips of each rank's first pair (the JIT compiles the loop). Default: ${DEFAULT-VALUE}")
    int jitWarmup;

    @Option(names = "--method", defaultValue = "pingpong",
            description = "pingpong: per pair the latency and bandwidth ping-pongs; plogp: also Kielmann's pLogP method"
                    + " over --plogp-sizes, and the LogGP set of the first size range. Default: ${DEFAULT-VALUE}")
    String method;

    @Option(names = "--plogp-sizes", defaultValue = "0..16K",
            description = "With --method plogp: the sizes of every pair's pLogP run (no adaptive growth). Default: ${DEFAULT-VALUE}")
    String plogpSizes;

    @Option(names = "--retries", defaultValue = "2",
            description = "Passes that measure disturbed pairs again, one at a time (sim: the emulator missed deadlines). Default: ${DEFAULT-VALUE}")
    int retries;

    @Option(names = "--outlier-k", defaultValue = "5",
            description = "Outliers: worse than the median by more than K x 1.4826 MAD ... Default: ${DEFAULT-VALUE}")
    double outlierK;

    @Option(names = "--outlier-ratio", defaultValue = "1.25",
            description = "... and by more than this factor (latency above, bandwidth below). Default: ${DEFAULT-VALUE}")
    double outlierRatio;

    @Option(names = "--timeout", defaultValue = "10s", description = "Longest wait for the partner within a pair. Default: ${DEFAULT-VALUE}")
    String timeout;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the result as JSON (- for stdout, replacing the table).")
    Path json;

    @Option(names = "--csv", paramLabel = "FILE", description = "Also write one row per pair as CSV (- for stdout).")
    Path csv;

    @Option(names = "--plot", paramLabel = "FILE", converter = PlotFile.class,
            description = "Also draw the latency and bandwidth heatmaps: FILE.png or FILE.svg.")
    Path plot;

    /**
     * What to measure.
     *
     * @param transport     any transport name
     * @param settings      the schedule and sizes
     * @param outlierK      outliers beyond K scaled MADs ...
     * @param outlierRatio  ... and beyond this factor
     * @param localRanks    ranks to start when not under a launcher
     */
    record Request(String transport, MatrixMethod.Settings settings, double outlierK, double outlierRatio, int localRanks) {}

    @Override
    public Integer call() throws IOException {
        Request request = request();
        Output.check("--json", json); // here, before any rank starts
        Output.check("--csv", csv);
        Output.check("--plot", plot);
        MatrixDocument doc;
        if (!LocalLauncher.underLauncher()) {
            // the local launcher's ranks hand their document back: up to the ranks whose pairs it lists
            int limit = Math.min(MatrixReduction.LISTED_RANKS, Math.max(8, 2 * Runtime.getRuntime().availableProcessors()));
            int n = request.localRanks();
            if (n < 2 || n > limit) {
                throw new IllegalArgumentException("--ranks must be 2.." + limit + " in local mode; start fabprobe under mpirun/srun for more");
            }
            // the same command line as n ranks; rank 0 hands its document back
            String reply = LocalLauncher.runForReply(Main.currentArgs(), controlSelection(transport), n, System.out, System.err);
            doc = ResultJson.read(reply, MatrixDocument.class);
        } else {
            List<String> notes = new ArrayList<>();
            if (ranks != null && !LocalLauncher.replyWanted()) notes.add("under an MPI launcher the world's ranks take part (--ranks ignored)");
            Optional<MatrixDocument> result = measureHere(request, notes, csv);
            if (result.isEmpty()) return ExitCode.OK; // ranks other than 0 report nothing
            doc = result.get();
        }
        if (Delivery.handOver(doc)) return ExitCode.OK;
        boolean machineReadableOnStdout = "-".equals(String.valueOf(json)) || "-".equals(String.valueOf(csv));
        if (!machineReadableOnStdout) System.out.print(MatrixReport.table(doc));
        Output.write(json, MatrixReport.json(doc));
        // beyond the listed ranks rank 0 wrote --csv row by row and the pairs are not in the document to draw
        if (doc.pairsListed()) Output.write(csv, MatrixReport.csv(doc));
        if (doc.pairsListed()) Output.draw(plot, doc);
        else if (plot != null) System.err.println("matrix: no heatmap beyond " + MatrixReduction.listedRanks() + " ranks; --csv has every pair");
        System.out.flush();
        return ExitCode.OK;
    }

    private Request request() {
        checkTransportName(transport);
        MatrixMethod.Mode m = switch (mode) {
            case "serial" -> MatrixMethod.Mode.SERIAL;
            case "parallel" -> MatrixMethod.Mode.PARALLEL;
            default -> throw new IllegalArgumentException("--mode must be serial or parallel, not '" + mode + "'");
        };
        long latency = SizeList.size(latencySize), bandwidth = SizeList.size(bandwidthSize);
        if (Math.max(latency, bandwidth) > Integer.MAX_VALUE) {
            throw new FabprobeException(ExitCode.UNSUPPORTED, "matrix: sizes above 2^31 - 1 B are not supported");
        }
        if (!(outlierK > 0) || !(outlierRatio >= 1)) throw new IllegalArgumentException("--outlier-k must be > 0 and --outlier-ratio >= 1");
        long timeoutNs = Durations.parse(timeout).toNanos();
        long[] loggpSizes = switch (method) {
            case "pingpong" -> null;
            case "plogp" -> SizeList.parse(plogpSizes);
            default -> throw new IllegalArgumentException("--method must be pingpong or plogp, not '" + method + "'");
        };
        var settings = new MatrixMethod.Settings(m, latency, reps, bandwidth, bandwidthReps, warmup, bandwidthWarmup, jitWarmup, timeoutNs,
                retries, loggpSizes);
        return new Request(transport, settings, outlierK, outlierRatio, ranks == null ? 4 : ranks);
    }

    /** Refuses a malformed transport name here, before any rank starts (each would refuse it alike, later). */
    private static void checkTransportName(String name) {
        switch (TransportName.parse(name)) {
            case TransportName.Sim sim -> org.fabprobe.transport.sim.SimParameters.parse(sim.detail());
            case TransportName.Mpi mpi -> MpiSelection.parse(name);
            case TransportName.Ofi ofi -> { }
            case TransportName.Ucx ucx -> { }
        }
    }

    /** Under a launcher: this rank's part; rank 0's document. */
    private static Optional<MatrixDocument> measureHere(Request request, List<String> extraNotes, Path csv) {
        String name = request.transport();
        MatrixMethod.Settings s = request.settings();
        String startedAt = Instant.now().toString();
        long start = System.nanoTime();
        boolean overMpi = TransportName.isMpi(name);
        Launcher launcher = Launcher.detect();
        MpiWorld world = overMpi ? MpiWorld.open(name) : MpiWorld.bootstrap(launcher.mpi()); // left at the end of the run (cli.Main)
        if (world.size() < 2) throw new FabprobeException(ExitCode.USAGE, "matrix needs at least 2 ranks, not " + world.size());
        var options = new TransportOptions(s.largestBytes(), s.depth(), Duration.ofNanos(s.timeoutNs()), "", world.rank(), world.size() - 1);
        Transport t = openEverywhere(name, world, options);
        if (t == null) return Optional.empty(); // another rank could not open it: rank 0 says so
        MatrixMethod.Result result;
        MatrixReduction.Reduced reduced;
        List<org.fabprobe.result.SharedCpus> sharedCpus;
        Map<String, String> transportFacts = new LinkedHashMap<>(t.facts());
        try (t; MpiGroup group = new MpiGroup(world)) {
            sharedCpus = CpuSharing.detect(group); // before timing: the ranks of a host against its CPUs
            result = new MatrixMethod(t, group, s).run(HostFacts.collect().getOrDefault("hostname", "unknown"));
            reduced = reduce(group, result, request, csv);
        } catch (RuntimeException e) {
            // the other ranks wait for this one (its partner, rank 0, a barrier): say why, then end them all
            int code = Main.report(e);
            System.err.flush();
            world.mpi().abort(code);
            throw e;
        }
        if (reduced == null) return Optional.empty();

        List<String> notes = new ArrayList<>(extraNotes);
        if (!overMpi) notes.add("control plane: " + world.selection().describe() + " (allgather, barriers, figures); timing: " + name);
        var settings = new MatrixDocument.Settings(s.mode().label(), s.latencyBytes(), s.latencyReps(), s.bandwidthBytes(),
                s.bandwidthReps(), s.warmup(), s.bandwidthWarmup(), s.jitRounds(), s.timeoutNs() / 1_000_000, s.retries(),
                request.outlierK(), request.outlierRatio(), "round-robin (circle method): " + RoundRobin.rounds(world.size())
                        + " rounds of " + RoundRobin.pairsPerRound(world.size()) + " disjoint pairs; the lower rank of a pair measures",
                (launcher == null ? "launcher" : launcher.name()) + ", ranks " + world.size());
        var run = RunFacts.of("matrix", name, transportFacts, settings, startedAt);
        double wallSeconds = (System.nanoTime() - start) / 1e9;
        if (result.notRetried() > 0) notes.add(result.notRetried() + " more disturbed pairs than the " + Math.max(world.size(), 64)
                + " that rank 0 keeps to measure again: not measured again");
        if (world.size() > MatrixReduction.listedRanks()) {
            notes.add("pairs not listed beyond " + MatrixReduction.listedRanks() + " ranks" + (csv == null ? "; --csv FILE writes them" : ": in --csv"));
        }
        return Optional.of(MatrixReport.document(run, result, reduced, request.outlierK(), request.outlierRatio(), wallSeconds,
                peakRssBytes(), sharedCpus, notes));
    }

    /**
     * Every rank: the reduction of the rows to rank 0's figures. Beyond the listed ranks, rank 0
     * writes --csv as the rows arrive (every rank knows from its command line whether to send them).
     */
    private static MatrixReduction.Reduced reduce(Group.Channels control, MatrixMethod.Result result, Request request,
                                                  Path csv) {
        double k = request.outlierK(), ratio = request.outlierRatio();
        boolean stream = csv != null && result.ranks() > MatrixReduction.listedRanks();
        if (!stream) return MatrixReduction.reduce(control, result, k, ratio, false, null);
        if (result.rank() != 0) return MatrixReduction.reduce(control, result, k, ratio, true, null);
        if (Output.isStdout(csv)) {
            System.out.print(MatrixReport.CSV_HEADER);
            return MatrixReduction.reduce(control, result, k, ratio, true, p -> System.out.print(MatrixReport.csvRow(p)));
        }
        MatrixReduction.Reduced[] out = new MatrixReduction.Reduced[1];
        Output.write(csv, target -> {
            try (var w = java.nio.file.Files.newBufferedWriter(target)) {
                w.write(MatrixReport.CSV_HEADER);
                out[0] = MatrixReduction.reduce(control, result, k, ratio, true, p -> {
                    try {
                        w.write(MatrixReport.csvRow(p));
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
            } catch (java.io.UncheckedIOException e) {
                throw e.getCause();
            }
        });
        return out[0];
    }

    /** This process's peak resident memory (VmHWM in /proc/self/status), or null where there is none. */
    static Long peakRssBytes() {
        try {
            for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) return 1024 * Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /**
     * Every rank opens its endpoint, then all agree (MPI_Allreduce) whether every rank could:
     * a transport missing on one node must not leave the others waiting for it. Rank 0 throws
     * (its own error, or that another rank failed, whose own line says why); the other ranks
     * that opened return null.
     */
    private static Transport openEverywhere(String name, MpiWorld world, TransportOptions options) {
        Transport t = null;
        RuntimeException failure = null;
        try {
            t = TransportName.isMpi(name) ? MpiTransport.openForAnyPeer(name, world, options) : Transports.open(name, options);
            options.checkMessageSize(name, t.maxMessageSize());
        } catch (RuntimeException e) {
            failure = e;
        }
        double failed, rankZeroFailed;
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            var mine = arena.allocate(16, 8);
            var all = arena.allocate(16, 8);
            mine.set(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 0, failure == null ? 0 : 1);
            mine.set(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 8, failure != null && world.rank() == 0 ? 1 : 0);
            world.mpi().allreduceMax(mine, all, 2);
            failed = all.get(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 0);
            rankZeroFailed = all.get(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 8);
        }
        if (failed == 0) return t;
        if (t != null) t.close();
        if (world.rank() == 0) {
            if (failure != null) throw failure;
            throw new FabprobeException(ExitCode.TRANSPORT_ERROR, "matrix: other ranks could not open " + name + " (their lines say why)");
        }
        // rank 0's line is enough when it failed too (the same transport fails alike everywhere)
        if (failure != null && rankZeroFailed == 0) Main.report(failure);
        return null;
    }

    /** The MPI that starts the ranks in local mode: the transport's own, or the bootstrap's (FABPROBE_MPI, else Open MPI). */
    private static MpiSelection controlSelection(String transport) {
        if (TransportName.isMpi(transport)) return MpiSelection.parse(transport);
        String chosen = System.getenv("FABPROBE_MPI");
        Mpi.Implementation impl = chosen == null || chosen.isBlank() ? Mpi.Implementation.OPENMPI : Mpi.Implementation.of(chosen.strip());
        return MpiSelection.bootstrap(impl);
    }
}
