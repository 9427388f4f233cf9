package org.fabprobe.accept;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import org.fabprobe.api.SizeList;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.Statistics;
import org.fabprobe.result.BandwidthDocument;
import org.fabprobe.result.CollectivesDocument;
import org.fabprobe.result.CompareDocument;
import org.fabprobe.result.HockneyRange;
import org.fabprobe.result.MatrixDocument;
import org.fabprobe.result.MethodDocument;
import org.fabprobe.result.ParameterRange;
import org.fabprobe.result.PingPongDocument;
import org.fabprobe.result.RegisterDocument;
import org.fabprobe.result.ResultJson;

/**
 * Reads each check's figure from its measurement's document: value and 95 % uncertainty in the
 * figure's base unit (ns, MB/s, ns/B), and where in the document it was read.
 */
public final class Figures {
    /**
     * A figure as read, in its base unit: the value, its 95 % interval [low, high] (NaN when the
     * document gives none; lopsided for a bandwidth, size / time), and where it was read.
     */
    public record Reading(double value, double low, double high, String at) {
        Reading(double value, double ci95, String at) {
            this(value, value - Math.abs(ci95), value + Math.abs(ci95), at);
        }
    }

    /** A figure that its document does not hold: the check is an ERROR, with this message. */
    public static final class Missing extends RuntimeException {
        Missing(String message) {
            super(message);
        }
    }

    private Figures() {}

    /** A run's typed document as the checks read it: multipair's figures are read from its JSON tree. */
    public static Object typed(String command, Object document, JsonNode tree) {
        return command.equals("multipair") ? tree : document;
    }

    /** The command's document, typed (multipair: its JSON tree; it has no record in this build). */
    public static Object parse(String command, String json) {
        return switch (command) {
            case "pingpong" -> ResultJson.read(json, PingPongDocument.class);
            case "bandwidth" -> ResultJson.read(json, BandwidthDocument.class);
            case "plogp", "loggp" -> ResultJson.read(json, MethodDocument.class);
            case "compare" -> ResultJson.read(json, CompareDocument.class);
            case "collectives" -> ResultJson.read(json, CollectivesDocument.class);
            case "multipair" -> ResultJson.tree(json);
            case "matrix" -> ResultJson.read(json, MatrixDocument.class);
            case "register" -> ResultJson.read(json, RegisterDocument.class);
            default -> throw new IllegalArgumentException("no document for " + command);
        };
    }

    public static Reading read(Check c, Object document) {
        var o = c.options();
        return switch (c.figure()) {
            case HALF_RTT, WRITE_LATENCY, READ_LATENCY, ATOMIC_LATENCY -> {
                long size = c.figure() == Figure.ATOMIC_LATENCY ? 8 : SizeList.size(o.get("size"));
                PingPongDocument.Size s = pingPongSize((PingPongDocument) document, size);
                String op = c.figure().op(o);
                yield new Reading(s.halfRttNs().median(), s.medianCi95Ns(), (op.equals("send") ? "" : op + ", ") + human(s.sizeBytes()));
            }
            case PINGPONG_BANDWIDTH -> {
                PingPongDocument.Size s = pingPongSize((PingPongDocument) document, SizeList.size(o.get("size")));
                yield bandwidth(s.bandwidthMbS(), s.halfRttNs().median(), s.medianCi95Ns(), human(s.sizeBytes()));
            }
            case BANDWIDTH, WRITE_BANDWIDTH -> {
                long size = SizeList.size(o.get("size"));
                BandwidthDocument.Size s = ((BandwidthDocument) document).sizes().stream()
                        .filter(x -> x.sizeBytes() == size).findFirst()
                        .orElseThrow(() -> new Missing("no size " + size + " B in the bandwidth run"));
                // the document's interval is the mean window time's: wider than the median's where a few
                // windows were disturbed, so a conservative uncertainty for size x window / median
                yield bandwidth(s.bandwidthMbS(), s.windowNs().median(), s.windowNs().ci95(), (c.figure() == Figure.WRITE_BANDWIDTH ? "write, " : "") + human(size) + " x " + s.window());
            }
            case REGISTRATION -> registration((RegisterDocument) document, SizeList.size(o.get("size")),
                    "reused".equals(o.get("pages")));
            case PARAMETER -> {
                MethodDocument d = (MethodDocument) document;
                long at = at(o, d.parameters().isEmpty() ? 0 : d.parameters().getFirst().fromBytes());
                ParameterRange r = d.parameters().stream().filter(x -> x.fromBytes() <= at && at <= x.toBytes()).findFirst()
                        .orElseThrow(() -> new Missing("no " + c.command() + " size range holds " + at + " B"));
                Estimate v = parameter(r, o.get("parameter"));
                yield new Reading(v.value(), v.ci95(), "range " + human(r.fromBytes()) + " .. " + human(r.toBytes()));
            }
            case MPI_OVERHEAD -> {
                CompareDocument d = (CompareDocument) document;
                long at = at(o, d.ranges().isEmpty() ? 0 : d.ranges().getFirst().fromBytes());
                CompareDocument.Range r = d.ranges().stream().filter(x -> x.fromBytes() <= at && at <= x.toBytes()).findFirst()
                        .orElseThrow(() -> new Missing("no MPI size range of the comparison holds " + at + " B"));
                int i = List.of("L", "o_s", "o_r", "g", "G").indexOf(o.get("parameter"));
                Estimate v = r.cells().get(i).difference();
                yield new Reading(v.value(), v.ci95(), "MPI - raw, range " + human(r.fromBytes()) + " .. " + human(r.toBytes()));
            }
            case COLLECTIVE_T0 -> collectiveT0((CollectivesDocument) document, o.get("operation"),
                    Integer.parseInt(o.get("procs")), o.get("at"));
            case MULTIPAIR_RAW_BANDWIDTH -> multiPairRaw((JsonNode) document);
            case MATRIX_OUTLIERS -> matrixOutliers((MatrixDocument) document, o.get("of"));
            case MATRIX_WORST_RATIO -> matrixWorstRatio((MatrixDocument) document, o.get("of"));
        };
    }

    /**
     * The median time to register one buffer of {@code size}: on fresh pages, or (reused) the same
     * buffer again, where a registration cache can answer. Its interval is the one register reports
     * beside the median (of the mean: wider than the median's where a few samples ran long).
     */
    private static Reading registration(RegisterDocument d, long size, boolean reused) {
        RegisterDocument.Size s = d.sizes().stream().filter(x -> x.sizeBytes() == size).findFirst()
                .orElseThrow(() -> new Missing("no size " + size + " B in the register run"));
        RegisterDocument.Stats t = reused ? s.registerNs() : s.firstRegisterNs();
        return new Reading(t.median(), t.ci95(), human(size) + (reused ? ", reused pages" : ", fresh pages")
                + (d.registrationCache().active() ? " (registration cache active)" : ""));
    }

    /**
     * The pairs and hosts the matrix named as outliers (of: half_rtt or bandwidth, else both), a
     * count: exact, so its interval is the value itself.
     */
    private static Reading matrixOutliers(MatrixDocument d, String of) {
        String quantity = of == null ? null : of.equals("bandwidth") ? "bandwidth" : "latency";
        long n = d.outliers().stream()
                .filter(x -> x.kind().equals("pair") || x.kind().equals("host"))
                .filter(x -> quantity == null || x.quantity().equals(quantity)).count();
        return new Reading(n, 0, "outlier pairs and hosts" + (quantity == null ? "" : " (" + quantity + ")")
                + " of " + (long) d.ranks() * (d.ranks() - 1) / 2 + " pairs");
    }

    /**
     * The worst pair over the median pair (half_rtt: slowest / median; bandwidth: median /
     * lowest). The matrix gives no interval for it: it is judged as measured (its pairs'
     * disturbed ones are measured again before it is formed).
     */
    private static Reading matrixWorstRatio(MatrixDocument d, String of) {
        boolean bandwidth = "bandwidth".equals(of);
        double ratio = bandwidth ? d.summary().bandwidthWorstRatio() : d.summary().latencyWorstRatio();
        return new Reading(ratio, 0, (bandwidth ? "bandwidth" : "half-RTT") + " worst / median over "
                + (long) d.ranks() * (d.ranks() - 1) / 2 + " pairs");
    }

    /**
     * A bandwidth b = bytes / t with t's interval t +- ci carried through: [b t / (t + ci),
     * b t / (t - ci)], lopsided, and open above when ci >= t (the time could be anything down to 0).
     */
    static Reading bandwidth(double bandwidth, double time, double timeCi, String at) {
        if (Double.isNaN(timeCi)) return new Reading(bandwidth, Double.NaN, Double.NaN, at);
        double high = timeCi >= time ? Double.POSITIVE_INFINITY : bandwidth * time / (time - timeCi);
        return new Reading(bandwidth, bandwidth * time / (time + timeCi), high, at);
    }

    private static PingPongDocument.Size pingPongSize(PingPongDocument d, long size) {
        return d.sizes().stream().filter(x -> x.sizeBytes() == size).findFirst()
                .orElseThrow(() -> new Missing("no size " + size + " B in the ping-pong run"));
    }

    private static long at(java.util.Map<String, String> o, long first) {
        return o.containsKey("at") ? SizeList.size(o.get("at")) : first;
    }

    private static Estimate parameter(ParameterRange r, String name) {
        Estimate v = switch (name) {
            case "L" -> r.latencyNs();
            case "o_s" -> r.sendOverheadNs();
            case "o_r" -> r.recvOverheadNs();
            case "g" -> r.gapNs();
            case "G" -> r.gapPerByteNs();
            default -> throw new IllegalArgumentException(name);
        };
        if (v == null || Double.isNaN(v.value())) throw new Missing(name + " is not measured by this method");
        return v;
    }

    /** t0(p) of the Hockney range that holds {@code at} (default: the first); barrier: its median time. */
    private static Reading collectiveT0(CollectivesDocument d, String operation, int procs, String atText) {
        CollectivesDocument.Result r = d.results().stream()
                .filter(x -> x.operation().equals(operation) && x.procs() == procs).findFirst()
                .orElseThrow(() -> new Missing("no " + operation + " at p = " + procs + " in the collectives run"));
        if (r.t0Ns() != null) return new Reading(r.t0Ns(), r.t0Ci95Ns(), operation + ", p = " + procs);
        if (r.hockney().isEmpty()) throw new Missing("no Hockney fit for " + operation + " at p = " + procs + " (too few sizes)");
        long at = atText == null ? r.hockney().getFirst().fromBytes() : SizeList.size(atText);
        HockneyRange h = r.hockney().stream().filter(x -> x.fromBytes() <= at && at <= x.toBytes()).findFirst()
                .orElseThrow(() -> new Missing("no Hockney range of " + operation + " at p = " + procs + " holds " + at + " B"));
        // t0_err is one standard error of a line through `points` medians: Student-t at points - 2
        double ci = h.t0ErrNs() * Statistics.tQuantile975(h.points() - 2);
        return new Reading(h.t0Ns(), ci, operation + ", p = " + procs + ", range " + human(h.fromBytes()) + " .. " + human(h.toBytes()));
    }

    /**
     * B_r of the Hager-Wellein fit (model.MultiPairFit as multipair reports it: MB/s and one
     * standard error of a three-parameter fit, made 95 % by Student-t at points - 3).
     */
    private static Reading multiPairRaw(JsonNode d) {
        JsonNode model = d.path("model");
        if (!model.isObject()) throw new Missing("multipair fitted no model (see its notes: it needs 2 pairs and 4 sizes)");
        double value = model.path("raw_bandwidth_mb_s").asDouble(Double.NaN);
        double err = model.path("raw_bandwidth_err_mb_s").asDouble(Double.NaN);
        int points = model.path("points").asInt(0);
        return new Reading(value, err * Statistics.tQuantile975(points - 3),
                "fit " + human(model.path("from_bytes").asLong()) + " .. " + human(model.path("to_bytes").asLong()));
    }

    static String human(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) return (bytes >> 30) + " GiB";
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) return (bytes >> 20) + " MiB";
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) return (bytes >> 10) + " KiB";
        return String.format(Locale.ROOT, "%d B", bytes);
    }
}
