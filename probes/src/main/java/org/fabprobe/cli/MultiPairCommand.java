package org.fabprobe.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.api.Durations;
import org.fabprobe.api.RunFacts;
import org.fabprobe.api.SizeList;
import org.fabprobe.launch.Launcher;
import org.fabprobe.launch.LocalLauncher;
import org.fabprobe.launch.MpiGroup;
import org.fabprobe.method.MultiPairMethod;
import org.fabprobe.model.MultiPairFit;
import org.fabprobe.model.MultiPairModel;
import org.fabprobe.report.MultiPairReport;
import org.fabprobe.result.MultiPairDocument;
import org.fabprobe.result.ResultJson;
import org.fabprobe.transport.TransportName;
import org.fabprobe.transport.mpi.MpiSelection;
import org.fabprobe.transport.mpi.MpiWorld;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `fabprobe multipair`: IMB PingPong in multi mode with k pairs at once, and Hager and
 * Wellein's model fitted to it. Under a launcher the world is the 2k ranks; in local mode the
 * command starts the MPI's launcher with 2 x --pairs ranks running this same measurement, and
 * reports what their rank 0 hands back.
 */
@Command(name = "multipair", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Multi-pair ping-pong (IMB PingPong multi mode): k pairs at once, rank i < k with rank i + k;",
                "per size n(x) ping-pongs per pair after a barrier, T_b(x) the slowest pair, aggregated bandwidth",
                "b(x) = 2k x n(x) / T_b(x); for k = 2 the fit of Hager and Wellein's model: chunk size C, raw",
                "bandwidth B_r, latency T_1, each with its standard error."})
final class MultiPairCommand implements Callable<Integer> {
    @Option(names = {"-t", "--transport"}, defaultValue = "mpi:openmpi/ob1:vader",
            description = "An MPI transport mpi:IMPL[/SELECTION], e.g. mpi:openmpi/ob1:vader, mpi:mpich/ucx:posix,cma. Default: ${DEFAULT-VALUE}")
    String transport;

    @Option(names = {"-k", "--pairs"}, paramLabel = "K",
            description = "Pairs, i.e. 2K ranks (local mode; under a launcher: the world size / 2). Default: 2, the model's case")
    Integer pairs;

    @Option(names = {"-s", "--sizes"}, defaultValue = "1K..4M", description = "Message sizes x. Default: ${DEFAULT-VALUE}")
    String sizes;

    @Option(names = {"-n", "--reps"}, defaultValue = "1000",
            description = "Most ping-pongs per timed loop (IMB's MSGSPERSAMPLE). Default: ${DEFAULT-VALUE}")
    long reps;

    @Option(names = "--volume", defaultValue = "40M",
            description = "n(x) = min(--reps, max(1, VOLUME / x)) (IMB's OVERALL_VOL rule). Default: ${DEFAULT-VALUE}")
    String volume;

    @Option(names = "--samples", defaultValue = "5", description = "Timed loops per size; T_b(x) is their median. Default: ${DEFAULT-VALUE}")
    int samples;

    @Option(names = "--warmup", defaultValue = "10", description = "Untimed ping-pongs before each size. Default: ${DEFAULT-VALUE}")
    int warmup;

    @Option(names = "--jit-warmup", defaultValue = "500ms", description = "Untimed warm-up of the loop, once. Default: ${DEFAULT-VALUE}")
    String jitWarmup;

    @Option(names = "--fit-from", paramLabel = "SIZE",
            description = "Fit the model to sizes from SIZE on (e.g. 32K, above an eager/rendezvous switch). Default: every size > 0")
    String fitFrom;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the result as JSON (- for stdout, replacing the table).")
    Path json;

    @Option(names = "--csv", paramLabel = "FILE", description = "Also write one row per size as CSV (- for stdout).")
    Path csv;

    @Option(names = {"-q", "--quiet"}, description = "No progress line on stderr (it is drawn only on a terminal).")
    boolean quiet;

    @Override
    public Integer call() throws IOException {
        if (!TransportName.isMpiSelection(transport)) {
            // under srun or mpirun every rank finds this: rank 0 says it, once
            if (Launcher.rank() != 0) return ExitCode.USAGE;
            throw new FabprobeException(ExitCode.USAGE, "multipair runs at MPI level: -t must be mpi:IMPL[/SELECTION]"
                    + " (e.g. mpi:openmpi/ob1:vader), not '" + transport + "'");
        }
        MpiSelection selection = MpiSelection.parse(transport); // unknown MPI or selection: exit 3
        Output.check("--json", json); // here, before any rank starts
        Output.check("--csv", csv);
        long[] sizeList = SizeList.parse(sizes);
        if (sizeList[sizeList.length - 1] > Integer.MAX_VALUE) {
            throw new FabprobeException(ExitCode.UNSUPPORTED, "multipair: sizes above 2^31 - 1 B exceed an MPI count");
        }
        long vol = SizeList.size(volume);
        if (reps < 1) throw new IllegalArgumentException("--reps must be >= 1");
        if (vol < 1) throw new IllegalArgumentException("--volume must be >= 1 B");
        if (samples < 1 || samples > 10_000) throw new IllegalArgumentException("--samples must be 1..10000");
        if (warmup < 0) throw new IllegalArgumentException("--warmup must be >= 0");
        long fromBytes = fitFrom == null ? 1 : SizeList.size(fitFrom);
        double jitNs = Durations.parse(jitWarmup).toNanos();
        long[] counts = new long[sizeList.length];
        for (int i = 0; i < sizeList.length; i++) counts[i] = MultiPairModel.imbRepetitions(sizeList[i], reps, vol);

        String startedAt = Instant.now().toString();
        long start = System.nanoTime();
        MultiPairMethod.Result result;
        List<String> notes = new ArrayList<>();
        boolean localMode = !LocalLauncher.underLauncher();
        if (localMode) {
            int k = pairs == null ? 2 : pairs;
            int limit = Math.max(4, Runtime.getRuntime().availableProcessors());
            if (k < 1 || k > limit) {
                throw new IllegalArgumentException("--pairs must be 1.." + limit + " in local mode (2K ranks on "
                        + Runtime.getRuntime().availableProcessors() + " CPUs); start fabprobe under mpirun/srun for more");
            }
            // the same command line as 2k ranks; rank 0 hands its result back
            String reply = LocalLauncher.runForReply(Main.currentArgs(), selection, 2 * k, System.out, System.err);
            result = ResultJson.read(reply, MultiPairMethod.Result.class);
        } else {
            MpiWorld world = MpiWorld.open(transport); // left at the end of the run (cli.Main)
            if (world.size() < 2 || world.size() % 2 != 0) {
                if (world.rank() != 0) return ExitCode.OK; // rank 0 says why, once, and sets the exit code
                throw new FabprobeException(ExitCode.USAGE, "multipair needs an even number of ranks (2k for k pairs), not "
                        + world.size());
            }
            MpiGroup group = new MpiGroup(world);
            MultiPairMethod method = new MultiPairMethod(world.mpi(), group, (int) sizeList[sizeList.length - 1]);
            try {
                // rank 0 measures and reports: it alone draws (if its stderr is a terminal, or relayed to one)
                var steps = world.rank() == 0 ? org.fabprobe.Progress.start("multipair " + transport, sizeList.length, quiet)
                        : org.fabprobe.Steps.NONE;
                result = method.run(new MultiPairMethod.Settings(sizeList, counts, samples, warmup, jitNs,
                        MultiPairMethod.MAX_REMEASURES), world.facts(), steps);
                world.mpi().barrier();
            } finally {
                method.close();
                group.close();
            }
            if (result == null) return ExitCode.OK; // ranks other than 0 report nothing
            if (LocalLauncher.replyWanted()) {
                org.fabprobe.Progress.end();
                LocalLauncher.reply(ResultJson.write(result));
                return ExitCode.OK;
            }
            if (pairs != null && pairs != result.pairs()) {
                notes.add("under an MPI launcher: the world's " + world.size() + " ranks give " + result.pairs() + " pairs (--pairs ignored)");
            }
        }
        double wallSeconds = (System.nanoTime() - start) / 1e9;
        int ranks = 2 * result.pairs();
        Optional<MultiPairFit> fit = MultiPairReport.fit(result, fromBytes);
        if (result.pairs() != 2) {
            notes.add("Hager and Wellein's model is derived for 2 pairs; with " + result.pairs() + " it is not fitted");
        } else if (fit.isEmpty()) {
            notes.add("no model fit: it needs at least 4 sizes > 0 from " + fromBytes + " B on");
        }
        String disturbed = MultiPairReport.disturbedNote(result);
        if (disturbed != null) notes.add(disturbed);

        var settings = new MultiPairDocument.Settings(SizeList.asList(sizeList), result.pairs(),
                "rank i < k pings rank i + k (MPI_Send, MPI_Recv; the partner MPI_Recv, MPI_Send)",
                "n(x) = min(reps, max(1, volume / x))", reps, vol, samples, warmup, jitWarmup, fromBytes,
                "MPI_Barrier, then each pinging rank times its n(x) ping-pongs on the TSC minus one clock read;"
                        + " MPI_Gather (untimed) to rank 0; T_b(x) = median over samples of the maximum over pairs",
                "relative least squares; profile over C (16 geometric steps between adjacent sizes) with B_r, T_1"
                        + " linear at each, then Levenberg-Marquardt (Hipparchus) on C, B_r, T_1; errors from its covariance",
                "ranks " + ranks);
        var run = RunFacts.of("multipair", transport, result.transportFacts(), settings, startedAt);
        var context = new MultiPairReport.Context(run, result, fromBytes, fit, wallSeconds, notes);

        org.fabprobe.Progress.end();
        if (Delivery.handOver(MultiPairReport.document(context))) return ExitCode.OK;
        boolean machineReadableOnStdout = "-".equals(String.valueOf(json)) || "-".equals(String.valueOf(csv));
        if (!machineReadableOnStdout) System.out.print(MultiPairReport.table(context));
        Output.write(json, MultiPairReport.json(context));
        Output.write(csv, MultiPairReport.csv(context));
        System.out.flush();
        return ExitCode.OK;
    }
}
