package org.fabprobe.pattern;

import java.util.Map;
import java.util.function.BiConsumer;
import org.fabprobe.transport.Transport;

/** Finds the mirror half of a pattern from the name and inputs the measure process sent. */
public final class Patterns {
    private Patterns() {}

    public static BiConsumer<Transport, Await> mirrorHalf(String name, Map<String, String> params) {
        return switch (name) {
            case "pingpong" -> PingPong.fromParams(params)::mirror;
            default -> throw new IllegalArgumentException("unknown pattern '" + name + "'");
        };
    }
}
