package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import org.fabprobe.model.Summary;

/**
 * Schema fabprobe.register/1: the time to register and to deregister memory per size, on
 * fresh pages (first registration) and again on the same buffer (re-registration, what a
 * registration cache can answer), and whether the library keeps such a cache.
 */
public record RegisterDocument(@JsonUnwrapped RunHeader<Settings> header, Cache registrationCache, List<Size> sizes)
        implements RunDocument {
    public static final String SCHEMA = "fabprobe.register/1";

    /** register's inputs: the sizes and the timed repetitions of each series. */
    public record Settings(List<Long> sizes, int repetitions) {}

    /** Whether the library caches registrations for this transport, and the setting or fact that says so. */
    public record Cache(boolean active, String reason) {}

    /**
     * One size, ns: first registration and deregistration of fresh pages, re-registration and
     * deregistration of one buffer registered before.
     */
    public record Size(long sizeBytes, Stats firstRegisterNs, Stats firstDeregisterNs, Stats registerNs,
                       Stats deregisterNs) {}

    /** One series' spread, ns (the stats of common.schema.json). */
    public record Stats(double min, double median, double p99, double max, double mean, double stddev, double ci95) {
        public static Stats of(Summary s) {
            return new Stats(s.min(), s.median(), s.p99(), s.max(), s.mean(), s.stddev(), s.ci95());
        }
    }
}
