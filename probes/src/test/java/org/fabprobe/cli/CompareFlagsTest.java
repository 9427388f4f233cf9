package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** compare flags UCX settings that differ between the raw and the MPI side. */
class CompareFlagsTest {

    private static Map<String, String> doc(Map<String, String> facts) {
        return facts;
    }

    @Test
    void sameDevicesOnBothSidesAreLikeForLike() {
        Map<String, Map<String, String>> ucx = CompareCommand.ucxSettings(
                doc(Map.of("library", "UCX", "ucx.TLS", "tcp", "ucx.NET_DEVICES", "lo")),
                doc(Map.of("library", "Open MPI", "ucx.TLS", "tcp,self", "ucx.NET_DEVICES", "lo")));
        assertEquals(Map.of("TLS", "tcp", "NET_DEVICES", "lo"), ucx.get("raw"));
        assertEquals(List.of(), CompareCommand.ucxFlags(ucx));
    }

    @Test
    void differentDevicesAreFlagged() {
        Map<String, Map<String, String>> ucx = CompareCommand.ucxSettings(
                doc(Map.of("ucx.TLS", "tcp", "ucx.NET_DEVICES", "lo")),
                doc(Map.of("ucx.TLS", "tcp,self", "ucx.NET_DEVICES", "(UCX default)")));
        List<String> flags = CompareCommand.ucxFlags(ucx);
        assertEquals(1, flags.size(), flags::toString);
        assertTrue(flags.getFirst().contains("UCX_NET_DEVICES differs"), flags::toString);
    }

    @Test
    void noUcxOnEitherSideNeedsNoCheck() {
        assertEquals(Map.of(), CompareCommand.ucxSettings(doc(Map.of("library", "libfabric")), doc(Map.of("library", "MPICH"))));
    }
}
