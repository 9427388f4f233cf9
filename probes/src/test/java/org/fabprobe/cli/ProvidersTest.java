package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.fabprobe.result.ProvidersDocument;
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
        ProvidersDocument doc = Schemas.validated(json.out(), ProvidersDocument.class);
        assertEquals(ProvidersDocument.SCHEMA, doc.schema());
        assertFalse(doc.libfabric().offers().isEmpty());
    }

    /**
     * The ops column and field: libfabric's caps (shm and tcp have FI_RMA and FI_ATOMIC here), UCP
     * offers every op over every transport and says where it emulates them (tcp), Open MPI's osc
     * per selection. Each row's one_sided says who must progress.
     */
    @Test
    void opsSayWhatEachTransportOffersAndWhoMustProgress() {
        CliRun json = CliRun.of("providers", "--json", "-");
        assertEquals(0, json.exitCode(), json::toString);
        ProvidersDocument doc = Schemas.validated(json.out(), ProvidersDocument.class);
        Map<String, ProvidersDocument.Transport> rows = new java.util.HashMap<>();
        for (ProvidersDocument.Transport t : doc.transports()) rows.putIfAbsent(t.transport(), t);
        List<String> all = List.of("send", "write", "read", "atomics");
        assertEquals(all, rows.get("ofi:shm").ops(), rows.get("ofi:shm")::toString);
        assertTrue(rows.get("ofi:tcp").oneSided().startsWith("data progress "), rows.get("ofi:tcp")::toString);
        assertEquals(all, rows.get("ofi:tcp").ops(), rows.get("ofi:tcp")::toString);
        assertEquals(all, rows.get("ucx:tcp").ops());
        assertTrue(rows.get("ucx:tcp").oneSided().startsWith("emulated by UCX"), rows.get("ucx:tcp")::toString);
        assertTrue(rows.get("ucx:posix").oneSided().startsWith("native"), rows.get("ucx:posix")::toString);
        assertTrue(rows.get("mpi:openmpi/ob1:vader").oneSided().startsWith("osc sm; native"),
                rows.get("mpi:openmpi/ob1:vader")::toString);
        assertTrue(rows.get("mpi:openmpi/ob1:tcp").oneSided().startsWith("osc pt2pt; emulated"),
                rows.get("mpi:openmpi/ob1:tcp")::toString);
        for (ProvidersDocument.Offer offer : doc.libfabric().offers()) {
            if (offer.provider().equals("shm")) assertTrue(offer.rma(), offer::toString);
        }
        CliRun table = CliRun.of("providers");
        assertTrue(table.out().lines().anyMatch(l -> l.startsWith("ucx:tcp ") && l.contains("send,write,read,atomics")
                && l.contains("one-sided emulated by UCX")), table::toString);
    }

    @Test
    void sizeMaxIsUnlimitedAndJustBelowItSaysHowFar() {
        assertEquals("unlimited", ProvidersCommand.maxMessage("18446744073709551615"));
        assertEquals("SIZE_MAX - 4 KiB", ProvidersCommand.maxMessage("18446744073709547519"));
        assertEquals("1472 B", ProvidersCommand.maxMessage("1472"));
        assertEquals("1 GiB", ProvidersCommand.maxMessage(Long.toString(1L << 30)));
    }
}
