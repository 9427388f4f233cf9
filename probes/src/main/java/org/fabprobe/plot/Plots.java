package org.fabprobe.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.ParameterSet;
import org.fabprobe.report.MethodReport;
import org.fabprobe.result.BandwidthDocument;
import org.fabprobe.result.CollectivesDocument;
import org.fabprobe.result.CompareDocument;
import org.fabprobe.result.HockneyRange;
import org.fabprobe.result.LogGPDocument;
import org.fabprobe.result.MethodDocument;
import org.fabprobe.result.MethodSettings;
import org.fabprobe.result.PLogPDocument;
import org.fabprobe.result.ParameterRange;
import org.fabprobe.result.PingPongDocument;
import org.fabprobe.result.RunDocument;
import org.fabprobe.result.RunHeader;
import org.fabprobe.result.SampledValue;
import org.fabprobe.result.SignatureDocument;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.StatisticalBarRenderer;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.statistics.DefaultStatisticalCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/**
 * --plot: each result document drawn as the figures its papers and users read. Sizes and burst
 * lengths span decades, so those axes are logarithmic (base 2, labelled in B / KiB / MiB), and so
 * are times that span decades; 0 B cannot sit on a log axis and is named in a subtitle instead.
 * Every axis says its unit; every title names the command, transport, host and date.
 */
public final class Plots {
    private static final int WIDTH = 1000, HEIGHT = 520;
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
            new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)};

    private Plots() {}

    /** Draws {@code document} to {@code file} (.png or .svg); creates no directory (the caller checked and chose the path). */
    public static void write(Object document, Path file) throws IOException {
        switch (document) {
            case PingPongDocument d -> Canvas.write(file, pingPong(d), 1, WIDTH, HEIGHT);
            case BandwidthDocument d -> Canvas.write(file, bandwidth(d), 1, WIDTH, HEIGHT);
            case PLogPDocument d -> Canvas.write(file, List.of(plogp(d)), 1, WIDTH, HEIGHT + 100);
            case LogGPDocument d -> Canvas.write(file, List.of(loggp(d)), 1, WIDTH, HEIGHT + 100);
            case SignatureDocument d -> Canvas.write(file, List.of(signature(d)), 1, WIDTH, HEIGHT + 100);
            case CompareDocument d -> {
                List<JFreeChart> panels = compare(d);
                Canvas.write(file, panels, Math.min(2, panels.size()), 640, 460);
            }
            case CollectivesDocument d -> {
                List<JFreeChart> panels = collectives(d);
                Canvas.write(file, panels, Math.min(2, panels.size()), 640, 440);
            }
            case org.fabprobe.result.MatrixDocument d -> Canvas.write(file, MatrixHeatmap.panels(d), 2, 720, 640);
            default -> throw new IllegalArgumentException("no picture for " + document.getClass().getSimpleName());
        }
    }

    // ---- ping-pong and bandwidth ------------------------------------------------------------

    static List<JFreeChart> pingPong(PingPongDocument d) {
        YIntervalSeries rtt = new YIntervalSeries("median (bar: min .. p99)");
        YIntervalSeries bw = new YIntervalSeries("size / median half RTT (bar: size / p99 .. size / min)");
        List<String> zero = new ArrayList<>();
        for (PingPongDocument.Size s : d.sizes()) {
            var t = s.halfRttNs();
            if (s.sizeBytes() == 0) {
                zero.add(String.format(Locale.ROOT, "0 B (not on the log axis): median half RTT %.3f µs", t.median() / 1e3));
                continue;
            }
            rtt.add(s.sizeBytes(), t.median() / 1e3, t.min() / 1e3, t.p99() / 1e3);
            double mbs = s.sizeBytes() * 1e3;
            bw.add(s.sizeBytes(), mbs / t.median(), mbs / t.p99(), mbs / t.min());
        }
        XYSeriesCollection rttFits = new XYSeriesCollection(), bwFits = new XYSeriesCollection();
        for (HockneyRange h : d.hockney()) {
            String label = String.format(Locale.ROOT, "Hockney %s..%s: t0 %.3f µs, r_inf %s", size(h.fromBytes()),
                    size(h.toBytes()), h.t0Ns() / 1e3, Double.isNaN(h.rInfMbS()) ? "∞" : String.format(Locale.ROOT, "%.0f MB/s", h.rInfMbS()));
            DoubleUnaryOperator tNs = n -> h.t0Ns() + (Double.isNaN(h.rInfMbS()) ? 0 : n / h.rInfMbS() * 1e3);
            rttFits.addSeries(curve(label, h.fromBytes(), h.toBytes(), n -> tNs.applyAsDouble(n) / 1e3));
            bwFits.addSeries(curve(label, h.fromBytes(), h.toBytes(), n -> n * 1e3 / tNs.applyAsDouble(n)));
        }
        String op = d.header().settings().op() == null ? "send" : d.header().settings().op();
        String timed = switch (op) { // what the times are: one-sided reads and atomics are whole operations
            case "send" -> "half round-trip time";
            case "write" -> "RDMA-write half round-trip time";
            default -> "latency of one " + op;
        };
        JFreeChart top = xy(title(d, timed), sizeAxis("message size"),
                logAxis(timed + " (µs)"), rtt, rttFits);
        zero.forEach(z -> top.addSubtitle(subtitle(z)));
        JFreeChart bottom = xy("bandwidth", sizeAxis("message size"), logAxis("bandwidth (MB/s, 10^6 B/s)"), bw, bwFits);
        return List.of(top, bottom);
    }

    static List<JFreeChart> bandwidth(BandwidthDocument d) {
        YIntervalSeries bw = new YIntervalSeries("size x window / median window time (bar: / p99 .. / min)");
        YIntervalSeries rate = new YIntervalSeries("window / median window time (bar: / p99 .. / min)");
        int window = 0;
        for (BandwidthDocument.Size s : d.sizes()) {
            var t = s.windowNs();
            double bytes = (double) s.sizeBytes() * s.window() * 1e3;
            if (s.sizeBytes() > 0) bw.add(s.sizeBytes(), bytes / t.median(), bytes / t.p99(), bytes / t.min());
            double msgs = s.window() * 1e9;
            if (s.sizeBytes() > 0) rate.add(s.sizeBytes(), msgs / t.median() / 1e6, msgs / t.p99() / 1e6, msgs / t.min() / 1e6);
            window = s.window();
        }
        String op = d.header().settings().op();
        JFreeChart top = xy(title(d, "streaming bandwidth, windows of " + window
                        + (op == null || op.equals("send") ? " messages" : " " + op + "s")), sizeAxis("message size"),
                logAxis("bandwidth (MB/s, 10^6 B/s)"), bw, null);
        JFreeChart bottom = xy("message rate", sizeAxis("message size"), logAxis("message rate (10^6 messages/s)"), rate, null);
        return List.of(top, bottom);
    }

    // ---- the LogP methods ---------------------------------------------------------------------

    /** The op a LogP run's messages were (null: a document without settings, sends). */
    private static String op(RunHeader<? extends MethodSettings.Holder> header) {
        return header.settings() == null ? null : header.settings().op();
    }

    /** What a LogP plot's title adds for a one-sided op ("" for messages). */
    private static String oneSided(String op) {
        return op == null || op.equals("send") ? "" : ", one-sided " + op + "s";
    }

    static JFreeChart plogp(PLogPDocument d) {
        List<YIntervalSeries> series = new ArrayList<>(List.of(new YIntervalSeries("o_s(m)"), new YIntervalSeries("o_r(m)"),
                new YIntervalSeries("g(m) from RTT(m) - RTT(0) + g(0)")));
        YIntervalSeries saturated = new YIntervalSeries("g(m) by saturation (--validate)");
        List<String> zero = new ArrayList<>();
        for (PLogPDocument.Size s : d.sizes()) {
            if (s.sizeBytes() == 0) {
                zero.add(String.format(Locale.ROOT, "0 B (not on the log axis): o_s %.3f, o_r %.3f, g %.3f µs",
                        s.oSNs().median() / 1e3, s.oRNs().median() / 1e3, s.gNs().value() / 1e3));
                continue;
            }
            add(series.get(0), s.sizeBytes(), s.oSNs());
            add(series.get(1), s.sizeBytes(), s.oRNs());
            add(series.get(2), s.sizeBytes(), s.gNs());
            if (s.gSaturated() != null) add(saturated, s.sizeBytes(), s.gSaturated().gNs());
        }
        if (!saturated.isEmpty()) series.add(saturated);
        JFreeChart chart = xy(title(d, "pLogP o_s, o_r, g against message size" + oneSided(op(d.header()))), sizeAxis("message size m"),
                logAxis("time (µs); bars: 95 % CI"), collection(series), null);
        shadeRanges(chart, d);
        zero.forEach(z -> chart.addSubtitle(subtitle(z)));
        chart.addSubtitle(subtitle(String.format(Locale.ROOT, "g(0) %.3f µs by saturation, %s %s;"
                + " shaded: the LogGP size ranges", d.g0().gNs().value() / 1e3, MethodReport.latencyRule(op(d.header())),
                MethodReport.pLogPLatency(d.latencyNs()))));
        overlapSubtitles(chart, d);
        return chart;
    }

    static JFreeChart loggp(LogGPDocument d) {
        List<YIntervalSeries> series = List.of(new YIntervalSeries("o (sender overhead)"),
                new YIntervalSeries("g + (s-1)G"), new YIntervalSeries("PRTT(1,0,s) / 2"));
        List<String> zero = new ArrayList<>();
        for (LogGPDocument.Size s : d.sizes()) {
            if (s.sizeBytes() == 0) {
                zero.add(String.format(Locale.ROOT, "0 B (not on the log axis): o %.3f, g %.3f µs", s.oNs().value() / 1e3,
                        s.gapAllNs().value() / 1e3));
                continue;
            }
            add(series.get(0), s.sizeBytes(), s.oNs());
            add(series.get(1), s.sizeBytes(), s.gapAllNs());
            SampledValue p = s.prtt10Ns();
            add(series.get(2), s.sizeBytes(), new Estimate(p.median() / 2, p.ci95() / 2));
        }
        JFreeChart chart = xy(title(d, "LogGP o, g + (s-1)G against message size (n = " + d.messages() + ")"
                + oneSided(op(d.header()))),
                sizeAxis("message size s"), logAxis("time (µs); bars: 95 % CI"), collection(series), null);
        shadeRanges(chart, d);
        zero.forEach(z -> chart.addSubtitle(subtitle(z)));
        chart.addSubtitle(subtitle("shaded: the LogGP size ranges (a new range where a protocol change shows)"));
        overlapSubtitles(chart, d);
        return chart;
    }

    static JFreeChart signature(SignatureDocument d) {
        List<YIntervalSeries> series = new ArrayList<>();
        for (SignatureDocument.Curve c : d.curves()) {
            YIntervalSeries s = new YIntervalSeries(String.format(Locale.ROOT, "Δ = %.3f µs", c.delayNs() / 1e3));
            for (SignatureDocument.Point p : c.points()) add(s, p.burst(), p.costNs());
            series.add(s);
        }
        LogAxis bursts = new LogAxis("burst length M (requests)");
        bursts.setBase(2);
        bursts.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        bursts.setNumberFormatOverride(NumberFormat.getIntegerInstance(Locale.ROOT));
        NumberAxis cost = new NumberAxis("average cost per request (µs); bars: 95 % CI");
        cost.setAutoRangeIncludesZero(true);
        JFreeChart chart = xy(title(d, "signature (Culler et al.): cost per request against burst length"), bursts, cost,
                collection(series), null);
        ParameterRange p = d.parameters().getFirst();
        chart.addSubtitle(subtitle(String.format(Locale.ROOT, "read off: L %s, o_s %.3f, o_r %.3f, g %.3f µs",
                MethodReport.latencyCell(p.latencyNs()), p.sendOverheadNs().value() / 1e3, p.recvOverheadNs().value() / 1e3,
                p.gapNs().value() / 1e3)));
        overlapSubtitles(chart, d);
        return chart;
    }

    /** Where a range's L is negative, the overlap by name instead of a negative latency. */
    private static void overlapSubtitles(JFreeChart chart, MethodDocument d) {
        for (ParameterRange r : d.parameters()) {
            String overlap = ParameterSet.overlapText(r.latencyNs());
            if (overlap != null) chart.addSubtitle(subtitle("L over " + size(r.fromBytes()) + ".." + size(r.toBytes()) + ": " + overlap));
        }
    }

    /** Alternate grey bands over the size ranges of the method's parameter sets, labelled with their number. */
    private static void shadeRanges(JFreeChart chart, MethodDocument d) {
        XYPlot plot = chart.getXYPlot();
        int i = 0;
        for (ParameterRange r : d.parameters()) {
            double from = Math.max(r.fromBytes(), 1), to = Math.max(r.toBytes(), from);
            IntervalMarker band = new IntervalMarker(from, to, i % 2 == 0 ? new Color(0, 0, 0, 22) : new Color(0, 0, 120, 22));
            band.setLabel(String.format(Locale.ROOT, "range %d: %s..%s", i + 1, size(r.fromBytes()), size(r.toBytes())));
            band.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            band.setLabelAnchor(RectangleAnchor.TOP_LEFT);
            band.setLabelTextAnchor(TextAnchor.TOP_LEFT);
            plot.addDomainMarker(band, Layer.BACKGROUND);
            i++;
        }
    }

    // ---- compare ---------------------------------------------------------------------------

    static List<JFreeChart> compare(CompareDocument d) {
        List<JFreeChart> panels = new ArrayList<>();
        String[] names = {"L", "o_s", "o_r", "g"};
        DefaultStatisticalCategoryDataset perByte = new DefaultStatisticalCategoryDataset();
        for (CompareDocument.Range r : d.ranges()) {
            DefaultStatisticalCategoryDataset data = new DefaultStatisticalCategoryDataset();
            List<CompareDocument.Cell> cells = r.cells();
            for (int i = 0; i < names.length; i++) {
                // a negative L is the overheads' overlap, named below the panel, not a bar below zero
                boolean latency = i == 0;
                if (!(latency && cells.get(i).raw().value() < 0)) bar(data, cells.get(i).raw(), 1e-3, "raw " + d.rawTransport(), names[i]);
                if (!(latency && cells.get(i).mpi().value() < 0)) bar(data, cells.get(i).mpi(), 1e-3, d.mpiTransport(), names[i]);
            }
            String range = size(r.fromBytes()) + ".." + size(r.toBytes());
            bar(perByte, r.gapPerByteNs().raw(), 1, "raw " + d.rawTransport(), range);
            bar(perByte, r.gapPerByteNs().mpi(), 1, d.mpiTransport(), range);
            String title = panels.isEmpty() ? compareTitle(d) + "\nsize range " + range : "size range " + range;
            JFreeChart panel = category(title, "LogGP parameter", "time (µs); bars: 95 % uncertainty", data);
            CompareDocument.Overlap o = r.latencyOverlapNs();
            if (o != null && o.raw() != null) panel.addSubtitle(subtitle("L raw: " + ParameterSet.overlapText(o.raw().times(-1))));
            if (o != null && o.mpi() != null) panel.addSubtitle(subtitle("L MPI: " + ParameterSet.overlapText(o.mpi().times(-1))));
            panels.add(panel);
        }
        panels.add(category("G per size range", "size range (both sides fitted over it)", "G (ns per byte); bars: 95 % uncertainty", perByte));
        return panels;
    }

    private static String compareTitle(CompareDocument d) {
        RunDocument raw = d.raw();
        return "fabprobe compare (" + d.method() + "): raw " + d.rawTransport() + " vs " + d.mpiTransport() + "\nhost "
                + raw.host().hostname() + "  ·  " + date(d.startedAt());
    }

    private static void bar(DefaultStatisticalCategoryDataset data, Estimate v, double scale, String series, String category) {
        if (Double.isNaN(v.value())) return; // not measured by this method
        data.add(v.value() * scale, Double.isNaN(v.ci95()) ? 0 : v.ci95() * scale, series, category);
    }

    // ---- collectives ---------------------------------------------------------------------------

    static List<JFreeChart> collectives(CollectivesDocument d) {
        Map<String, List<CollectivesDocument.Result>> byOperation = new LinkedHashMap<>();
        for (CollectivesDocument.Result r : d.results()) byOperation.computeIfAbsent(r.operation(), k -> new ArrayList<>()).add(r);
        List<JFreeChart> panels = new ArrayList<>();
        for (var e : byOperation.entrySet()) {
            String title = (panels.isEmpty() ? title(d, "collectives t(n) per operation and p") + "\n" : "") + e.getKey();
            if (e.getKey().equals("barrier")) {
                DefaultStatisticalCategoryDataset data = new DefaultStatisticalCategoryDataset();
                for (CollectivesDocument.Result r : e.getValue()) {
                    bar(data, new Estimate(r.t0Ns(), r.t0Ci95Ns()), 1e-3, "barrier", "p = " + r.procs());
                }
                panels.add(category(title, "processes", "time (µs); bars: 95 % CI of the median", data));
                continue;
            }
            List<YIntervalSeries> series = new ArrayList<>();
            XYSeriesCollection fits = new XYSeriesCollection();
            for (CollectivesDocument.Result r : e.getValue()) {
                YIntervalSeries s = new YIntervalSeries("p = " + r.procs());
                for (CollectivesDocument.Point p : r.sizes()) {
                    if (p.sizeBytes() == 0) continue;
                    double m = p.timeNs().median(), ci = Double.isNaN(p.medianCi95Ns()) ? 0 : p.medianCi95Ns();
                    s.add(p.sizeBytes(), m / 1e3, Math.max(m - ci, m * 0.01) / 1e3, (m + ci) / 1e3);
                }
                series.add(s);
                for (HockneyRange h : r.hockney()) {
                    fits.addSeries(curve(String.format(Locale.ROOT, "p = %d fit %s..%s", r.procs(), size(h.fromBytes()),
                            size(h.toBytes())), h.fromBytes(), h.toBytes(),
                            n -> (h.t0Ns() + (Double.isNaN(h.rInfMbS()) ? 0 : n / h.rInfMbS() * 1e3)) / 1e3));
                }
            }
            JFreeChart chart = xy(title, sizeAxis("n per rank"), logAxis("time (µs), max over ranks"),
                    collection(series), fits);
            chart.addSubtitle(subtitle("n: " + messageLength(d, e.getKey()) + "; dashed: Hockney fits"));
            chart.getXYPlot().getRenderer(1).setDefaultSeriesVisibleInLegend(false);
            panels.add(chart);
        }
        return panels;
    }

    private static String messageLength(CollectivesDocument d, String operation) {
        return d.operations().stream().filter(o -> o.operation().equals(operation)).map(o -> o.messageLength())
                .findFirst().orElse("bytes");
    }

    // ---- building blocks -------------------------------------------------------------------

    private static void add(YIntervalSeries s, double x, SampledValue v) {
        add(s, x, new Estimate(v.median(), v.ci95()));
    }

    /** A point with its 95 % interval, in µs; points that cannot sit on a log axis are left out. */
    private static void add(YIntervalSeries s, double x, Estimate v) {
        double y = v.value() / 1e3, ci = Double.isNaN(v.ci95()) ? 0 : v.ci95() / 1e3;
        if (!(y > 0)) return;
        s.add(x, y, Math.max(y - ci, y * 0.05), y + ci);
    }

    private static YIntervalSeriesCollection collection(List<YIntervalSeries> series) {
        YIntervalSeriesCollection c = new YIntervalSeriesCollection();
        series.forEach(c::addSeries);
        return c;
    }

    private static YIntervalSeriesCollection collection(YIntervalSeries series) {
        return collection(List.of(series));
    }

    /** 48 points of f(n) spread evenly on the log axis over [from, to] (from 1 B up). */
    private static XYSeries curve(String label, long from, long to, DoubleUnaryOperator f) {
        XYSeries s = new XYSeries(label, false);
        double a = Math.log(Math.max(from, 1)), b = Math.log(Math.max(to, Math.max(from, 1)));
        for (int i = 0; i <= 48; i++) {
            double n = Math.exp(a + (b - a) * i / 48);
            double y = f.applyAsDouble(n);
            if (y > 0 && Double.isFinite(y)) s.add(n, y);
        }
        return s;
    }

    private static JFreeChart xy(String title, ValueAxis x, ValueAxis y, YIntervalSeries points, XYSeriesCollection lines) {
        return xy(title, x, y, collection(points), lines);
    }

    /** Points with error bars (dataset 0) and, optionally, fitted lines (dataset 1). */
    private static JFreeChart xy(String title, ValueAxis x, ValueAxis y, YIntervalSeriesCollection points,
                                 XYSeriesCollection lines) {
        XYErrorRenderer dots = new XYErrorRenderer();
        dots.setDefaultLinesVisible(true);
        dots.setDrawXError(false);
        dots.setCapLength(5);
        for (int i = 0; i < points.getSeriesCount(); i++) {
            dots.setSeriesPaint(i, COLORS[i % COLORS.length]);
            dots.setSeriesStroke(i, new BasicStroke(1.2f));
        }
        XYPlot plot = new XYPlot(points, x, y, dots);
        if (lines != null && lines.getSeriesCount() > 0) {
            XYLineAndShapeRenderer fit = new XYLineAndShapeRenderer(true, false);
            for (int i = 0; i < lines.getSeriesCount(); i++) {
                fit.setSeriesPaint(i, new Color(0x555555));
                fit.setSeriesStroke(i, new BasicStroke(1.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 1,
                        new float[] {6, 4}, i * 3f));
            }
            plot.setDataset(1, lines);
            plot.setRenderer(1, fit);
        }
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xdddddd));
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 15), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    private static JFreeChart category(String title, String categoryLabel, String valueLabel,
                                       DefaultStatisticalCategoryDataset data) {
        StatisticalBarRenderer bars = new StatisticalBarRenderer();
        bars.setErrorIndicatorPaint(Color.BLACK);
        bars.setShadowVisible(false);
        bars.setBarPainter(new org.jfree.chart.renderer.category.StandardBarPainter());
        for (int i = 0; i < data.getRowCount(); i++) bars.setSeriesPaint(i, COLORS[i % COLORS.length]);
        CategoryAxis categories = new CategoryAxis(categoryLabel);
        categories.setCategoryLabelPositions(CategoryLabelPositions.STANDARD);
        NumberAxis values = new NumberAxis(valueLabel);
        CategoryPlot plot = new CategoryPlot(data, categories, values, bars);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 13), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    /** Message sizes: base-2 log axis labelled 1 B, 1 KiB, 1 MiB, ... */
    static LogAxis sizeAxis(String label) {
        LogAxis axis = new LogAxis(label + " (bytes, log scale)");
        axis.setBase(2);
        axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        axis.setMinorTickMarksVisible(false);
        axis.setNumberFormatOverride(new SizeFormat());
        return axis;
    }

    private static LogAxis logAxis(String label) {
        LogAxis axis = new LogAxis(label + ", log scale");
        axis.setSmallestValue(1e-4);
        axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits()); // whole decades: 0.1, 1, 10, 100
        axis.setMinorTickCount(9);
        axis.setMinorTickMarksVisible(true);
        axis.setNumberFormatOverride(new java.text.DecimalFormat("0.###", java.text.DecimalFormatSymbols.getInstance(Locale.ROOT)));
        return axis;
    }

    private static TextTitle subtitle(String text) {
        return new TextTitle(text, new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    }

    /** "fabprobe pingpong: WHAT  ·  ofi:shm  ·  host vm  ·  2026-11-23 13:34 UTC" */
    static String title(RunDocument d, String what) {
        return "fabprobe " + d.command() + ": " + what + "\n" + d.transport() + "  ·  host " + d.host().hostname() + "  ·  "
                + date(d.startedAt());
    }

    private static String date(String iso) {
        try {
            return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC)
                    .format(Instant.parse(iso));
        } catch (RuntimeException e) {
            return iso;
        }
    }

    static String size(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) return (bytes >> 30) + " GiB";
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) return (bytes >> 20) + " MiB";
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) return (bytes >> 10) + " KiB";
        return bytes + " B";
    }

    /** Tick labels of the size axis: exact binary units where they divide, else bytes. */
    private static final class SizeFormat extends NumberFormat {
        @Override
        public StringBuffer format(double number, StringBuffer to, FieldPosition pos) {
            long n = Math.round(number);
            return to.append(Math.abs(number - n) < 1e-6 * Math.max(1, number) ? size(n) : String.format(Locale.ROOT, "%.3g", number));
        }

        @Override
        public StringBuffer format(long number, StringBuffer to, FieldPosition pos) {
            return to.append(size(number));
        }

        @Override
        public Number parse(String source, ParsePosition pos) {
            throw new UnsupportedOperationException();
        }
    }
}
