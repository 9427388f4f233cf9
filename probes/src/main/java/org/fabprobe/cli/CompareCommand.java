package org.fabprobe.cli;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.fabprobe.FabprobeException;
import org.fabprobe.launch.LocalLauncher;
import org.fabprobe.model.Estimate;
import org.fabprobe.result.CompareDocument;
import org.fabprobe.result.MethodDocument;
import org.fabprobe.result.ParameterRange;
import org.fabprobe.result.ResultJson;
import org.fabprobe.transport.TransportName;
import org.fabprobe.transport.mpi.MpiSelection;
import org.fabprobe.transport.mpi.MpiWorld;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `fabprobe compare`: one method on a raw transport and on MPI over the same transport; per
 * size range raw, MPI and the difference (the MPI library's own overhead), each with its 95 %
 * uncertainty. It runs the two measurements as the ordinary commands would (raw in local
 * mode, MPI as two ranks under mpirun) and takes their typed documents.
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
        Output.check("--json", json);
        Output.check("--plot", plot);
        String startedAt = Instant.now().toString();
        if (LocalLauncher.underLauncher()) {
            // raw and MPI between the same two ranks: MPI starts once, with the MPI side's
            // settings, and the raw run's bootstrap uses that same world
            if (MpiWorld.open(mpiTransport).rank() != 0) {
                measure(raw, "nonblocking");
                measure(mpiTransport, calls);
                measure(raw, "nonblocking");
                return 0; // a mirror or idle rank: rank 0 reports
            }
        }
        // raw, MPI, raw again: the host's drift between runs is measured, not taken for the library's
        MethodDocument rawDoc = measure(raw, "nonblocking");
        MethodDocument mpiDoc = measure(mpiTransport, calls);
        MethodDocument rawAgain = measure(raw, "nonblocking");
        List<CompareDocument.Range> rows = differences(rawDoc.parameters(), rawAgain.parameters(), mpiDoc.parameters());
        List<String> flags = new ArrayList<>(flags(rows));
        Map<String, Map<String, String>> ucx = ucxSettings(rawDoc.transportFacts(), mpiDoc.transportFacts());
        flags.addAll(ucxFlags(ucx));
        CompareDocument doc = new CompareDocument(CompareDocument.SCHEMA, method, startedAt, raw, mpiTransport,
                selection.environment(), "nonblocking", calls, callsNote(), ucx, rows, flags, rawDoc, mpiDoc, rawAgain);
        if (Delivery.handOver(doc)) return 0; // accept measures through compare
        Output.draw(plot, doc);
        if (json != null) {
            Output.write(json, ResultJson.write(doc));
            if (json.toString().equals("-")) return 0;
        }
        System.out.print(table(doc));
        return 0;
    }

    /** Runs the method as its own command would, in this process, and takes its typed document ({@link Delivery}). */
    private MethodDocument measure(String transport, String callStyle) {
        List<String> args = new ArrayList<>(List.of(method, "-t", transport, "-s", sizes, "--timeout", timeout,
                "--calls", callStyle));
        if (quiet) args.add("--quiet");
        Delivery.Measured run = Delivery.measure(args);
        int code = run.exitCode();
        if (code != 0) throw new FabprobeException(code, "compare: the " + method + " run on " + transport + " failed (exit " + code + ")");
        if (MpiWorld.currentRank() > 0) return null; // not rank 0: nothing to read
        return (MethodDocument) run.document();
    }

    /** Each MPI range against the raw ranges (before and after) that hold its first size. */
    static List<CompareDocument.Range> differences(List<ParameterRange> raw, List<ParameterRange> rawAgain,
                                                   List<ParameterRange> mpi) {
        List<CompareDocument.Range> rows = new ArrayList<>();
        for (ParameterRange m : mpi) {
            ParameterRange r = holding(raw, m.fromBytes()), a = holding(rawAgain, m.fromBytes());
            if (r == null || a == null) continue;
            rows.add(new CompareDocument.Range(m.fromBytes(), m.toBytes(), new long[] {r.fromBytes(), r.toBytes()},
                    CompareDocument.Cell.of(r.latencyNs(), a.latencyNs(), m.latencyNs()),
                    CompareDocument.Cell.of(r.sendOverheadNs(), a.sendOverheadNs(), m.sendOverheadNs()),
                    CompareDocument.Cell.of(r.recvOverheadNs(), a.recvOverheadNs(), m.recvOverheadNs()),
                    CompareDocument.Cell.of(r.gapNs(), a.gapNs(), m.gapNs()),
                    CompareDocument.Cell.of(r.gapPerByteNs(), a.gapPerByteNs(), m.gapPerByteNs())));
        }
        return rows;
    }

    /** The range that holds {@code size}, else the first one (null if there is none). */
    private static ParameterRange holding(List<ParameterRange> ranges, long size) {
        return ranges.stream().filter(x -> x.fromBytes() <= size && size <= x.toBytes())
                .findFirst().orElse(ranges.isEmpty() ? null : ranges.getFirst());
    }

    /** MPI adds work to raw: a clearly smaller MPI overhead means one of the two runs is off. */
    static List<String> flags(List<CompareDocument.Range> rows) {
        List<String> flags = new ArrayList<>();
        for (CompareDocument.Range row : rows) {
            String[] names = {"o_s", "o_r"};
            CompareDocument.Cell[] cells = {row.sendOverheadNs(), row.recvOverheadNs()};
            for (int i = 0; i < names.length; i++) {
                Estimate d = cells[i].difference();
                if (d.value() + (Double.isNaN(d.ci95()) ? 0 : d.ci95()) < 0) {
                    flags.add(String.format(Locale.ROOT, "%s: MPI below raw by %.0f ns (beyond uncertainty) in %d..%d B",
                            names[i], -d.value(), row.fromBytes(), row.toBytes()));
                }
            }
        }
        return flags;
    }

    private String table(CompareDocument doc) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "fabprobe compare  %s  raw %s  vs  %s (%s)%n", method, raw, doc.mpiTransport(),
                doc.mpi().transportFacts().getOrDefault("library", "?")));
        b.append("calls: ").append(doc.callsNote()).append('\n');
        if (!doc.ucxSettings().isEmpty()) {
            b.append("UCX pinned: raw ").append(doc.ucxSettings().get("raw")).append(", MPI ").append(doc.ucxSettings().get("mpi")).append('\n');
        }
        for (CompareDocument.Range row : doc.ranges()) {
            b.append(String.format(Locale.ROOT, "%nMPI range %d..%d B (raw range %d..%d B)%n", row.fromBytes(),
                    row.toBytes(), row.rawRange()[0], row.rawRange()[1]));
            b.append(String.format(Locale.ROOT, "%-10s %20s %20s %22s %12s%n", "", "raw", "MPI", "MPI - raw", "raw drift"));
            List<CompareDocument.Cell> cells = row.cells();
            for (int i = 0; i < cells.size(); i++) {
                CompareDocument.Cell cell = cells.get(i);
                boolean perByte = PARAMETERS[i].equals("G_ns_per_byte");
                double scale = perByte ? 1 : 1e-3;
                b.append(String.format(Locale.ROOT, "%-10s %20s %20s %22s %12s%n",
                        perByte ? "G ns/B" : PARAMETERS[i].replace("_ns", "") + " µs",
                        pm(cell.raw(), scale, perByte), pm(cell.mpi(), scale, perByte), pm(cell.difference(), scale, perByte),
                        String.format(Locale.ROOT, perByte ? "%.4f" : "%.3f", cell.rawDrift() * scale)));
            }
        }
        b.append(String.format(Locale.ROOT, "%n± is the 95 %% uncertainty; MPI - raw is the library's own overhead. Raw ran"
                + " before and after MPI:%nraw is their mean, raw drift their difference (the host's, between runs), and"
                + " half of it is in MPI - raw's ±.%n"));
        for (String f : doc.flags()) b.append("FLAG ").append(f).append('\n');
        return b.toString();
    }

    /** The UCX settings each side pinned (facts ucx.*), where either side runs over UCX. */
    static Map<String, Map<String, String>> ucxSettings(Map<String, String> rawFacts, Map<String, String> mpiFacts) {
        Map<String, String> rawUcx = ucxFacts(rawFacts);
        Map<String, String> mpiUcx = ucxFacts(mpiFacts);
        Map<String, Map<String, String>> both = new LinkedHashMap<>();
        if (rawUcx.isEmpty() && mpiUcx.isEmpty()) return both;
        both.put("raw", rawUcx);
        both.put("mpi", mpiUcx);
        return both;
    }

    private static Map<String, String> ucxFacts(Map<String, String> facts) {
        Map<String, String> m = new LinkedHashMap<>();
        if (facts != null) facts.forEach((k, v) -> {
            if (k.startsWith("ucx.")) m.put(k.substring(4), v);
        });
        return m;
    }

    /** Like for like: the same pinned UCX settings on both sides (the MPI's own "self" transport aside). */
    static List<String> ucxFlags(Map<String, Map<String, String>> ucx) {
        List<String> flags = new ArrayList<>();
        if (ucx.isEmpty()) return flags;
        Map<String, String> raw = ucx.get("raw"), mpi = ucx.get("mpi");
        java.util.Set<String> keys = new java.util.TreeSet<>(raw.keySet());
        keys.addAll(mpi.keySet());
        for (String key : keys) {
            String a = String.valueOf(raw.get(key)), c = String.valueOf(mpi.get(key));
            if (key.equals("TLS")) c = c.replace(",self", "");
            if (!a.equals(c)) {
                flags.add("UCX_" + key + " differs: raw " + raw.get(key) + ", MPI " + mpi.get(key) + " (not like for like)");
            }
        }
        return flags;
    }

    /** What o_s means on each side, for the table and the JSON. */
    private String callsNote() {
        return calls.equals("nonblocking")
                ? "raw: post, poll until the send completes; MPI: MPI_Isend, MPI_Test until it completes (the same calls)"
                : "raw: post, poll until the send completes; MPI: MPI_Send until it returns (the paper's o_s; "
                        + "not the raw side's calls: under pml ucx another protocol)";
    }

    private static String pm(Estimate e, double scale, boolean perByte) {
        double v = e.value(), ci = e.ci95();
        if (Double.isNaN(v)) return "–";
        String f = perByte ? "%.4f" : "%.3f";
        return Double.isNaN(ci) ? String.format(Locale.ROOT, f, v * scale)
                : String.format(Locale.ROOT, f + " ± " + f, v * scale, ci * scale);
    }
}
