package org.fabprobe.pattern;

import java.util.Map;
import org.fabprobe.transport.Transport;

/** Finds the mirror half of a pattern from the name and inputs the measure process sent. */
public final class Patterns {
    private Patterns() {}

    /** The mirror half of one pattern. */
    public interface MirrorHalf {
        void run(Transport t, Await await, Control control);
    }

    public static MirrorHalf mirrorHalf(String name, Map<String, String> params) {
        return switch (name) {
            case "pingpong" -> PingPong.fromParams(params)::mirror;
            case "stream" -> Stream.fromParams(params)::mirror;
            case "probe" -> (t, await, control) -> Probe.mirror(t, await, control, params);
            default -> throw new IllegalArgumentException("unknown pattern '" + name + "'");
        };
    }

    /** Message sizes as the mirror receives them: "0,8,1024". */
    static String formatSizes(long[] sizes) {
        return java.util.Arrays.stream(sizes).mapToObj(Long::toString).collect(java.util.stream.Collectors.joining(","));
    }

    static long[] parseSizes(String text) {
        return java.util.Arrays.stream(text.split(",")).mapToLong(Long::parseLong).toArray();
    }
}
