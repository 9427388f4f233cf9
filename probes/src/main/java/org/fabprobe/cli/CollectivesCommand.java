package org.fabprobe.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.api.Durations;
import org.fabprobe.api.RunFacts;
import org.fabprobe.api.SizeList;
import org.fabprobe.launch.Launcher;
import org.fabprobe.launch.LocalLauncher;
import org.fabprobe.launch.MpiGroup;
import org.fabprobe.method.CollectivesMethod;
import org.fabprobe.method.CollectivesMethod.Operation;
import org.fabprobe.report.CollectivesReport;
import org.fabprobe.result.CollectivesDocument;
import org.fabprobe.result.ResultJson;
import org.fabprobe.transport.TransportName;
import org.fabprobe.transport.mpi.MpiSelection;
import org.fabprobe.transport.mpi.MpiWorld;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * `fabprobe collectives`: MPI collectives for p processes by the method of Santos et al.;
 * t0(p), r_inf(p), n_1/2 per operation. In local mode it starts the MPI's launcher once per p
 * (rank 0 hands its result back to this process) and reports all of them together; under a launcher
 * started by hand it measures the world size.
 */
@Command(name = "collectives", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"MPI collectives (Santos, Castro, Proença): bcast, gather, scatter, allgather, alltoall,",
                "barrier, reduce, scan for p processes; each repetition after a barrier, timed by every rank,",
                "the maximum over ranks; Hockney's t0(p), r_inf(p), n_1/2 per operation and p."})
final class CollectivesCommand implements Callable<Integer> {
    @Option(names = {"-t", "--transport"}, defaultValue = "mpi:openmpi/ob1:vader",
            description = "An MPI transport mpi:IMPL[/SELECTION], e.g. mpi:openmpi/ob1:vader, mpi:mpich/ucx:posix,cma"
                    + " (see mpi:IMPL/SELECTION in the README). Default: ${DEFAULT-VALUE}")
    String transport;

    @Option(names = "--procs", split = ",", paramLabel = "P",
            description = "Numbers of processes, one launch each (local mode). Default: 2 and the number of CPUs if larger.")
    int[] procs;

    @Option(names = "--ops", split = ",", paramLabel = "OP",
            description = "Operations. Default: bcast,gather,scatter,allgather,alltoall,barrier,reduce,scan")
    String[] ops;

    @Option(names = {"-s", "--sizes"}, defaultValue = "0..1M",
            description = "Message lengths n per rank (reduce/scan: rounded up to whole doubles). Default: ${DEFAULT-VALUE}")
    String sizes;

    @Option(names = "--warmup", defaultValue = "5", description = "Untimed calls before each size (the paper's 5). Default: ${DEFAULT-VALUE}")
    int warmup;

    @Option(names = "--jit-warmup", defaultValue = "1s",
            description = "Untimed warm-up of the timing loop (all operations together) per p, before the paper's"
                    + " per-size warm-up. Default: ${DEFAULT-VALUE}")
    String jitWarmup;

    @Mixin
    MethodOptions method;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the full result as JSON (- for stdout, replacing the table).")
    Path json;

    @Option(names = "--csv", paramLabel = "FILE", description = "Also write one row per operation, p and size as CSV (- for stdout).")
    Path csv;

    @Option(names = {"-q", "--quiet"}, description = "No progress line on stderr (it is drawn only on a terminal).")
    boolean quiet;

    @Option(names = "--plot", paramLabel = "FILE", converter = PlotFile.class, description = PlotFile.DESCRIPTION)
    Path plot;

    @Override
    public Integer call() throws IOException {
        if (!TransportName.isMpiSelection(transport)) {
            // under srun or mpirun every rank finds this: rank 0 says it, once
            if (Launcher.rank() != 0) return ExitCode.USAGE;
            throw new FabprobeException(ExitCode.USAGE, "collectives run at MPI level: -t must be mpi:IMPL[/SELECTION]"
                    + " (e.g. mpi:openmpi/ob1:vader, mpi:mpich/ucx:posix,cma), not '" + transport + "'");
        }
        MpiSelection selection = MpiSelection.parse(transport); // unknown MPI or selection: exit 3
        Output.check("--json", json); // here, before any rank starts
        Output.check("--csv", csv);
        Output.check("--plot", plot);
        List<Operation> operations = operations();
        long[] sizeList = SizeList.parse(sizes);
        method.sampler(); // checks --ci, --batch, --max-reps
        if (warmup < 0) throw new IllegalArgumentException("--warmup must be >= 0");
        int[] procsList = procsList();
        long largest = (sizeList[sizeList.length - 1] + 7) / 8 * 8;
        for (int p : procsList) {
            if ((double) p * largest > Integer.MAX_VALUE) {
                throw new FabprobeException(ExitCode.UNSUPPORTED, "collectives: " + p + " x " + largest
                        + " B exceeds an MPI count (2^31 - 1) for the p*n buffers; use smaller sizes");
            }
        }
        CollectivesMethod.Settings settings = new CollectivesMethod.Settings(operations, sizeList, warmup,
                method.ciPercent / 100, org.fabprobe.method.Sampler.DEFAULT_FLOOR_NS, method.batch, method.maxReps,
                Durations.parse(method.timeCap).toNanos(), Durations.parse(jitWarmup).toNanos(), CollectivesMethod.MAX_DISCARDS);

        String startedAt = Instant.now().toString();
        long start = System.nanoTime();
        List<CollectivesMethod.Result> results = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if (LocalLauncher.underLauncher()) {
            CollectivesMethod.Result r = measureWorld(settings, largest);
            if (r == null) return ExitCode.OK; // ranks other than 0 report nothing
            if (LocalLauncher.replyWanted()) { // one launch of the local mode: its p goes back to the launching command
                LocalLauncher.reply(CollectivesReport.part(r));
                return ExitCode.OK;
            }
            if (procs != null) notes.add("under an MPI launcher: measured the world size p = " + r.procs() + " only (--procs ignored)");
            results.add(r);
        } else {
            // drawn here, between launches: every timed process is a rank of its own
            var steps = org.fabprobe.Progress.start("collectives " + transport, procsList.length, quiet);
            try {
                for (int p : procsList) {
                    steps.next("p = " + p + " (one launch of " + p + " ranks)", -1);
                    // the same command line: under the launcher it measures the world size, p
                    String part = LocalLauncher.runForReply(Main.currentArgs(), selection, p, System.out, System.err);
                    results.add(CollectivesReport.parsePart(part));
                }
            } finally {
                org.fabprobe.Progress.end();
            }
        }
        double wallSeconds = (System.nanoTime() - start) / 1e9;

        var recorded = new CollectivesDocument.Settings(SizeList.asList(sizeList), operations.stream().map(o -> o.id).toList(),
                results.stream().map(CollectivesMethod.Result::procs).toList(),
                LocalLauncher.underLauncher() ? "external launcher" : "one mpirun/mpiexec per p (local mode)", warmup, jitWarmup,
                "MPI_Barrier, then each rank times its call minus one clock read; the maximum over ranks (MPI_Allreduce MAX, untimed)",
                "median over repetitions (Hockney fit), min / p99 / mean alongside", method.ciPercent, method.batch, method.maxReps,
                method.timeCap);
        var run = RunFacts.of("collectives", transport, results.getFirst().transportFacts(), recorded, startedAt);
        var context = new CollectivesReport.Context(run, results, wallSeconds, notes);

        CollectivesDocument document = CollectivesReport.document(context);
        if (Delivery.handOver(document)) return ExitCode.OK;
        boolean machineReadableOnStdout = "-".equals(String.valueOf(json)) || "-".equals(String.valueOf(csv));
        if (!machineReadableOnStdout) System.out.print(CollectivesReport.table(context));
        if (json != null) Output.write(json, ResultJson.write(document));
        Output.draw(plot, document);
        if (csv != null) Output.write(csv, CollectivesReport.csv(context));
        return ExitCode.OK;
    }

    /** This rank's part of the world-size run; the result on rank 0, null elsewhere. */
    private CollectivesMethod.Result measureWorld(CollectivesMethod.Settings settings, long largest) {
        MpiWorld world = MpiWorld.open(transport); // left at the end of the run (cli.Main)
        try (MpiGroup group = new MpiGroup(world)) {
            CollectivesMethod m = new CollectivesMethod(world.mpi(), group, largest);
            try {
                CollectivesMethod.Result r = m.run(settings, world.facts());
                world.mpi().barrier();
                return group.rank() == 0 ? r : null;
            } finally {
                m.close();
            }
        }
    }

    private List<Operation> operations() {
        if (ops == null) return List.of(Operation.values());
        List<Operation> list = new ArrayList<>();
        for (String o : ops) {
            Operation op = Operation.of(o);
            if (!list.contains(op)) list.add(op);
        }
        return list;
    }

    /** --procs, or 2 and the number of CPUs; oversubscription allowed up to a limit in local mode. */
    private int[] procsList() {
        int cpus = Runtime.getRuntime().availableProcessors();
        TreeSet<Integer> set = new TreeSet<>();
        if (procs == null) {
            set.add(2);
            set.add(Math.max(2, cpus));
        } else {
            for (int p : procs) set.add(p);
        }
        int limit = Math.max(8, 2 * cpus);
        for (int p : set) {
            if (p < 2) throw new IllegalArgumentException("--procs: a collective needs p >= 2, not " + p);
            if (p > limit && !LocalLauncher.underLauncher()) {
                throw new IllegalArgumentException("--procs: at most " + limit + " ranks on this machine (" + cpus
                        + " CPUs) in local mode; start fabprobe under mpirun/srun for more");
            }
        }
        return set.stream().mapToInt(Integer::intValue).toArray();
    }
}
