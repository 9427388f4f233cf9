package org.fabprobe.accept;

import java.io.StringWriter;
import java.util.Locale;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.fabprobe.result.AcceptDocument;

/**
 * The verdicts as JUnit XML, the format Jenkins (junit step) and GitLab (artifacts:reports:junit)
 * read: one testsuite per spec, one testcase per check (classname fabprobe.accept.SYSTEM, name
 * the check's name). FAIL is a {@code <failure>} carrying the numbers, ERROR an {@code <error>};
 * INCONCLUSIVE is a {@code <failure type="INCONCLUSIVE">}, or {@code <skipped>} with
 * --inconclusive pass (so that the CI's count agrees with fabprobe's exit code). Each testcase's
 * time is its measurement's, given to the first check that used it (the sum is the suite's).
 */
public final class JUnitXml {
    private JUnitXml() {}

    public static String of(AcceptDocument d) {
        boolean inconclusivePasses = d.inconclusive().equals("pass");
        AcceptDocument.Counts n = d.counts();
        int failures = n.fail() + (inconclusivePasses ? 0 : n.inconclusive());
        int skipped = inconclusivePasses ? n.inconclusive() : 0;
        double total = d.measurements().stream().mapToDouble(AcceptDocument.Measurement::wallSeconds).sum();
        StringWriter out = new StringWriter();
        try {
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            x.writeStartElement("testsuites");
            x.writeAttribute("name", "fabprobe accept " + d.spec());
            counts(x, n.checks(), failures, n.error(), skipped, total);
            x.writeCharacters("\n  ");
            x.writeStartElement("testsuite");
            x.writeAttribute("name", d.system());
            counts(x, n.checks(), failures, n.error(), skipped, total);
            x.writeAttribute("timestamp", d.startedAt().replaceFirst("\\.\\d+Z$", "").replace("Z", ""));
            x.writeAttribute("hostname", d.host().hostname());
            x.writeCharacters("\n    ");
            x.writeStartElement("properties");
            property(x, "spec", d.spec());
            if (d.description() != null) property(x, "description", d.description());
            property(x, "inconclusive", Integer.toString(n.inconclusive()));
            property(x, "inconclusive_counts_as", d.inconclusive());
            for (AcceptDocument.Measurement m : d.measurements()) property(x, m.id(), "fabprobe " + String.join(" ", m.args()));
            x.writeCharacters("\n    ");
            x.writeEndElement();
            java.util.Set<String> timed = new java.util.HashSet<>();
            for (AcceptDocument.Check c : d.checks()) {
                double time = timed.add(c.measurement()) ? d.measurements().stream()
                        .filter(m -> m.id().equals(c.measurement())).mapToDouble(AcceptDocument.Measurement::wallSeconds).sum() : 0;
                x.writeCharacters("\n    ");
                x.writeStartElement("testcase");
                x.writeAttribute("classname", "fabprobe.accept." + d.system());
                x.writeAttribute("name", c.name());
                x.writeAttribute("time", seconds(time));
                String details = details(c);
                switch (c.verdict()) {
                    case "FAIL" -> failure(x, "failure", "FAIL", c.reason(), details);
                    case "ERROR" -> failure(x, "error", "ERROR", c.reason(), details);
                    case "INCONCLUSIVE" -> {
                        if (inconclusivePasses) {
                            x.writeCharacters("\n      ");
                            x.writeEmptyElement("skipped");
                            x.writeAttribute("message", "INCONCLUSIVE: " + c.reason());
                        } else {
                            failure(x, "failure", "INCONCLUSIVE", c.reason(), details);
                        }
                    }
                    default -> {}
                }
                x.writeCharacters("\n      ");
                x.writeStartElement("system-out");
                x.writeCharacters(c.verdict() + ": " + details);
                x.writeEndElement();
                x.writeCharacters("\n    ");
                x.writeEndElement();
            }
            x.writeCharacters("\n  ");
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndDocument();
            x.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot write JUnit XML", e);
        }
        return out.toString();
    }

    /** The numbers of a check, as a line a CI page shows. */
    static String details(AcceptDocument.Check c) {
        String at = c.at() == null ? "" : " at " + c.at();
        return String.format(Locale.ROOT, "%s %s on %s%s: measured %s %s (95 %% uncertainty); reference %s %s, tolerance %s/%s,"
                        + " bounds %s %s", c.figure(), c.options().getOrDefault("parameter", ""), c.transport(), at,
                Acceptance.Format.measured(c.measured(), c.measuredLow(), c.measuredHigh()), c.unit(), Acceptance.Format.number(c.reference()),
                c.unit(), tolerance(c.lower()), tolerance(c.upper()), Acceptance.Format.bounds(c.lowerBound(), c.upperBound()),
                c.unit()).replace("  ", " ");
    }

    private static String tolerance(Double t) {
        return t == null ? "open" : (t >= 0 ? "+" : "") + Acceptance.Format.number(t * 100) + "%";
    }

    private static void failure(XMLStreamWriter x, String element, String type, String message, String details)
            throws XMLStreamException {
        x.writeCharacters("\n      ");
        x.writeStartElement(element);
        x.writeAttribute("type", type);
        x.writeAttribute("message", message);
        x.writeCharacters(details);
        x.writeEndElement();
    }

    private static void counts(XMLStreamWriter x, int tests, int failures, int errors, int skipped, double time)
            throws XMLStreamException {
        x.writeAttribute("tests", Integer.toString(tests));
        x.writeAttribute("failures", Integer.toString(failures));
        x.writeAttribute("errors", Integer.toString(errors));
        x.writeAttribute("skipped", Integer.toString(skipped));
        x.writeAttribute("time", seconds(time));
    }

    private static void property(XMLStreamWriter x, String name, String value) throws XMLStreamException {
        x.writeCharacters("\n      ");
        x.writeEmptyElement("property");
        x.writeAttribute("name", name);
        x.writeAttribute("value", value);
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.3f", s);
    }
}
