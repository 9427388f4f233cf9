package org.fabprobe.result;

import java.util.Map;
import org.fabprobe.clock.ClockFacts;

/**
 * A measuring command's document: its {@link RunHeader} and the command's own fields. The
 * header's fields are readable here directly; the settings through {@code header()}, typed per command.
 */
public interface RunDocument {
    RunHeader<?> header();

    default String schema() {
        return header().schema();
    }

    default String tool() {
        return header().tool();
    }

    default String command() {
        return header().command();
    }

    default String transport() {
        return header().transport();
    }

    default Map<String, String> transportFacts() {
        return header().transportFacts();
    }

    default Host host() {
        return header().host();
    }

    default Map<String, String> mirrorHost() {
        return header().mirrorHost();
    }

    default ClockFacts clock() {
        return header().clock();
    }

    default String startedAt() {
        return header().startedAt();
    }

    default double wallSeconds() {
        return header().wallSeconds();
    }
}
