package org.fabprobe.launch;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.fabprobe.transport.TransportOptions;

/**
 * Everything the mirror must know to take part: which transport, how to open it, where
 * to run, and which pattern with which inputs. Sent over the rendezvous as text.
 *
 * @param cpu the CPU to pin to, or -1 for no pinning
 */
public record SessionSpec(String transport, TransportOptions options, int cpu, String pattern,
                          Map<String, String> patternParams) {

    Map<String, String> toMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("transport", transport);
        m.put("buffer_bytes", Long.toString(options.bufferBytes()));
        m.put("depth", Integer.toString(options.depth()));
        m.put("timeout_ms", Long.toString(options.timeout().toMillis()));
        m.put("source_node", options.sourceNode());
        m.put("cpu", Integer.toString(cpu));
        m.put("pattern", pattern);
        patternParams.forEach((k, v) -> m.put("p." + k, v));
        return m;
    }

    static SessionSpec fromMap(Map<String, String> m) {
        Map<String, String> params = new LinkedHashMap<>();
        m.forEach((k, v) -> {
            if (k.startsWith("p.")) params.put(k.substring(2), v);
        });
        TransportOptions options = new TransportOptions(Long.parseLong(m.get("buffer_bytes")),
                Integer.parseInt(m.get("depth")), Duration.ofMillis(Long.parseLong(m.get("timeout_ms"))),
                m.get("source_node"));
        return new SessionSpec(m.get("transport"), options, Integer.parseInt(m.get("cpu")), m.get("pattern"), params);
    }
}
