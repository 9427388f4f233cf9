package org.fabprobe.api;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fabprobe.model.Statistics;
import org.fabprobe.pattern.Registration;
import org.fabprobe.result.RegisterDocument;
import org.fabprobe.result.RegisterDocument.Stats;
import org.fabprobe.transport.Registrar;
import org.fabprobe.transport.Transports;

/** A registration-cost sweep from request to typed document, in this process alone (no peer). */
public final class RegisterAnalysis {
    private RegisterAnalysis() {}

    /** Registers and deregisters each size as {@code request} says, on fresh pages and again on the same buffer. */
    public static RegisterDocument run(RegisterRequest request) {
        long[] sizes = request.sizes();
        Registration registration = new Registration(sizes, request.repetitions()); // refuses bad sizes and counts first
        String startedAt = Instant.now().toString();
        long start = System.nanoTime();
        Map<String, String> transportFacts = new LinkedHashMap<>();
        Registration.Size[] measured;
        RegisterDocument.Cache cache;
        try (Registrar registrar = Transports.openRegistrar(request.transport())) {
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
        RunFacts<RegisterDocument.Settings> run = RunFacts.of("register", request.transport(), transportFacts,
                new RegisterDocument.Settings(SizeList.asList(sizes), request.repetitions()), startedAt);
        return new RegisterDocument(run.header(RegisterDocument.SCHEMA, wallSeconds), cache, rows);
    }

    private static Stats stats(double[] samples) {
        return Stats.of(Statistics.summarize(samples, samples.length));
    }
}
