package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Raw transports under the MPI launchers of this machine: rank 0 measures, rank 1 mirrors,
 * other ranks wait; one result comes out, rank 0's.
 */
class LauncherModeTest {

    /** mpirun / mpiexec over this JVM, as a user writes `mpirun -np N fabprobe ...`. */
    static List<String> launcher(String impl, int ranks) {
        List<String> cmd = new ArrayList<>();
        if (impl.equals("openmpi")) {
            cmd.addAll(List.of("mpirun.openmpi", "-np", Integer.toString(ranks), "--oversubscribe", "--bind-to", "none"));
            for (String v : List.of("IPATH_NO_BACKTRACE", "HFI_NO_BACKTRACE", "UCX_ERROR_SIGNALS")) cmd.addAll(List.of("-x", v));
        } else {
            cmd.addAll(List.of("mpiexec.mpich", "-n", Integer.toString(ranks)));
        }
        return cmd;
    }

    static final Map<String, String> ROOT_OK = Map.of("OMPI_ALLOW_RUN_AS_ROOT", "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");

    static CliRun underLauncher(String impl, int ranks, String... args) throws Exception {
        try (Spawned run = Spawned.start(launcher(impl, ranks), ROOT_OK, args)) {
            return run.await(Duration.ofMinutes(3));
        }
    }

    @ParameterizedTest
    @CsvSource({"openmpi,ofi:shm", "openmpi,ucx:tcp", "mpich,ofi:shm", "mpich,ucx:tcp"})
    void oneMeasurementBetweenRankZeroAndRankOne(String impl, String transport) throws Exception {
        CliRun run = underLauncher(impl, 2, "pingpong", "-t", transport, "-s", "8,4K", "-n", "500", "--warmup", "20",
                "--timeout", "20s", "--json", "-");
        assertEquals(0, run.exitCode(), run.toString());
        assertEquals(1, occurrences(run.out(), "\"schema\""), "one result, rank 0's: " + run);
        assertTrue(run.out().contains("\"meeting\": \"launcher"), run.out());
        assertTrue(run.out().contains("\"mirror_host\""), run.out());
        // rank 0's document with the launcher meeting and the mirror rank's host facts
        org.fabprobe.result.Schemas.validated(run.out().substring(run.out().indexOf('{')));
    }

    @Test
    void ranksBeyondTheSecondWaitAndLeaveCleanly() throws Exception {
        CliRun run = underLauncher("openmpi", 3, "pingpong", "-t", "ofi:shm", "-s", "8", "-n", "500", "--timeout", "20s");
        assertEquals(0, run.exitCode(), run.toString());
        assertEquals(1, occurrences(run.out(), "half round-trip times"), run.toString());
    }

    @Test
    void compareRunsRawAndMpiBetweenTheSameRanks() throws Exception {
        CliRun run = underLauncher("openmpi", 2, "compare", "-t", "ucx:tcp", "--mpi", "openmpi", "-s", "0,1K",
                "--timeout", "20s");
        assertEquals(0, run.exitCode(), run.toString());
        assertEquals(1, occurrences(run.out(), "fabprobe compare "), "one comparison, rank 0's: " + run);
    }

    static int occurrences(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) n++;
        return n;
    }
}
