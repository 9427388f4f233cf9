package org.fabprobe.bindings.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fabprobe.bindings.libc.Libc;
import org.fabprobe.bindings.ucx.gen.Ucx;
import org.fabprobe.bindings.ucx.gen.ucp_params;

/**
 * The transports and devices UCX can use here. UCX's public API has no call that returns
 * them as data, so this reads the "resource N : md M dev D flags -- tls/device" lines that
 * ucp_context_print_info writes for a context opened with UCX_TLS=all.
 */
public final class UcpResources {
    private static final Pattern RESOURCE = Pattern.compile("resource\\s+\\d+\\s*:.*--\\s*(\\S+)/(\\S+)");

    /** One transport on one device, e.g. tcp on lo. */
    public record Resource(String transport, String device) {}

    private UcpResources() {}

    public static List<Resource> list() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment configOut = arena.allocate(ADDRESS);
            Ucs.check(Ucx.ucp_config_read(MemorySegment.NULL, MemorySegment.NULL, configOut), "ucp_config_read");
            MemorySegment config = configOut.get(ADDRESS, 0);
            MemorySegment context;
            try {
                Ucs.check(Ucx.ucp_config_modify(config, arena.allocateFrom("TLS"), arena.allocateFrom("all")),
                        "ucp_config_modify(TLS)");
                MemorySegment params = arena.allocate(ucp_params.layout());
                ucp_params.field_mask(params, Ucx.UCP_PARAM_FIELD_FEATURES());
                ucp_params.features(params, Ucx.UCP_FEATURE_TAG());
                MemorySegment contextOut = arena.allocate(ADDRESS);
                Ucs.check(Ucp.init(params, config, contextOut), "ucp_init");
                context = contextOut.get(ADDRESS, 0);
            } finally {
                Ucx.ucp_config_release(config);
            }
            try {
                return parse(printInfo(context, arena));
            } finally {
                Ucx.ucp_cleanup(context);
            }
        }
    }

    static List<Resource> parse(String info) {
        List<Resource> resources = new ArrayList<>();
        for (String line : info.split("\n")) {
            Matcher m = RESOURCE.matcher(line);
            if (m.find()) resources.add(new Resource(m.group(1), m.group(2)));
        }
        return resources;
    }

    private static String printInfo(MemorySegment context, Arena arena) {
        try {
            MemorySegment bufOut = arena.allocate(ADDRESS);
            MemorySegment sizeOut = arena.allocate(JAVA_LONG);
            MemorySegment stream = Libc.open_memstream(bufOut, sizeOut);
            if (stream.equals(MemorySegment.NULL)) throw new IllegalStateException("open_memstream failed");
            Ucx.ucp_context_print_info(context, stream);
            int closed = Libc.fclose(stream); // flushes into *bufOut
            MemorySegment buf = bufOut.get(ADDRESS, 0);
            String text = buf.reinterpret(sizeOut.get(JAVA_LONG, 0) + 1).getString(0);
            Libc.free(buf);
            if (closed != 0) throw new IllegalStateException("fclose failed");
            return text;
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
