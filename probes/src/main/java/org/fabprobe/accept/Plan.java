package org.fabprobe.accept;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.fabprobe.api.SizeList;

/**
 * The measurements a spec needs, each run once: checks on the same command, transport and
 * options share one run. Where a command measures several sizes (pingpong, bandwidth) or
 * operations and process counts (collectives) in one run, the checks that differ only in those
 * share it too, and the run measures their union.
 */
public final class Plan {
    /** One run of a fabprobe command: its command line (as the command itself takes it) and the checks it feeds. */
    public record Measurement(String id, String command, String transport, List<String> args, List<Check> checks) {
        public String commandLine() {
            return String.join(" ", args);
        }
    }

    private Plan() {}

    public static List<Measurement> of(Spec spec) {
        Map<String, Group> groups = new LinkedHashMap<>();
        for (Check c : spec.checks()) {
            Map<String, String> o = c.options();
            String command = c.command();
            List<String> shared = switch (c.figure()) { // what must be equal to share a run
                case HALF_RTT, PINGPONG_BANDWIDTH, WRITE_LATENCY, READ_LATENCY, ATOMIC_LATENCY ->
                        List.of(o.getOrDefault("reps", "1000"), c.figure().op(o));
                case BANDWIDTH, WRITE_BANDWIDTH -> List.of(o.getOrDefault("window", "64"), o.getOrDefault("reps", "100"),
                        c.figure().op(o));
                case REGISTRATION -> List.of(o.getOrDefault("reps", "10"));
                case PARAMETER -> List.of(o.get("sizes"), o.getOrDefault("adaptive_limit", ""));
                case MPI_OVERHEAD -> List.of(o.get("mpi"), o.getOrDefault("method", "plogp"), o.get("sizes"),
                        o.getOrDefault("calls", "nonblocking"));
                case COLLECTIVE_T0 -> List.of(o.getOrDefault("sizes", ""));
                case MULTIPAIR_RAW_BANDWIDTH -> List.of(o.getOrDefault("sizes", ""), o.getOrDefault("reps", ""),
                        o.getOrDefault("samples", ""), o.getOrDefault("fit_from", ""));
                case MATRIX_OUTLIERS, MATRIX_WORST_RATIO -> List.of(o.get("procs"), o.getOrDefault("mode", "serial"),
                        o.getOrDefault("threshold", ""), matrixSizeOption(o), o.getOrDefault("size", ""));
            };
            String key = command + "\u0000" + c.transport() + "\u0000" + String.join("\u0000", shared);
            Group g = groups.computeIfAbsent(key, k -> new Group(command, c.transport(), c));
            g.checks.add(c);
            if (o.containsKey("size")) g.sizes.add(SizeList.size(o.get("size")));
            if (c.figure() == Figure.ATOMIC_LATENCY) g.sizes.add(8L); // an atomic's operand
            if (o.containsKey("operation")) g.operations.add(o.get("operation"));
            if (o.containsKey("procs")) g.procs.add(Integer.parseInt(o.get("procs")));
        }
        List<Measurement> plan = new ArrayList<>();
        for (Group g : groups.values()) {
            plan.add(new Measurement("m" + (plan.size() + 1), g.command, g.transport, g.args(spec), List.copyOf(g.checks)));
        }
        return plan;
    }

    /** A matrix check's size is the latency's (of: half_rtt) or the bandwidth's (of: bandwidth). */
    private static String matrixSizeOption(Map<String, String> o) {
        return "bandwidth".equals(o.get("of")) ? "--bandwidth-size" : "--latency-size";
    }

    /** The checks of one run, and the union of their sizes, operations and process counts. */
    private static final class Group {
        final String command, transport;
        final Check first; // the options that must be equal are the same in every check of the group
        final List<Check> checks = new ArrayList<>();
        final TreeSet<Long> sizes = new TreeSet<>();
        final TreeSet<String> operations = new TreeSet<>();
        final TreeSet<Integer> procs = new TreeSet<>();

        Group(String command, String transport, Check first) {
            this.command = command;
            this.transport = transport;
            this.first = first;
        }

        List<String> args(Spec spec) {
            Map<String, String> o = first.options();
            List<String> a = new ArrayList<>(List.of(command, "-t", transport));
            String op = first.figure().op(o); // two-sided runs keep the command lines they had before --op
            switch (command) {
                case "pingpong" -> {
                    a.addAll(List.of("-s", join(sizes), "-n", o.getOrDefault("reps", "1000")));
                    if (!op.equals("send")) a.addAll(List.of("--op", op));
                }
                case "bandwidth" -> {
                    a.addAll(List.of("-s", join(sizes), "-w", o.getOrDefault("window", "64"), "-n", o.getOrDefault("reps", "100")));
                    if (!op.equals("send")) a.addAll(List.of("--op", op));
                }
                case "register" -> a.addAll(List.of("-s", join(sizes), "-n", o.getOrDefault("reps", "10")));
                case "plogp", "loggp" -> {
                    a.addAll(List.of("-s", o.get("sizes")));
                    if (o.containsKey("adaptive_limit")) a.addAll(List.of("--adaptive-limit", o.get("adaptive_limit")));
                }
                case "compare" -> a.addAll(List.of("--mpi", o.get("mpi"), "--method", o.getOrDefault("method", "plogp"),
                        "-s", o.get("sizes"), "--calls", o.getOrDefault("calls", "nonblocking")));
                case "collectives" -> {
                    a.addAll(List.of("--procs", join(procs), "--ops", String.join(",", operations)));
                    if (o.containsKey("sizes")) a.addAll(List.of("-s", o.get("sizes")));
                }
                case "multipair" -> {
                    if (o.containsKey("sizes")) a.addAll(List.of("-s", o.get("sizes")));
                    if (o.containsKey("reps")) a.addAll(List.of("--reps", o.get("reps")));
                    if (o.containsKey("samples")) a.addAll(List.of("--samples", o.get("samples")));
                    if (o.containsKey("fit_from")) a.addAll(List.of("--fit-from", o.get("fit_from")));
                }
                case "matrix" -> {
                    a.addAll(List.of("--ranks", o.get("procs"), "--mode", o.getOrDefault("mode", "serial")));
                    if (o.containsKey("threshold")) a.addAll(List.of("--outlier-k", o.get("threshold")));
                    if (o.containsKey("size")) a.addAll(List.of(matrixSizeOption(o), o.get("size")));
                }
                default -> throw new IllegalStateException("no plan for " + command);
            }
            boolean session = List.of("pingpong", "bandwidth", "plogp", "loggp").contains(command);
            if (spec.timeout() != null && (session || command.equals("compare") || command.equals("matrix"))) a.addAll(List.of("--timeout", spec.timeout()));
            if (spec.cpus() != null && session) a.addAll(List.of("--cpus", spec.cpus()));
            if (spec.peer() != null && session) {
                a.addAll(List.of("--peer", spec.peer()));
                if (spec.secretFile() != null) a.addAll(List.of("--secret-file", spec.secretFile()));
            }
            // matrix and register have no progress line; multipair's runs recorded before it had --quiet match without it
            a.addAll(List.of("matrix", "multipair", "register").contains(command) ? List.of("--json", "-") : List.of("--json", "-", "--quiet"));
            return List.copyOf(a);
        }

        private static String join(java.util.Collection<? extends Number> values) {
            return String.join(",", values.stream().map(String::valueOf).toList());
        }
    }
}
