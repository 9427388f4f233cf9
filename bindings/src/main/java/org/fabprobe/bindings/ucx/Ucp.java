package org.fabprobe.bindings.ucx;

import java.lang.foreign.MemorySegment;
import org.fabprobe.bindings.ucx.gen.Ucx;

/** UCP static inlines and function-like macros, re-created in Java. */
public final class Ucp {
    private Ucp() {}

    /** ucp_init(params, config, &context): ucp_init_version with the headers' API version. */
    public static byte init(MemorySegment params, MemorySegment config, MemorySegment contextOut) {
        return Ucx.ucp_init_version(Ucx.UCP_API_MAJOR(), Ucx.UCP_API_MINOR(), params, config, contextOut);
    }

    /** ucp_dt_make_contig(elemSize). */
    public static long dtMakeContig(long elemSize) {
        return (elemSize << Ucx.UCP_DATATYPE_SHIFT()) | Ucx.UCP_DATATYPE_CONTIG();
    }

    /** The library's version as "major.minor.release" (ucp_get_version_string). */
    public static String version() {
        return Ucx.ucp_get_version_string().reinterpret(64).getString(0);
    }
}
