package org.fabprobe.accept;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.fabprobe.api.Durations;
import org.fabprobe.api.SizeList;
import org.fabprobe.transport.TransportName;
import org.fabprobe.transport.mpi.MpiSelection;
import org.fabprobe.transport.sim.SimParameters;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * Reads a spec file and validates all of it before anything runs: YAML syntax (SnakeYAML
 * Engine's node tree keeps each node's line and column), known keys only, values of the right
 * kind, units of the figure's dimension, bounds a measurement can meet, transports fabprobe
 * knows by name (whether they are here is {@link Availability}'s question). The first problem
 * ends the reading with a {@link SpecException} naming file:line:column.
 */
public final class SpecReader {
    static final List<String> TOP_KEYS = List.of("system", "description", "peer", "secret_file", "timeout", "cpus", "checks");

    /** UCX_TLS names and aliases (UCX 1.x documentation); which of them exist here is {@link Availability}'s question. */
    static final Set<String> UCX_TLS_NAMES = Set.of("all", "sm", "shm", "mm", "posix", "sysv", "xpmem", "cma", "knem",
            "tcp", "self", "ib", "rc", "rc_v", "rc_x", "rc_verbs", "rc_mlx5", "ud", "ud_v", "ud_x", "ud_verbs", "ud_mlx5",
            "dc", "dc_x", "dc_mlx5", "srd", "cuda", "cuda_copy", "cuda_ipc", "gdr_copy", "rocm", "rocm_copy", "rocm_ipc",
            "rocm_gdr", "ze_copy", "ze_ipc", "ugni", "ugni_rdma", "ugni_udt", "ugni_smsg");

    private final String file;

    private SpecReader(String file) {
        this.file = file;
    }

    public static Spec read(Path path) {
        if (Files.isDirectory(path)) throw new SpecException(path.toString(), "is a directory");
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new SpecException(path.toString(), "no such spec file");
        } catch (java.nio.charset.MalformedInputException e) {
            throw new SpecException(path.toString(), "not UTF-8 text");
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new SpecException(path.toString(), "cannot read the spec: " + e);
        }
        return new SpecReader(path.toString()).parse(path, text);
    }

    private Spec parse(Path path, String text) {
        Node root;
        try {
            LoadSettings settings = LoadSettings.builder().setLabel(file).build();
            root = new Compose(settings).composeString(text).orElse(null);
        } catch (MarkedYamlEngineException e) {
            Optional<Mark> mark = e.getProblemMark().or(e::getContextMark);
            String problem = e.getProblem() == null ? e.getMessage() : e.getProblem();
            String context = e.getContext() == null ? "" : " (" + e.getContext() + ")";
            throw new SpecException(mark.map(this::where).orElse(file), "malformed YAML: " + oneLine(problem) + context);
        } catch (YamlEngineException e) {
            throw new SpecException(file, "malformed YAML: " + oneLine(e.getMessage()));
        }
        if (root == null) throw new SpecException(file + ":1:1", "empty spec: it needs system: and checks:");
        Map<String, NodeTuple> top = mapping(root, "the spec", TOP_KEYS);
        String system = required(top, "system", root);
        String description = optional(top, "description");
        String peer = optional(top, "peer");
        String secretFile = optional(top, "secret_file");
        String timeout = optional(top, "timeout");
        if (timeout != null) {
            try {
                Durations.parse(timeout);
            } catch (RuntimeException e) {
                throw new SpecException(where(top.get("timeout").getValueNode()), "timeout: " + e.getMessage());
            }
        }
        String cpus = optional(top, "cpus");
        if (cpus != null && !cpus.matches("\\d+,\\d+")) {
            throw new SpecException(where(top.get("cpus").getValueNode()), "cpus: two CPUs A,B (measure on A, mirror on B), not '" + cpus + "'");
        }
        NodeTuple checksTuple = top.get("checks");
        if (checksTuple == null) throw new SpecException(where(root), "missing key 'checks' (a list of checks)");
        if (!(checksTuple.getValueNode() instanceof SequenceNode list) || list.getValue().isEmpty()) {
            throw new SpecException(where(checksTuple.getValueNode()), "checks: must be a non-empty list of checks");
        }
        List<Check> checks = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Node item : list.getValue()) {
            Check c = check(item, peer != null);
            if (!names.add(c.name())) throw new SpecException(c.where(), "a second check named '" + c.name() + "'");
            checks.add(c);
        }
        return new Spec(path, system, description, peer, secretFile, timeout, cpus, List.copyOf(checks));
    }

    private Check check(Node node, boolean peer) {
        // the figure decides which keys are allowed: read it first
        Map<String, NodeTuple> all = mapping(node, "a check", null);
        String figureName = required(all, "figure", node);
        Figure figure = Figure.of(figureName);
        Node figureNode = all.get("figure").getValueNode();
        if (figure == null) {
            throw new SpecException(where(figureNode), "unknown figure '" + figureName + "' (figures: " + Figure.names() + ")");
        }
        List<String> allowed = new ArrayList<>(Figure.COMMON_KEYS);
        allowed.addAll(figure.requiredKeys);
        allowed.addAll(figure.optionalKeys);
        mapping(node, "a " + figure.key() + " check", allowed); // unknown keys
        String name = required(all, "name", node);
        String transport = required(all, "transport", node);
        Node transportNode = all.get("transport").getValueNode();
        String transportProblem = transportProblem(transport);
        if (transportProblem != null) throw new SpecException(where(transportNode), transportProblem);
        TransportName parsed = TransportName.parseOrNull(transport);
        boolean mpi = parsed instanceof TransportName.Mpi, sim = parsed instanceof TransportName.Sim;
        if ((figure == Figure.COLLECTIVE_T0 || figure == Figure.MULTIPAIR_RAW_BANDWIDTH) && !mpi) {
            throw new SpecException(where(transportNode), figure.key() + " runs at MPI level: transport must be mpi:IMPL[/SELECTION], not '" + transport + "'");
        }
        if (figure == Figure.MPI_OVERHEAD && (mpi || sim)) {
            throw new SpecException(where(transportNode), "mpi_overhead: transport names the raw transport (ofi: or ucx:); the MPI goes in mpi:");
        }
        if (figure == Figure.REGISTRATION && (mpi || sim)) {
            throw new SpecException(where(transportNode), "registration is measured on ofi: or ucx: (fabprobe register), not '" + transport + "'");
        }
        if (peer && (mpi || figure == Figure.MPI_OVERHEAD || sim)) {
            throw new SpecException(where(transportNode), "peer: measures raw ofi:/ucx: transports against a mirror by hand;"
                    + " '" + transport + "' (" + figure.key() + ") would run on this machine alone");
        }

        Map<String, String> options = new LinkedHashMap<>();
        for (String key : figure.requiredKeys) required(all, key, node);
        for (String key : allowed) {
            if (Figure.COMMON_KEYS.contains(key) || !all.containsKey(key)) continue;
            Node valueNode = all.get(key).getValueNode();
            String value = scalar(valueNode, key);
            String problem = optionProblem(key, value, options, transport);
            if (problem != null) throw new SpecException(where(valueNode), key + ": " + problem);
            options.put(key, value);
        }
        if ("loggp".equals(options.get("method")) && options.containsKey("adaptive_limit")) {
            throw new SpecException(where(all.get("adaptive_limit").getKeyNode()), "adaptive_limit: plogp's (loggp measures the sizes given)");
        }
        if ("loggp".equals(options.get("method")) && "o_r".equals(options.get("parameter"))) {
            throw new SpecException(where(all.get("parameter").getValueNode()),
                    "parameter: loggp measures one overhead (o_s); o_r is plogp's (method: plogp)");
        }

        String referenceText = required(all, "reference", node);
        double reference = number(referenceText, all.get("reference").getValueNode(), "reference");
        Double lower = tolerance(all.get("lower"), true);
        Double upper = tolerance(all.get("upper"), false);
        if (lower == null && upper == null) {
            throw new SpecException(where(node), "check '" + name + "' has neither lower: nor upper: (it could never fail)");
        }
        String unitName = required(all, "unit", node);
        Node unitNode = all.get("unit").getValueNode();
        Units.Unit unit = Units.find(unitName);
        Units.Dimension dimension = figure.dimension(options);
        if (unit == null) {
            throw new SpecException(where(unitNode), "unknown unit '" + unitName + "'; " + figure.key() + " is a "
                    + dimension + ": " + Units.namesOf(dimension));
        }
        if (unit.dimension() != dimension) {
            throw new SpecException(where(unitNode), "unit '" + unitName + "' is a " + unit.dimension() + ", but "
                    + figure.key() + (options.containsKey("parameter") ? " " + options.get("parameter") : "") + " is a "
                    + dimension + ": use " + Units.namesOf(dimension));
        }
        Check c = new Check(name, figure, transport, Map.copyOf(options), reference, lower, upper, unit, where(node),
                valuesWhere(all));
        checkBounds(c);
        return c;
    }

    /**
     * Refuses bounds that no measurement could meet: a negative reference or lower bound on a
     * figure that is never negative, an interval of width 0 around a figure measured with an
     * uncertainty, or an upper bound of 0 on one that is also never negative. (An empty interval
     * cannot be written: lower is <= 0 <= upper.)
     */
    private static void checkBounds(Check c) {
        Figure f = c.figure();
        String unit = " " + c.unit().name();
        String figure = f.key() + (c.options().containsKey("parameter") ? " " + c.options().get("parameter") : "");
        double lo = c.lowerBound(), hi = c.upperBound();
        if (!f.canBeNegative() && c.reference() < 0) {
            throw new SpecException(c.whereOf("reference"), "reference: " + figure + " is never negative, so "
                    + Acceptance.Format.number(c.reference()) + unit + " cannot be met");
        }
        if (!f.canBeNegative() && c.lower() != null && lo < 0) {
            throw new SpecException(c.whereOf("lower"), "lower: " + Acceptance.Format.number(c.lower() * 100)
                    + "% puts the lower bound at " + Acceptance.Format.number(lo) + unit + ", but " + figure
                    + " is never negative (-100% puts it at 0; without lower: there is none)");
        }
        if (f.exact()) return; // judged as measured: a bound can be met exactly
        String never = figure + ", measured with an uncertainty, never lies within " + Acceptance.Format.bounds(lo, hi) + unit;
        if (c.reference() == 0 && c.upper() != null && (c.lower() != null || !f.canBeNegative())) {
            throw new SpecException(c.whereOf("reference"), "reference: 0 scales every tolerance to 0: " + never);
        }
        if (lo == hi) {
            throw new SpecException(c.whereOf("upper"), "upper: 0% with lower: 0% leaves an interval of width 0: " + never);
        }
    }

    /** Where each key's value is written, by key. */
    private Map<String, String> valuesWhere(Map<String, NodeTuple> keys) {
        Map<String, String> m = new LinkedHashMap<>();
        keys.forEach((key, tuple) -> m.put(key, where(tuple.getValueNode())));
        return Map.copyOf(m);
    }

    /** Why a transport name is not one fabprobe knows, or null. Whether it is offered here is asked later. */
    static String transportProblem(String transport) {
        TransportName parsed = TransportName.parseOrNull(transport);
        String detail = parsed == null ? "" : parsed.detail();
        switch (parsed) {
            case TransportName.Ofi ofi -> {
                if (!detail.matches("[A-Za-z0-9_]+(;[A-Za-z0-9_]+)?")) {
                    return "unknown transport '" + transport + "': ofi:PROVIDER, e.g. ofi:shm, ofi:tcp, ofi:verbs";
                }
            }
            case TransportName.Ucx ucx -> {
                if (detail.isEmpty()) return "unknown transport '" + transport + "': ucx:TLS, e.g. ucx:tcp, ucx:posix,cma";
                for (String tl : detail.split(",")) {
                    String name = tl.startsWith("^") ? tl.substring(1) : tl;
                    if (!UCX_TLS_NAMES.contains(name)) {
                        return "unknown transport '" + transport + "': '" + name + "' is not a UCX transport (UCX_TLS names: "
                                + String.join(", ", new java.util.TreeSet<>(UCX_TLS_NAMES)) + ")";
                    }
                }
            }
            case TransportName.Sim sim -> {
                try {
                    SimParameters.parse(detail);
                } catch (RuntimeException e) {
                    return "unknown transport '" + transport + "': " + e.getMessage();
                }
            }
            case TransportName.Mpi mpi -> {
                try {
                    MpiSelection.parse(transport);
                } catch (RuntimeException e) {
                    return "unknown transport '" + transport + "': " + e.getMessage();
                }
            }
            case null -> {
                return "unknown transport '" + transport + "': use ofi:PROVIDER, ucx:TLS, mpi:IMPL/SELECTION or sim:L=..,os=..";
            }
        }
        return null;
    }

    /** Why a figure key's value is wrong, or null. {@code before}: the keys read so far. */
    private static String optionProblem(String key, String value, Map<String, String> before, String transport) {
        try {
            switch (key) {
                case "size", "at", "fit_from", "adaptive_limit" -> SizeList.size(value);
                case "sizes" -> SizeList.parse(value);
                case "reps", "window", "samples", "procs" -> {
                    int n = Integer.parseInt(value);
                    if (n < 1) return "must be a whole number >= 1, not " + value;
                    if (key.equals("procs") && n < 2) return "must be >= 2";
                }
                case "method" -> {
                    if (!value.equals("plogp") && !value.equals("loggp")) return "plogp or loggp, not '" + value + "'";
                }
                case "parameter" -> {
                    if (!Figure.PARAMETERS.contains(value)) return "one of L, o_s, o_r, g, G, not '" + value + "'";
                }
                case "calls" -> {
                    if (!value.equals("blocking") && !value.equals("nonblocking")) return "blocking or nonblocking, not '" + value + "'";
                }
                case "operation" -> {
                    if (!Figure.OPERATIONS.contains(value)) {
                        return "one of " + String.join(", ", new java.util.TreeSet<>(Figure.OPERATIONS)) + ", not '" + value + "'";
                    }
                }
                case "mpi" -> {
                    String name = "mpi:" + (value.contains("/") ? value : value + "/" + transport);
                    String problem = transportProblem(name);
                    if (problem != null) return problem;
                }
                case "op" -> {
                    if (!Figure.ATOMICS.contains(value)) return "fetch-add or cswap, not '" + value + "'";
                }
                case "pages" -> {
                    if (!value.equals("fresh") && !value.equals("reused")) return "fresh or reused, not '" + value + "'";
                }
                case "mode" -> {
                    if (!value.equals("serial") && !value.equals("parallel")) return "serial or parallel, not '" + value + "'";
                }
                case "of" -> {
                    if (!value.equals("half_rtt") && !value.equals("bandwidth")) return "half_rtt or bandwidth, not '" + value + "'";
                }
                case "threshold" -> {
                    if (!(Double.parseDouble(value) > 0)) return "must be > 0";
                }
                default -> throw new IllegalStateException("no rule for key " + key);
            }
        } catch (NumberFormatException e) {
            return "not a number: '" + value + "'";
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        return null;
    }

    /** A relative tolerance: a number (-0.2) or a percentage ("-20%"); null or absent: that side is open. */
    private Double tolerance(NodeTuple tuple, boolean lower) {
        if (tuple == null) return null;
        Node node = tuple.getValueNode();
        String text = scalar(node, lower ? "lower" : "upper").strip();
        if (text.isEmpty() || text.equals("~") || text.equalsIgnoreCase("null")) return null;
        double t = text.endsWith("%") ? number(text.substring(0, text.length() - 1).strip(), node, "tolerance") / 100
                : number(text, node, "tolerance");
        if (lower && t > 0) throw new SpecException(where(node), "lower: a tolerance below the reference is <= 0 (e.g. -0.2 or -20%), not " + text);
        if (!lower && t < 0) throw new SpecException(where(node), "upper: a tolerance above the reference is >= 0 (e.g. 0.5 or 50%), not " + text);
        return t;
    }

    private double number(String text, Node node, String what) {
        try {
            double v = Double.parseDouble(text.strip());
            if (Double.isFinite(v)) return v;
        } catch (NumberFormatException e) {
            // below
        }
        throw new SpecException(where(node), what + ": not a number: '" + text + "'");
    }

    /**
     * The keys of a mapping node, refusing duplicates and, when {@code allowed} is given, any
     * other key.
     */
    private Map<String, NodeTuple> mapping(Node node, String what, List<String> allowed) {
        if (!(node instanceof MappingNode m)) throw new SpecException(where(node), what + " must be a mapping of key: value");
        Map<String, NodeTuple> keys = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            String key = scalar(t.getKeyNode(), "a key");
            if (keys.put(key, t) != null) throw new SpecException(where(t.getKeyNode()), "duplicate key '" + key + "'");
            if (allowed != null && !allowed.contains(key)) {
                throw new SpecException(where(t.getKeyNode()), "unknown key '" + key + "' in " + what + " (allowed: "
                        + String.join(", ", allowed) + ")");
            }
        }
        return keys;
    }

    private String required(Map<String, NodeTuple> keys, String key, Node owner) {
        NodeTuple t = keys.get(key);
        if (t == null) throw new SpecException(where(owner), "missing key '" + key + "'");
        String value = scalar(t.getValueNode(), key);
        if (value.isBlank()) throw new SpecException(where(t.getValueNode()), key + ": empty");
        return value.strip();
    }

    private String optional(Map<String, NodeTuple> keys, String key) {
        NodeTuple t = keys.get(key);
        return t == null ? null : scalar(t.getValueNode(), key).strip();
    }

    private String scalar(Node node, String what) {
        if (!(node instanceof ScalarNode s)) throw new SpecException(where(node), what + ": must be a single value");
        return s.getValue();
    }

    private String where(Node node) {
        return node.getStartMark().map(this::where).orElse(file);
    }

    private String where(Mark mark) {
        return file + ":" + (mark.getLine() + 1) + ":" + (mark.getColumn() + 1); // Marks count from 0
    }

    private static String oneLine(String s) {
        return String.valueOf(s).replaceAll("\\s*\\n\\s*", " ").strip();
    }
}
