package org.fabprobe.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.accept.AcceptReport;
import org.fabprobe.accept.Acceptance;
import org.fabprobe.accept.Availability;
import org.fabprobe.accept.JUnitXml;
import org.fabprobe.accept.Plan;
import org.fabprobe.accept.Spec;
import org.fabprobe.accept.SpecException;
import org.fabprobe.accept.SpecReader;
import org.fabprobe.launch.HostFacts;
import org.fabprobe.launch.LocalLauncher;
import org.fabprobe.result.AcceptDocument;
import org.fabprobe.result.Host;
import org.fabprobe.result.ResultJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * `fabprobe accept SPEC.yaml`: every check of an acceptance spec, a reference with tolerances
 * on a figure fabprobe measures, judged with the figure's uncertainty. The spec is read and
 * validated whole before anything runs; each measurement it needs runs once, in this process,
 * as its own command would, and feeds every check that reads it.
 */
@Command(name = "accept", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Acceptance test: measures what a spec (YAML) asks for, each measurement once, and judges every",
                "check (PASS, FAIL, INCONCLUSIVE when the 95 %% interval straddles a bound, ERROR when not measured).",
                "Exit 0 when every check passes, 1 otherwise, 2 for a bad spec (file:line:column)."})
final class AcceptCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SPEC.yaml", description = "The spec: system, checks (see README, Acceptance testing).")
    Path specFile;

    @Option(names = "--junit", paramLabel = "FILE", description = "Also write the verdicts as JUnit XML (one testcase per check).")
    Path junit;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write verdicts and measurements as JSON (- for stdout, replacing the table).")
    Path json;

    @Option(names = "--inconclusive", defaultValue = "fail", paramLabel = "fail|pass",
            description = "Whether an INCONCLUSIVE check fails the run (exit 1) or passes it. Default: ${DEFAULT-VALUE}")
    String inconclusive;

    @Option(names = "--from", paramLabel = "ACCEPT.json",
            description = "Judge again the measurements of an earlier 'accept --json' (the same command lines); only the others are run.")
    Path from;

    @Option(names = "--plan", description = {"Validate the spec and print the measurements it needs; measure nothing.",
            "Exit 2 when a transport it names is not available here (the plan says which)."})
    boolean planOnly;

    @Override
    public Integer call() throws IOException {
        if (!inconclusive.equals("fail") && !inconclusive.equals("pass")) {
            throw new IllegalArgumentException("--inconclusive must be fail or pass, not '" + inconclusive + "'");
        }
        if (LocalLauncher.underLauncher()) {
            throw new FabprobeException(ExitCode.USAGE, "accept runs on one host (local mirrors, MPI launched by itself) or"
                    + " against a mirror by hand (peer: in the spec), not under a launcher");
        }
        Output.check("--junit", junit);
        Output.check("--json", json);
        Spec spec = SpecReader.read(specFile);
        List<Plan.Measurement> plan = Plan.of(spec);
        if (planOnly) {
            List<Availability.Absent> absent = Availability.absent(spec);
            System.out.print(AcceptReport.plan(spec.system(), plan, absent));
            if (absent.isEmpty()) return ExitCode.OK;
            // refused as a run would be, but after naming every absent transport, not only the first
            throw new SpecException(specFile.toString(), absent.size() + " of its transports are not available here: "
                    + String.join(", ", absent.stream().map(Availability.Absent::transport).toList()) + " (see the plan)");
        }
        Map<String, JsonNode> earlier = from == null ? Map.of() : earlier(from);
        boolean allEarlier = plan.stream().allMatch(m -> earlier.containsKey(m.commandLine()));
        if (!allEarlier) Availability.check(spec);

        AcceptDocument doc = Acceptance.run(spec, specFile.toString(), plan,
                args -> {
                    Delivery.Measured r = Delivery.measure(args);
                    return new Acceptance.Runner.Result(r.exitCode(), r.document(), r.error());
                },
                earlier, inconclusive.equals("pass"), "fabprobe " + Main.version(), Host.of(HostFacts.collect()), System.err);
        if (junit != null) Output.write(junit, JUnitXml.of(doc));
        if (json != null) Output.write(json, ResultJson.write(doc));
        if (json == null || !json.toString().equals("-")) System.out.print(AcceptReport.table(doc));
        return doc.passed() ? ExitCode.OK : ExitCode.CHECK_FAILED;
    }

    /** The measurements of an earlier accept document, by command line. */
    private static Map<String, JsonNode> earlier(Path file) {
        AcceptDocument d;
        try {
            d = ResultJson.read(Files.readString(file), AcceptDocument.class);
        } catch (IOException | RuntimeException e) {
            throw new FabprobeException(ExitCode.USAGE, "--from " + file + ": not an accept --json document (" + e.getMessage() + ")");
        }
        Map<String, JsonNode> byCommand = new HashMap<>();
        for (AcceptDocument.Measurement m : d.measurements()) {
            if (m.document() != null && !m.document().isNull()) byCommand.put(String.join(" ", m.args()), m.document());
        }
        return byCommand;
    }
}
