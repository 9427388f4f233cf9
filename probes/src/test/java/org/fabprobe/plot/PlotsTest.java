package org.fabprobe.plot;

import static org.junit.jupiter.api.Assertions.*;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.fabprobe.cli.Main;
import org.fabprobe.clock.ClockFacts;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.Summary;
import org.fabprobe.result.CollectivesDocument;
import org.fabprobe.result.CompareDocument;
import org.fabprobe.result.HockneyRange;
import org.fabprobe.result.Host;
import org.fabprobe.result.PLogPDocument;
import org.fabprobe.result.ParameterRange;
import org.fabprobe.result.ResultJson;
import org.fabprobe.result.RunHeader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/**
 * Every kind of picture, rendered and read back: a PNG decodes to the size it was drawn at, an SVG
 * parses as XML and holds its title and axis titles (with units). The measuring commands run for
 * real with --plot (on the emulator, small and fast); compare and collectives are drawn from
 * documents put together here (their runs need MPI and take long; their own end-to-end tests
 * cover the measuring).
 */
class PlotsTest {
    private static final String SIM = "sim:L=5us,os=1us,or=1.5us,g=4us,G=1ns/B";
    @TempDir
    static Path dir;
    private static PLogPDocument plogp;

    @BeforeAll
    static void measureOnce() throws Exception {
        Path json = dir.resolve("plogp.json");
        assertEquals(0, run("plogp", "-t", SIM, "-s", "0..1K", "--adaptive-limit", "0", "--max-reps", "100",
                "--json", json.toString(), "--plot", dir.resolve("plogp.png").toString()));
        plogp = ResultJson.read(Files.readString(json), PLogPDocument.class);
    }

    private static int run(String... args) {
        var out = System.out;
        try (var sink = new java.io.PrintStream(java.io.OutputStream.nullOutputStream())) {
            System.setOut(sink);
            return Main.run(args);
        } finally {
            System.setOut(out);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"png", "svg"})
    void pingPongHalfRoundTripAndBandwidthWithTheFits(String format) throws Exception {
        Path file = dir.resolve("pingpong." + format);
        assertEquals(0, run("pingpong", "-t", SIM, "-s", "1K..64K", "-n", "50", "--warmup", "5", "--plot", file.toString()));
        if (format.equals("png")) assertPng(file, 1000, 1040);
        else assertSvg(file, "fabprobe pingpong", SIM, "message size (bytes, log scale)",
                "half round-trip time (µs), log scale", "bandwidth (MB/s, 10^6 B/s), log scale", "Hockney 1 KiB..");
    }

    /** One-sided runs say what their times are: a read's latency is one read, not half a round trip; CSV rows too. */
    @Test
    void oneSidedRunsNameTheirOpInPictureAndCsv() throws Exception {
        Path file = dir.resolve("read.svg"), csv = dir.resolve("read.csv");
        assertEquals(0, run("pingpong", "--op", "read", "-t", SIM, "-s", "1K..4K", "-n", "50", "--warmup", "5",
                "--plot", file.toString(), "--csv", csv.toString()));
        assertSvg(file, "fabprobe pingpong: latency of one read", "latency of one read (µs), log scale");
        assertEquals(4, Files.readAllLines(csv).size(), () -> "a header and 3 sizes: " + csv);
        Path bw = dir.resolve("write-bandwidth.svg");
        assertEquals(0, run("bandwidth", "--op", "write", "-t", SIM, "-s", "1K,64K", "-w", "8", "-n", "10", "--warmup", "2",
                "--plot", bw.toString()));
        assertSvg(bw, "streaming bandwidth, windows of 8 writes");
    }

    @Test
    void bandwidthAndMessageRate() throws Exception {
        Path file = dir.resolve("bandwidth.svg");
        assertEquals(0, run("bandwidth", "-t", SIM, "-s", "1K,64K", "-w", "8", "-n", "10", "--warmup", "2",
                "--plot", file.toString()));
        assertSvg(file, "fabprobe bandwidth", "message size (bytes, log scale)", "bandwidth (MB/s, 10^6 B/s), log scale",
                "message rate (10^6 messages/s), log scale");
    }

    @Test
    void plogpOverheadsAndGapWithTheRangesShaded() throws Exception {
        assertPng(dir.resolve("plogp.png"), 1000, 620);
        Path svg = dir.resolve("plogp.svg");
        Plots.write(plogp, svg);
        assertSvg(svg, "fabprobe plogp", "message size m (bytes, log scale)", "time (µs); bars: 95 % CI, log scale",
                "o_s(m)", "o_r(m)", "range 1: ");
    }

    @Test
    void loggpAndSignature() throws Exception {
        Path loggp = dir.resolve("loggp.svg"), signature = dir.resolve("signature.png");
        assertEquals(0, run("loggp", "-t", SIM, "-s", "0..1K", "--max-reps", "100", "--plot", loggp.toString()));
        assertSvg(loggp, "fabprobe loggp", "message size s (bytes, log scale)", "g + (s-1)G", "time (µs); bars: 95 % CI, log scale");
        Path json = dir.resolve("signature.json");
        assertEquals(0, run("signature", "-t", SIM, "--bursts", "1..16", "--bulk-sizes", "none", "--max-reps", "100",
                "--json", json.toString(), "--plot", signature.toString()));
        assertPng(signature, 1000, 620);
        Path svg = dir.resolve("signature.svg");
        Plots.write(ResultJson.read(Files.readString(json), org.fabprobe.result.SignatureDocument.class), svg);
        assertSvg(svg, "fabprobe signature", "burst length M (requests)", "average cost per request (µs)", "Δ = ");
    }

    @Test
    void compareRawAndMpiSideBySidePerParameter() throws Exception {
        var h = plogp.header();
        var mpiHeader = new RunHeader<>(h.schema(), h.tool(), h.command(), "mpi:openmpi/ob1:vader", h.transportFacts(), h.settings(),
                h.host(), h.mirrorHost(), h.clock(), h.startedAt(), h.wallSeconds());
        PLogPDocument mpi = new PLogPDocument(mpiHeader, plogp.timing(), plogp.parameters().stream().map(PlotsTest::slower).toList(), plogp.flags(), plogp.notes(),
                plogp.g0(), plogp.latencyNs(), plogp.sizes());
        List<CompareDocument.Range> ranges = new ArrayList<>();
        for (ParameterRange m : mpi.parameters()) {
            ParameterRange r = plogp.parameters().getFirst();
            ranges.add(new CompareDocument.Range(m.fromBytes(), m.toBytes(), new long[] {r.fromBytes(), r.toBytes()},
                    CompareDocument.Cell.of(r.latencyNs(), m.latencyNs()), CompareDocument.Cell.of(r.sendOverheadNs(), m.sendOverheadNs()),
                    CompareDocument.Cell.of(r.recvOverheadNs(), m.recvOverheadNs()), CompareDocument.Cell.of(r.gapNs(), m.gapNs()),
                    CompareDocument.Cell.of(r.gapPerByteNs(), m.gapPerByteNs())));
        }
        CompareDocument doc = new CompareDocument(CompareDocument.SCHEMA, "plogp", "send", plogp.startedAt(), SIM,
                "mpi:openmpi/ob1:vader", Map.of(), "nonblocking", "nonblocking", "the same calls", Map.of(), "MPI's size ranges", List.of(), List.of(), null, ranges, List.of(),
                plogp, mpi, plogp);
        Path png = dir.resolve("compare.png"), svg = dir.resolve("compare.svg");
        Plots.write(doc, png);
        Plots.write(doc, svg);
        int panels = ranges.size() + 1;
        assertPng(png, panels == 1 ? 640 : 1280, 460 * ((panels + 1) / 2));
        assertSvg(svg, "fabprobe compare (plogp)", "LogGP parameter", "time (µs); bars: 95 % uncertainty",
                "G (ns per byte); bars: 95 % uncertainty", "raw " + SIM, "mpi:openmpi/ob1:vader");
    }

    private static ParameterRange slower(ParameterRange p) {
        return new ParameterRange(p.fromBytes(), p.toBytes(), plus(p.latencyNs()), plus(p.sendOverheadNs()),
                plus(p.recvOverheadNs()), plus(p.gapNs()), p.gapPerByteNs());
    }

    private static Estimate plus(Estimate v) {
        return new Estimate(v.value() + 300, v.ci95());
    }

    @Test
    void collectivesPerOperationAndProcs() throws Exception {
        List<CollectivesDocument.Result> results = new ArrayList<>();
        for (int p : new int[] {2, 4}) {
            List<CollectivesDocument.Point> points = new ArrayList<>();
            for (long n = 8; n <= 65536; n *= 4) {
                double t = 1000 * p + n / (1000.0 / p) * 1e3 / 1e3;
                points.add(new CollectivesDocument.Point(n, new Summary(100, t * 0.9, t, t * 1.3, t * 2, t * 1.05, t * 0.1, t * 0.02, 2),
                        t * 0.03, true, 5, 0, 0));
            }
            results.add(new CollectivesDocument.Result("bcast", p, points,
                    List.of(new HockneyRange(8, 65536, 7, 1000 * p, 20, 1000.0 / p, 10, p * 1000 * 1000.0 / p / 1e3, 1000.0, 0.01)),
                    null, null));
            results.add(new CollectivesDocument.Result("barrier", p, List.of(new CollectivesDocument.Point(0,
                    new Summary(100, 900, 1000 * p, 1500, 3000, 1100, 50, 10, 0), 30, true, 3, 0, 0)), List.of(), 1000.0 * p, 30.0));
        }
        var settings = new CollectivesDocument.Settings(List.of(8L, 65536L), List.of("bcast", "barrier"), List.of(2, 4),
                "one mpirun/mpiexec per p (local mode)", 10, "1s", "the maximum over ranks", "median", 5, 20, 1000, "100ms");
        var header = new RunHeader<>(CollectivesDocument.SCHEMA, "fabprobe test", "collectives", "mpi:openmpi/ob1:vader",
                Map.of("library", "Open MPI"), settings, new Host("node7", "Linux", "amd64", "cpu", "2", "jvm"), Map.of(),
                new ClockFacts("tsc", "", 2.6, true, true, 9, 0.4, 1, 20), "2026-11-23T13:00:00Z", 3);
        CollectivesDocument doc = new CollectivesDocument(header,
                List.of(new CollectivesDocument.Operation("bcast", "bytes the root sends to each rank", "1"),
                        new CollectivesDocument.Operation("barrier", "none", null)),
                List.of(new CollectivesDocument.Run(2, 9, 1000), new CollectivesDocument.Run(4, 9, 1000)), results, List.of(), List.of());
        assertEquals(java.util.Set.of(), org.fabprobe.result.Schemas.errors(ResultJson.write(doc), "collectives.schema.json"));
        Path png = dir.resolve("collectives.png"), svg = dir.resolve("collectives.svg");
        Plots.write(doc, png);
        Plots.write(doc, svg);
        assertPng(png, 1280, 440);
        assertSvg(svg, "fabprobe collectives", "mpi:openmpi/ob1:vader", "host node7", "2026-11-23 13:00 UTC",
                "n per rank (bytes, log scale)", "n: bytes the root sends to each rank", "time (µs), max over ranks, log scale",
                "p = 2", "p = 4", "barrier", "processes", "time (µs); bars: 95 % CI of the median");
    }

    @Test
    void onlyPngAndSvgAreAccepted() {
        assertThrows(IllegalArgumentException.class, () -> Canvas.Format.of(Path.of("x.pdf")));
        assertEquals(2, run("pingpong", "-t", SIM, "--plot", "x.jpg")); // refused before anything runs
    }

    private static void assertPng(Path file, int width, int height) throws Exception {
        BufferedImage image = ImageIO.read(file.toFile());
        assertNotNull(image, file + " is not a PNG");
        assertEquals(width, image.getWidth(), file.toString());
        assertEquals(height, image.getHeight(), file.toString());
        // drawn, not blank: more than a few colours
        java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < height; y += 7) for (int x = 0; x < width; x += 7) colours.add(image.getRGB(x, y));
        assertTrue(colours.size() > 5, file + " looks blank");
    }

    private static void assertSvg(Path file, String... texts) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false); // no network
        assertFalse(Files.readString(file).contains("<!DOCTYPE"), "an SVG with a DOCTYPE makes readers fetch its DTD");
        Document svg = factory.newDocumentBuilder().parse(file.toFile());
        assertEquals("svg", svg.getDocumentElement().getNodeName(), file.toString());
        NodeList nodes = svg.getElementsByTagName("text");
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < nodes.getLength(); i++) all.append(nodes.item(i).getTextContent()).append('\n');
        for (String t : texts) assertTrue(all.toString().contains(t), () -> file + " has no text '" + t + "':\n" + all);
    }
}
