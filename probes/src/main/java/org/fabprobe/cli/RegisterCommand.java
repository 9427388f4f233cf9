package org.fabprobe.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.fabprobe.api.RegisterAnalysis;
import org.fabprobe.api.RegisterRequest;
import org.fabprobe.api.SizeList;
import org.fabprobe.report.RegisterReport;
import org.fabprobe.result.RegisterDocument;
import org.fabprobe.result.ResultJson;
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
        RegisterDocument doc = RegisterAnalysis.run(new RegisterRequest(transport, SizeList.parse(sizes), repetitions));
        if (Delivery.handOver(doc)) return 0; // accept measures in process
        boolean machineReadableOnStdout = "-".equals(String.valueOf(json)) || "-".equals(String.valueOf(csv));
        if (!machineReadableOnStdout) System.out.print(RegisterReport.table(doc));
        if (json != null) Output.write(json, ResultJson.write(doc));
        Output.write(csv, RegisterReport.csv(doc));
        return 0;
    }
}
