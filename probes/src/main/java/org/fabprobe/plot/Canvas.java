package org.fabprobe.plot;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;

/**
 * Draws one or more charts as a grid of panels into a PNG (Java's ImageIO) or an SVG (JFreeSVG),
 * chosen by the file's extension.
 */
public final class Canvas {
    static {
        System.setProperty("java.awt.headless", "true"); // no display needed, none used
        // rotated labels (the value axes') as text, not glyph outlines: an SVG keeps them readable and searchable
        org.jfree.chart.text.TextUtils.setUseDrawRotatedStringWorkaround(false);
    }

    /** A picture format fabprobe writes, from a file name. */
    public enum Format {
        PNG, SVG;

        public static Format of(Path file) {
            String name = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
            if (name.endsWith(".png")) return PNG;
            if (name.endsWith(".svg")) return SVG;
            throw new IllegalArgumentException("--plot writes .png or .svg files, not '" + file + "'");
        }
    }

    private Canvas() {}

    /** Panels of {@code panelWidth} x {@code panelHeight} pixels, {@code columns} per row. */
    public static void write(Path file, List<JFreeChart> panels, int columns, int panelWidth, int panelHeight)
            throws IOException {
        int rows = (panels.size() + columns - 1) / columns;
        int width = panelWidth * Math.min(columns, panels.size()), height = panelHeight * rows;
        switch (Format.of(file)) {
            case PNG -> {
                BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
                Graphics2D g = image.createGraphics();
                try {
                    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
                    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
                    draw(g, panels, columns, panelWidth, panelHeight, width, height);
                } finally {
                    g.dispose();
                }
                // a stream, not ImageIO's File variant: that one deletes whatever is at the path first
                try (var out = new java.io.BufferedOutputStream(Files.newOutputStream(file))) {
                    if (!ImageIO.write(image, "png", out)) throw new IOException("no PNG writer");
                }
            }
            case SVG -> {
                SVGGraphics2D g = new SVGGraphics2D(width, height);
                draw(g, panels, columns, panelWidth, panelHeight, width, height);
                // no DOCTYPE: readers would fetch the (obsolete) SVG 1.1 DTD from the network
                Files.writeString(file, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + g.getSVGElement() + "\n");
            }
        }
    }

    private static void draw(Graphics2D g, List<JFreeChart> panels, int columns, int panelWidth, int panelHeight,
                             int width, int height) {
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        for (int i = 0; i < panels.size(); i++) {
            int x = (i % columns) * panelWidth, y = (i / columns) * panelHeight;
            panels.get(i).draw(g, new Rectangle2D.Double(x, y, panelWidth, panelHeight));
        }
    }
}
