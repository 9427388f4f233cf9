package org.fabprobe.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.fabprobe.api.RunFacts;
import org.fabprobe.api.SizeList;
import org.fabprobe.model.Statistics;
import org.fabprobe.pattern.Registration;
import org.fabprobe.report.RegisterReport;
import org.fabprobe.result.RegisterDocument;
import org.fabprobe.result.RegisterDocument.Stats;
import org.fabprobe.result.ResultJson;
import org.fabprobe.transport.Registrar;
import org.fabprobe.transport.Transports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** `fabprobe register`: the cost of registering and deregistering memory per size, in this process alone. */
@Command(name = "register", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Memory registration cost: fi_mr_reg/fi_close (ofi:) or ucp_mem_map/ucp_mem_unmap (ucx:) per size,",
                "on fresh never-touched pages and again on the same buffer, and whether a registration cache is active.",
                "One process, no peer."})
final class RegisterCommand implements Callable<Integer> {
    @Option(names = {"-t", "--transport"}, required = true, description = "ofi:PROVIDER or ucx:TLS (see 'fabprobe providers').")
    String transport;

    @Option(names = {"-s", "--sizes"}, defaultValue = "4K..1G",
            description = "Buffer sizes: list and/or power-of-two ranges, each mapped and unmapped on its own. Default: ${DEFAULT-VALUE}")
    String sizes;

    @Option(names = {"-n", "--reps"}, defaultValue = "10", description = "Timed repetitions of each series per size. Default: ${DEFAULT-VALUE}")
    int repetitions;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the result as JSON (schema fabprobe.register/1; - for stdout).")
    Path json;

    @Option(names = "--csv", paramLabel = "FILE", description = "Also write per-size rows as CSV (- for stdout).")
    Path csv;

    @Override
    public Integer call() throws IOException {
        Output.check("--json", json);
        Output.check("--csv", csv);
        long[] sizeList = SizeList.parse(sizes);
        Registration registration = new Registration(sizeList, repetitions); // refuses bad sizes and counts first
        String startedAt = Instant.now().toString();
        long start = System.nanoTime();
        Map<String, String> transportFacts = new LinkedHashMap<>();
        Registration.Size[] measured;
        RegisterDocument.Cache cache;
        try (Registrar registrar = Transports.openRegistrar(transport)) {
            transportFacts.putAll(registrar.facts());
            Registrar.Cache c = registrar.cache();
            cache = new RegisterDocument.Cache(c.active(), c.reason());
            measured = registration.measure(registrar, i -> {});
        }
        double wallSeconds = (System.nanoTime() - start) / 1e9;
        List<RegisterDocument.Size> rows = new ArrayList<>();
        for (Registration.Size s : measured) {
            rows.add(new RegisterDocument.Size(s.sizeBytes(), stats(s.firstRegisterNs()), stats(s.firstDeregisterNs()),
                    stats(s.registerNs()), stats(s.deregisterNs())));
        }
        RunFacts<RegisterDocument.Settings> run = RunFacts.of("register", transport, transportFacts,
                new RegisterDocument.Settings(SizeList.asList(sizeList), repetitions), startedAt);
        if (Delivery.handOver(RegisterReport.document(run, cache, rows, wallSeconds))) return 0; // accept measures in process
        boolean machineReadableOnStdout = "-".equals(String.valueOf(json)) || "-".equals(String.valueOf(csv));
        if (!machineReadableOnStdout) System.out.print(RegisterReport.table(run, cache, rows, wallSeconds));
        if (json != null) Output.write(json, ResultJson.write(RegisterReport.document(run, cache, rows, wallSeconds)));
        Output.write(csv, RegisterReport.csv(rows));
        return 0;
    }

    private static Stats stats(double[] samples) {
        return Stats.of(Statistics.summarize(samples, samples.length));
    }
}
