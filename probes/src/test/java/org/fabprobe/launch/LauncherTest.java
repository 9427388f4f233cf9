package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.fabprobe.bindings.mpi.Mpi;
import org.junit.jupiter.api.Test;

/** Which launcher started us, from the variables each documents (Slurm is not installable here: this is its test). */
class LauncherTest {

    @Test
    void eachLauncherIsRecognizedFromItsEnvironment() {
        assertNull(Launcher.detect(Map.of("PATH", "/usr/bin")));
        assertEquals(new Launcher("Open MPI mpirun", Mpi.Implementation.OPENMPI),
                Launcher.detect(Map.of("OMPI_COMM_WORLD_SIZE", "2", "OMPI_COMM_WORLD_RANK", "0", "PMIX_RANK", "0")));
        assertEquals(new Launcher("MPICH Hydra", Mpi.Implementation.MPICH),
                Launcher.detect(Map.of("PMI_RANK", "1", "PMI_SIZE", "2", "PMI_FD", "7")));
        assertEquals(new Launcher("PMIx", Mpi.Implementation.OPENMPI), Launcher.detect(Map.of("PMIX_RANK", "0")));
        // srun --mpi=pmix (Open MPI) and --mpi=pmi2 (MPICH)
        assertEquals(new Launcher("Slurm srun", Mpi.Implementation.OPENMPI),
                Launcher.detect(Map.of("SLURM_PROCID", "0", "SLURM_STEP_ID", "3", "PMIX_RANK", "0")));
        assertEquals(new Launcher("Slurm srun", Mpi.Implementation.MPICH),
                Launcher.detect(Map.of("SLURM_PROCID", "1", "SLURM_STEP_ID", "3", "PMI_FD", "5", "PMI_RANK", "1")));
        // a batch script (SLURM_PROCID without a step) is not a launcher rank
        assertNull(Launcher.detect(Map.of("SLURM_PROCID", "0", "SLURM_JOB_ID", "9")));
        assertEquals(Mpi.Implementation.MPICH,
                Launcher.detect(Map.of("SLURM_PROCID", "0", "SLURM_STEP_ID", "3", "FABPROBE_MPI", "mpich")).mpi());
    }

    @Test
    void theRankIsReadBeforeMpiIsJoined() {
        assertEquals(0, Launcher.rank(Map.of("PATH", "/usr/bin")));
        assertEquals(3, Launcher.rank(Map.of("OMPI_COMM_WORLD_SIZE", "4", "OMPI_COMM_WORLD_RANK", "3", "PMIX_RANK", "3")));
        assertEquals(1, Launcher.rank(Map.of("SLURM_PROCID", "1", "SLURM_STEP_ID", "3", "PMI_FD", "5")));
        assertEquals(0, Launcher.rank(Map.of("SLURM_PROCID", "2", "SLURM_JOB_ID", "9"))); // a batch script: no rank
    }
}
