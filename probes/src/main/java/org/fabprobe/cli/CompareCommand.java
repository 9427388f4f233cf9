package org.fabprobe.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.report.Json;
import org.fabprobe.report.JsonReader;
import org.fabprobe.launch.MpiLauncher;
import org.fabprobe.transport.mpi.MpiSelection;
import org.fabprobe.transport.mpi.MpiWorld;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `fabprobe compare`: one method on a raw transport and on MPI over the same transport; per
 * size range raw, MPI and the difference (the MPI library's own overhead), each with its 95 %
 * uncertainty. It runs the two measurements as the ordinary commands would (raw in local
 * mode, MPI as two ranks under mpirun) and reads their JSON.
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

    @Override
    public Integer call() throws IOException {
        if (!method.equals("plogp") && !method.equals("loggp")) {
            throw new IllegalArgumentException("--method must be plogp or loggp, not '" + method + "'");
        }
        if (raw.startsWith("mpi:")) throw new IllegalArgumentException("-t names the raw transport; MPI goes in --mpi");
        String mpiTransport = "mpi:" + (mpi.contains("/") ? mpi : mpi + "/" + raw);
        MpiSelection selection = MpiSelection.parse(mpiTransport); // bad names fail before anything runs
        if (!calls.equals("blocking") && !calls.equals("nonblocking")) {
            throw new IllegalArgumentException("--calls must be blocking or nonblocking, not '" + calls + "'");
        }
        String startedAt = Instant.now().toString();
        if (MpiLauncher.underLauncher()) {
            // raw and MPI between the same two ranks: MPI starts once, with the MPI side's
            // settings, and the raw run's bootstrap uses that same world
            if (MpiWorld.open(mpiTransport).rank() != 0) {
                measure(raw, "nonblocking");
                measure(mpiTransport, calls);
                return 0; // a mirror or idle rank: rank 0 reports
            }
        }
        Map<String, Object> rawDoc = measure(raw, "nonblocking");
        Map<String, Object> mpiDoc = measure(mpiTransport, calls);
        List<Map<String, Object>> rows = differences(sets(rawDoc), sets(mpiDoc));
        List<String> flags = flags(rows);
        Map<String, Object> ucx = ucxSettings(rawDoc, mpiDoc);
        flags.addAll(ucxFlags(ucx));
        if (json != null) {
            Map<String, Object> doc = Json.object("schema", "fabprobe.compare/1", "method", method, "started_at", startedAt,
                    "raw_transport", raw, "mpi_transport", mpiTransport, "mpi_environment", selection.environment(),
                    "raw_calls", "nonblocking", "mpi_calls", calls, "calls_note", callsNote(), "ucx_settings", ucx,
                    "ranges", rows, "flags", flags, "raw", rawDoc, "mpi", mpiDoc);
            Output.write(json, Json.write(doc) + "\n");
            if (json.toString().equals("-")) return 0;
        }
        System.out.print(table(rawDoc, mpiDoc, mpiTransport, rows, flags, ucx));
        return 0;
    }

    /** Runs the method as its own command would and returns its JSON document. */
    private Map<String, Object> measure(String transport, String callStyle) {
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int code;
        try (PrintStream into = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            System.setOut(into);
            code = Main.run(method, "-t", transport, "-s", sizes, "--timeout", timeout, "--calls", callStyle, "--json", "-");
        } finally {
            System.setOut(stdout);
        }
        if (code != 0) throw new FabprobeException(code, "compare: the " + method + " run on " + transport + " failed (exit " + code + ")");
        if (MpiWorld.currentRank() > 0) return Map.of();
        String text = captured.toString(StandardCharsets.UTF_8);
        int start = text.indexOf('{'); // a launcher may print a line of its own first
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> doc = (Map<String, Object>) JsonReader.parse(text.substring(Math.max(start, 0)).strip());
            return doc;
        } catch (RuntimeException e) {
            throw new FabprobeException(ExitCode.TRANSPORT_ERROR, "compare: unreadable result from " + transport + ": " + e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> sets(Map<String, Object> doc) {
        return (List<Map<String, Object>>) doc.get("parameters");
    }

    /** Each MPI range against the raw range that holds its first size. */
    static List<Map<String, Object>> differences(List<Map<String, Object>> raw, List<Map<String, Object>> mpi) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Map<String, Object> m : mpi) {
            double from = number(m.get("from_bytes"));
            Map<String, Object> r = raw.stream().filter(x -> number(x.get("from_bytes")) <= from
                    && from <= number(x.get("to_bytes"))).findFirst().orElse(raw.isEmpty() ? null : raw.getFirst());
            if (r == null) continue;
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("from_bytes", m.get("from_bytes"));
            row.put("to_bytes", m.get("to_bytes"));
            row.put("raw_range", List.of(r.get("from_bytes"), r.get("to_bytes")));
            for (String p : PARAMETERS) {
                double[] a = estimate(r.get(p)), b = estimate(m.get(p));
                Map<String, Object> cell = new LinkedHashMap<>();
                cell.put("raw", Json.object("value", a[0], "ci95", a[1]));
                cell.put("mpi", Json.object("value", b[0], "ci95", b[1]));
                cell.put("difference", Json.object("value", b[0] - a[0], "ci95", Math.hypot(a[1], b[1])));
                row.put(p, cell);
            }
            rows.add(row);
        }
        return rows;
    }

    /** MPI adds work to raw: a clearly smaller MPI overhead means one of the two runs is off. */
    static List<String> flags(List<Map<String, Object>> rows) {
        List<String> flags = new ArrayList<>();
        for (Map<String, Object> row : rows) {
            for (String p : new String[] {"o_s_ns", "o_r_ns"}) {
                @SuppressWarnings("unchecked")
                Map<String, Object> d = (Map<String, Object>) ((Map<String, Object>) row.get(p)).get("difference");
                double v = number(d.get("value")), ci = number(d.get("ci95"));
                if (v + (Double.isNaN(ci) ? 0 : ci) < 0) {
                    flags.add(String.format(Locale.ROOT, "%s: MPI below raw by %.0f ns (beyond uncertainty) in %s..%s B",
                            p.replace("_ns", ""), -v, fmt(row.get("from_bytes")), fmt(row.get("to_bytes"))));
                }
            }
        }
        return flags;
    }

    @SuppressWarnings("unchecked")
    private String table(Map<String, Object> rawDoc, Map<String, Object> mpiDoc, String mpiTransport,
                         List<Map<String, Object>> rows, List<String> flags, Map<String, Object> ucx) {
        StringBuilder b = new StringBuilder();
        Map<String, Object> mpiFacts = (Map<String, Object>) mpiDoc.get("transport_facts");
        b.append(String.format(Locale.ROOT, "fabprobe compare  %s  raw %s  vs  %s (%s)%n", method, raw, mpiTransport,
                mpiFacts == null ? "?" : mpiFacts.get("library")));
        b.append("calls: ").append(callsNote()).append('\n');
        if (!ucx.isEmpty()) b.append("UCX pinned: raw ").append(ucx.get("raw")).append(", MPI ").append(ucx.get("mpi")).append('\n');
        for (Map<String, Object> row : rows) {
            List<Object> rawRange = (List<Object>) row.get("raw_range");
            b.append(String.format(Locale.ROOT, "%nMPI range %s..%s B (raw range %s..%s B)%n", fmt(row.get("from_bytes")),
                    fmt(row.get("to_bytes")), fmt(rawRange.get(0)), fmt(rawRange.get(1))));
            b.append(String.format(Locale.ROOT, "%-10s %20s %20s %22s%n", "", "raw", "MPI", "MPI - raw"));
            for (String p : PARAMETERS) {
                Map<String, Object> cell = (Map<String, Object>) row.get(p);
                boolean perByte = p.equals("G_ns_per_byte");
                double scale = perByte ? 1 : 1e-3;
                b.append(String.format(Locale.ROOT, "%-10s %20s %20s %22s%n", perByte ? "G ns/B" : p.replace("_ns", "") + " µs",
                        pm((Map<String, Object>) cell.get("raw"), scale, perByte), pm((Map<String, Object>) cell.get("mpi"), scale, perByte),
                        pm((Map<String, Object>) cell.get("difference"), scale, perByte)));
            }
        }
        b.append(String.format(Locale.ROOT, "%n± is the 95 %% uncertainty; MPI - raw is the library's own overhead.%n"));
        for (String f : flags) b.append("FLAG ").append(f).append('\n');
        return b.toString();
    }

    /** The UCX settings each side pinned (facts ucx.*), where either side runs over UCX. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> ucxSettings(Map<String, Object> rawDoc, Map<String, Object> mpiDoc) {
        Map<String, Object> rawUcx = ucxFacts((Map<String, Object>) rawDoc.get("transport_facts"));
        Map<String, Object> mpiUcx = ucxFacts((Map<String, Object>) mpiDoc.get("transport_facts"));
        if (rawUcx.isEmpty() && mpiUcx.isEmpty()) return new LinkedHashMap<>();
        return Json.object("raw", rawUcx, "mpi", mpiUcx);
    }

    private static Map<String, Object> ucxFacts(Map<String, Object> facts) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (facts != null) facts.forEach((k, v) -> {
            if (k.startsWith("ucx.")) m.put(k.substring(4), v);
        });
        return m;
    }

    /** Like for like: the same pinned UCX settings on both sides (the MPI's own "self" transport aside). */
    @SuppressWarnings("unchecked")
    static List<String> ucxFlags(Map<String, Object> ucx) {
        List<String> flags = new ArrayList<>();
        if (ucx.isEmpty()) return flags;
        Map<String, Object> raw = (Map<String, Object>) ucx.get("raw"), mpi = (Map<String, Object>) ucx.get("mpi");
        java.util.Set<String> keys = new java.util.TreeSet<>(raw.keySet());
        keys.addAll(mpi.keySet());
        for (String key : keys) {
            String a = String.valueOf(raw.get(key)), b = String.valueOf(mpi.get(key));
            if (key.equals("TLS")) b = b.replace(",self", "");
            if (!a.equals(b)) {
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

    private static String pm(Map<String, Object> e, double scale, boolean perByte) {
        double v = number(e.get("value")), ci = number(e.get("ci95"));
        if (Double.isNaN(v)) return "–";
        String f = perByte ? "%.4f" : "%.3f";
        return Double.isNaN(ci) ? String.format(Locale.ROOT, f, v * scale)
                : String.format(Locale.ROOT, f + " ± " + f, v * scale, ci * scale);
    }

    private static double[] estimate(Object o) {
        if (!(o instanceof Map<?, ?> m)) return new double[] {Double.NaN, Double.NaN};
        return new double[] {number(m.get("value")), number(m.get("ci95"))};
    }

    private static double number(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static String fmt(Object bytes) {
        return String.format(Locale.ROOT, "%.0f", number(bytes));
    }
}
