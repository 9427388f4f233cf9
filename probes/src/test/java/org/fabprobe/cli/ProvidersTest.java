package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.fabprobe.result.Schemas;
import org.junit.jupiter.api.Test;

/** `providers` answers "what can I measure here?": one row per usable transport and interface, -t names. */
class ProvidersTest {

    @Test
    void oneRowPerTransportAndInterfaceInTheNamesToType() {
        CliRun run = CliRun.of("providers");
        assertEquals(0, run.exitCode(), run::toString);
        List<String> rows = run.out().lines().filter(l -> l.matches("^(ofi|ucx|mpi):\\S+ .*")).toList();
        List<String> keys = rows.stream().map(l -> l.split("\\s+")[0] + " " + l.split("\\s+")[1]).toList();
        assertEquals(keys.size(), keys.stream().distinct().count(), () -> "repeated rows:\n" + run.out());
        // what the tests measure on here (Debian's libfabric, UCX, Open MPI, MPICH)
        for (String expected : List.of("ofi:shm shm", "ofi:tcp lo", "ofi:udp lo", "ofi:sockets lo", "ucx:tcp lo",
                "ucx:posix memory", "ucx:cma memory", "mpi:openmpi/ob1:vader shared", "mpi:openmpi/ucx:tcp as",
                "mpi:mpich/ucx:posix as")) {
            assertTrue(keys.contains(expected), () -> "no row " + expected + ":\n" + run.out());
        }
        assertFalse(keys.contains("ucx:self memory0"), "self reaches only its own process");
        assertFalse(run.out().contains("18446744073709551615"), run.out());
        assertTrue(rows.stream().anyMatch(l -> l.startsWith("ofi:shm") && l.contains("unlimited")), run.out());
        assertTrue(run.out().lines().count() < 50, () -> "not at a glance:\n" + run.out());
    }

    @Test
    void detailsBehindAllAndJson() {
        CliRun all = CliRun.of("providers", "--all");
        assertEquals(0, all.exitCode(), all::toString);
        assertTrue(all.out().contains("every fi_info entry") && all.out().matches("(?s).*tcp;ofi_rxm .* x[0-9]+.*"),
                all::toString);
        CliRun json = CliRun.of("providers", "--json", "-");
        assertEquals(0, json.exitCode(), json::toString);
        Map<String, Object> doc = Schemas.validated(json.out());
        assertEquals("fabprobe.providers/1", doc.get("schema"));
        assertFalse(((List<?>) ((Map<?, ?>) doc.get("libfabric")).get("offers")).isEmpty());
    }

    @Test
    void sizeMaxIsUnlimitedAndJustBelowItSaysHowFar() {
        assertEquals("unlimited", ProvidersCommand.maxMessage("18446744073709551615"));
        assertEquals("SIZE_MAX - 4 KiB", ProvidersCommand.maxMessage("18446744073709547519"));
        assertEquals("1472 B", ProvidersCommand.maxMessage("1472"));
        assertEquals("1 GiB", ProvidersCommand.maxMessage(Long.toString(1L << 30)));
    }
}
