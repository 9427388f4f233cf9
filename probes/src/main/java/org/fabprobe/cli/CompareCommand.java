package org.fabprobe.cli;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.fabprobe.Progress;
import org.fabprobe.api.Durations;
import org.fabprobe.api.Fabprobe;
import org.fabprobe.api.MethodAnalysis;
import org.fabprobe.api.LogGPRequest;
import org.fabprobe.api.PLogPRequest;
import org.fabprobe.api.Sampling;
import org.fabprobe.api.SessionSettings;
import org.fabprobe.api.SizeList;
import org.fabprobe.launch.LocalLauncher;
import org.fabprobe.launch.Session;
import org.fabprobe.method.CompareAnalysis;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.pattern.Probe;
import org.fabprobe.report.CompareReport;
import org.fabprobe.result.CompareDocument;
import org.fabprobe.result.MethodDocument;
import org.fabprobe.result.ResultJson;
import org.fabprobe.transport.Op;
import org.fabprobe.transport.TransportName;
import org.fabprobe.transport.Transports;
import org.fabprobe.transport.mpi.MpiSelection;
import org.fabprobe.transport.mpi.MpiWorld;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `fabprobe compare`: one method on a raw transport and on MPI over the same transport; per
 * common size range raw, MPI and the difference (the MPI library's own overhead), each with its 95 %
 * uncertainty. It runs the two measurements through the Java API, as the ordinary commands
 * would (raw against a local mirror, MPI as two local ranks; or both between a launcher's
 * ranks), and takes their typed documents.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Raw transport vs MPI over the same transport: L, o_s, o_r, g, G of both and their difference",
                "(dL, do_s, do_r, dg, dG: the MPI library's overhead), per size range, with uncertainties."})
final class CompareCommand implements Callable<Integer> {
    private static final String[] PARAMETERS = {"L_ns", "o_s_ns", "o_r_ns", "g_ns", "G_ns_per_byte"};

    @Option(names = {"-t", "--transport"}, required = true, description = "Raw transport, e.g. ucx:tcp, ofi:tcp, ofi:shm.")
    String raw;

    @Option(names = "--mpi", required = true, paramLabel = "IMPL[/SELECTION]",
            description = "openmpi or mpich, optionally with what it runs over (default: the raw transport),"
                    + " e.g. openmpi/ob1:vader. See mpi:IMPL/SELECTION in the README.")
    String mpi;

    @Option(names = "--method", defaultValue = "plogp", description = "plogp (all five parameters) or loggp. Default: ${DEFAULT-VALUE}")
    String method;

    @Option(names = {"-s", "--sizes"}, defaultValue = "0..64K", description = "Sizes. Default: ${DEFAULT-VALUE}")
    String sizes;

    @Option(names = "--calls", defaultValue = "nonblocking", description = {
            "MPI side: nonblocking (MPI_Isend/MPI_Irecv polled by MPI_Test: the raw side's own pattern, post then",
            "poll, so MPI - raw is the library's cost on the same calls) or blocking (MPI_Send/MPI_Recv, the",
            "paper's o_s; pml ucx then takes another protocol than raw UCX). Default: ${DEFAULT-VALUE}"})
    String calls;

    @Option(names = "--op", defaultValue = "send", paramLabel = "send|write|read", description = {
            "send (default): messages, MPI_Isend/MPI_Irecv on the MPI side; write: one-sided writes whose last",
            "byte the target polls, MPI_Put and MPI_Win_flush on the MPI side; read: one-sided reads, MPI_Get",
            "and MPI_Win_flush on the MPI side (write and read: MPI's one-sided overhead)."})
    String op;

    @Option(names = "--timeout", defaultValue = "10s", description = "Per wait for the peer. Default: ${DEFAULT-VALUE}")
    String timeout;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write both runs and the differences as JSON (- for stdout).")
    java.nio.file.Path json;

    @Option(names = {"-q", "--quiet"}, description = "No progress line on stderr (it is drawn only on a terminal).")
    boolean quiet;

    @Option(names = "--plot", paramLabel = "FILE", converter = PlotFile.class, description = PlotFile.DESCRIPTION)
    java.nio.file.Path plot;

    @Override
    public Integer call() throws IOException {
        if (!method.equals("plogp") && !method.equals("loggp")) {
            throw new IllegalArgumentException("--method must be plogp or loggp, not '" + method + "'");
        }
        if (TransportName.isMpi(raw)) throw new IllegalArgumentException("-t names the raw transport; MPI goes in --mpi");
        String mpiTransport = "mpi:" + (mpi.contains("/") ? mpi : mpi + "/" + raw);
        MpiSelection selection = MpiSelection.parse(mpiTransport); // bad names fail before anything runs
        if (!calls.equals("blocking") && !calls.equals("nonblocking")) {
            throw new IllegalArgumentException("--calls must be blocking or nonblocking, not '" + calls + "'");
        }
        Op operation = Op.parse(op);
        if (!Probe.timesOp(operation)) {
            throw new IllegalArgumentException("--op " + op + ": compare fits LogGP to sends, writes or reads"
                    + " (pingpong --op " + op + " gives its latency on each side)");
        }
        if (operation.oneSided() && calls.equals("blocking")) {
            throw new IllegalArgumentException(MethodAnalysis.oneSidedNotBlocking(operation));
        }
        Transports.checkOneSided(raw, operation);
        Transports.checkOneSided(mpiTransport, operation);
        Output.check("--json", json);
        Output.check("--plot", plot);
        String startedAt = Instant.now().toString();
        if (LocalLauncher.underLauncher()) {
            // raw and MPI between the same two ranks: MPI starts once, with the MPI side's
            // settings, and the raw run's bootstrap uses that same world
            if (MpiWorld.open(mpiTransport).rank() != 0) {
                measure(raw, "nonblocking", operation);
                measure(mpiTransport, calls, operation);
                measure(raw, "nonblocking", operation);
                return 0; // a mirror or idle rank: rank 0 reports
            }
        }
        // raw, MPI, raw again: the host's drift between runs is measured, not taken for the library's
        MethodDocument rawDoc = measure(raw, "nonblocking", operation);
        MethodDocument mpiDoc = measure(mpiTransport, calls, operation);
        MethodDocument rawAgain = measure(raw, "nonblocking", operation);
        List<CompareDocument.Range> rows = CompareAnalysis.ranges(rawDoc, rawAgain, mpiDoc);
        List<String> flags = new ArrayList<>(CompareAnalysis.flags(rows));
        Map<String, Map<String, String>> ucx = CompareAnalysis.ucxSettings(rawDoc.transportFacts(), mpiDoc.transportFacts());
        flags.addAll(CompareAnalysis.ucxFlags(ucx));
        CompareDocument doc = new CompareDocument(CompareDocument.SCHEMA, method, operation.label(), startedAt, raw,
                mpiTransport, selection.environment(), "nonblocking", calls, callsNote(operation, rawDoc, mpiDoc), ucx, CompareAnalysis.rule(rawDoc),
                CompareAnalysis.ownRanges(rawDoc), CompareAnalysis.ownRanges(mpiDoc),
                CompareAnalysis.pLogPLatency(rawDoc, rawAgain, mpiDoc), rows, flags, rawDoc, mpiDoc, rawAgain);
        if (Delivery.handOver(doc)) return 0; // accept measures through compare
        Output.draw(plot, doc);
        if (json != null) {
            Output.write(json, ResultJson.write(doc));
            if (json.toString().equals("-")) return 0;
        }
        System.out.print(CompareReport.table(doc));
        return 0;
    }

    /**
     * Runs the method through the Java API, as its own command would: against a local mirror, or
     * as two local MPI ranks, or between this launcher's ranks. Null on a rank other than measure.
     */
    private MethodDocument measure(String transport, String callStyle, Op operation) {
        SessionSettings session = new SessionSettings(transport, null, null, false, Durations.parse(timeout), null, null);
        long[] sizeList = SizeList.parse(sizes);
        PingPong.Calls callsOn = PingPong.Calls.valueOf(callStyle.toUpperCase(java.util.Locale.ROOT));
        try {
            if (method.equals("plogp")) {
                var request = new PLogPRequest(session, sizeList, PLogPRequest.of(transport).adaptiveLimit(), false, null,
                        Sampling.defaults(), callsOn, operation);
                return Fabprobe.plogp(request, Progress.start("plogp " + transport, request.steps(), quiet));
            }
            var request = new LogGPRequest(session, sizeList, LogGPRequest.of(transport).messages(), Sampling.defaults(), callsOn,
                    operation);
            return Fabprobe.logGP(request, Progress.start("loggp " + transport, request.steps(), quiet));
        } catch (Session.NotMeasure e) {
            return null; // a mirror or idle rank: rank 0 reads the documents
        } finally {
            Progress.end();
        }
    }

    /** What o_s means on each side, for the table and the JSON. */
    private String callsNote(Op operation, MethodDocument rawDoc, MethodDocument mpiDoc) {
        if (operation == Op.READ) {
            return "reads, posted and completed (o_s: the post; o_r: completing it once its data has had time to arrive;"
                    + " L = (RTT - o_s - o_r) / 2); raw: the completion found by progress; MPI: MPI_Get, then MPI_Win_flush";
        }
        if (operation == Op.WRITE) {
            return "writes, posted and polled (o_s: the post; o_r: the target's look until the write is there); raw: "
                    + rawDoc.transportFacts().getOrDefault("write_ordering", "?") + "; MPI: "
                    + mpiDoc.transportFacts().getOrDefault("write_ordering", "?");
        }
        return calls.equals("nonblocking")
                ? "raw: post, poll until the send completes; MPI: MPI_Isend, MPI_Test until it completes (the same calls)"
                : "raw: post, poll until the send completes; MPI: MPI_Send until it returns (the paper's o_s; "
                        + "not the raw side's calls: under pml ucx another protocol)";
    }
}
