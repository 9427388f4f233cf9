package org.fabprobe.transport.ucx;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.fabprobe.transport.mpi.MpiSelection;
import org.junit.jupiter.api.Test;

/** Raw ucx:TLS and MPI over UCX pin the same UCX settings, from one place. */
class UcxSettingsTest {

    @Test
    void tcpOnLoopbackIsPinnedToLo() {
        assertEquals(Map.of("TLS", "tcp", "NET_DEVICES", "lo"), UcxSettings.pinned("tcp", "127.0.0.1"));
        assertEquals(Map.of("TLS", "tcp"), UcxSettings.pinned("tcp", null), "no address known: UCX chooses");
        assertEquals(Map.of("TLS", "posix,cma"), UcxSettings.pinned("posix,cma", "127.0.0.1"), "shared memory: no device");
        assertEquals(UcxSettings.UCX_DEFAULT, UcxSettings.facts(Map.of("TLS", "tcp")).get("ucx.NET_DEVICES"));
    }

    @Test
    void mpiOverUcxGetsTheRawSidesSettings() {
        // the test JVM is not an MPI rank: every rank (one) is on this host
        for (String impl : new String[] {"openmpi", "mpich"}) {
            Map<String, String> env = MpiSelection.parse("mpi:" + impl + "/ucx:tcp", "127.0.0.1").environment();
            UcxSettings.pinned("tcp,self", "127.0.0.1").forEach((k, v) -> assertEquals(v, env.get("UCX_" + k), impl + " " + k));
            assertEquals(env, MpiSelection.parse("mpi:" + impl + "/ucx:tcp").environment(),
                    "every rank on this host (here: one process): pinned as raw ucx:tcp in local mode");
            assertNull(MpiSelection.parse("mpi:" + impl + "/ucx:tcp", null).environment().get("UCX_NET_DEVICES"),
                    "no source address known: UCX chooses");
        }
    }
}
