package org.fabprobe.cli;

import java.nio.file.Path;
import org.fabprobe.plot.Canvas;
import picocli.CommandLine;

/** --plot FILE: a .png or .svg path, refused on the command line (exit 2) before anything is measured. */
final class PlotFile implements CommandLine.ITypeConverter<Path> {
    static final String DESCRIPTION = "Also draw the result as a picture: FILE.png or FILE.svg (see README, Pictures).";

    @Override
    public Path convert(String value) {
        Path file = Path.of(value);
        try {
            Canvas.Format.of(file);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
        return file;
    }
}
