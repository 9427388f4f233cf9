package org.fabprobe.plot;

import java.awt.Color;
import java.awt.Paint;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.fabprobe.result.MatrixDocument;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.PaintScale;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.title.PaintScaleLegend;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.xy.DefaultXYZDataset;

/**
 * The matrix as two heatmaps, latency and bandwidth, one cell per pair (both triangles, the
 * diagonal empty): ranks on both axes, the value as colour from good (pale) to bad (dark red),
 * with a colour legend in the unit. Outliers show as dark cells, a slow rank as a dark cross.
 */
final class MatrixHeatmap {
    private static final java.awt.Font TITLE_FONT = new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.BOLD, 15);
    private static final int TITLE_SIDE_MARGIN = 24;

    private MatrixHeatmap() {}

    static List<JFreeChart> panels(MatrixDocument d) {
        return List.of(panel(d, "latency: median half round trip at " + Plots.size(d.latencyBytes()), "µs",
                        p -> p.latencyNs() / 1e3, true),
                panel(d, "bandwidth at " + Plots.size(d.bandwidthBytes()), "MB/s", MatrixDocument.Pair::bandwidthMbS, false));
    }

    private static JFreeChart panel(MatrixDocument d, String what, String unit, ToDoubleFunction<MatrixDocument.Pair> value,
                                    boolean higherIsWorse) {
        int cells = 2 * d.pairs().size();
        double[] x = new double[cells], y = new double[cells], z = new double[cells];
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        int i = 0;
        for (MatrixDocument.Pair p : d.pairs()) {
            double v = value.applyAsDouble(p);
            if (Double.isFinite(v)) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
            x[i] = p.a(); y[i] = p.b(); z[i++] = v;
            x[i] = p.b(); y[i] = p.a(); z[i++] = v;
        }
        if (!(lo < hi)) {
            lo = Double.isFinite(lo) ? lo * 0.99 : 0;
            hi = Double.isFinite(hi) ? Math.max(hi * 1.01, lo + 1e-9) : 1;
        }
        DefaultXYZDataset data = new DefaultXYZDataset();
        data.addSeries(unit, new double[][] {x, y, z});
        NumberAxis ranksX = rankAxis("rank"), ranksY = rankAxis("rank");
        ranksY.setInverted(true); // rank 0 at the top, as the table prints it
        XYBlockRenderer renderer = new XYBlockRenderer();
        Ramp scale = new Ramp(lo, hi, higherIsWorse);
        renderer.setPaintScale(scale);
        XYPlot plot = new XYPlot(data, ranksX, ranksY, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinesVisible(false);
        plot.setRangeGridlinesVisible(false);
        JFreeChart chart = new JFreeChart(Plots.title(d, what), TITLE_FONT, plot, false);
        // the two panels sit side by side: without a side margin their titles run into each other
        chart.getTitle().setMargin(0, TITLE_SIDE_MARGIN, 0, TITLE_SIDE_MARGIN);
        chart.setBackgroundPaint(Color.WHITE);
        NumberAxis legendAxis = new NumberAxis(unit);
        PaintScaleLegend legend = new PaintScaleLegend(scale, legendAxis);
        legend.setPosition(RectangleEdge.RIGHT);
        legend.setMargin(4, 4, 40, 4);
        legend.setStripWidth(14);
        chart.addSubtitle(legend);
        chart.addSubtitle(new org.jfree.chart.title.TextTitle(String.format(Locale.ROOT,
                "%d ranks, %s mode; darker is worse; %d outliers named (see the table)", d.ranks(), d.mode(), d.outliers().size())));
        return chart;
    }

    private static NumberAxis rankAxis(String label) {
        NumberAxis axis = new NumberAxis(label);
        axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        axis.setLowerMargin(0);
        axis.setUpperMargin(0);
        axis.setAutoRangeIncludesZero(false);
        return axis;
    }

    /** Pale yellow (good) to dark red (bad). */
    private record Ramp(double lo, double hi, boolean higherIsWorse) implements PaintScale {
        private static final Color GOOD = new Color(0xffffcc), MIDDLE = new Color(0xfd8d3c), BAD = new Color(0x800026);

        @Override
        public double getLowerBound() {
            return lo;
        }

        @Override
        public double getUpperBound() {
            return hi;
        }

        @Override
        public Paint getPaint(double value) {
            if (!Double.isFinite(value)) return Color.LIGHT_GRAY;
            double f = Math.max(0, Math.min(1, (value - lo) / (hi - lo)));
            if (!higherIsWorse) f = 1 - f;
            return f < 0.5 ? mix(GOOD, MIDDLE, f * 2) : mix(MIDDLE, BAD, (f - 0.5) * 2);
        }

        private static Color mix(Color a, Color b, double f) {
            return new Color((int) Math.round(a.getRed() + (b.getRed() - a.getRed()) * f),
                    (int) Math.round(a.getGreen() + (b.getGreen() - a.getGreen()) * f),
                    (int) Math.round(a.getBlue() + (b.getBlue() - a.getBlue()) * f));
        }
    }
}
