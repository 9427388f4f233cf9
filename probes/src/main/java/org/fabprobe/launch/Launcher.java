package org.fabprobe.launch;

import java.util.List;
import java.util.Map;
import org.fabprobe.bindings.mpi.Mpi;

/**
 * The launcher that started this process, recognized from the environment it documents:
 * Open MPI's mpirun (OMPI_COMM_WORLD_*), MPICH's Hydra mpiexec (PMI_RANK, PMI_SIZE), PMIx
 * servers (PMIX_RANK) and Slurm's srun (SLURM_PROCID with SLURM_STEP_ID). The MPI that
 * bootstraps raw transports follows it; FABPROBE_MPI=openmpi|mpich overrides that (srun
 * runs either, depending on its --mpi plugin).
 *
 * @param name what started us, for the report
 * @param mpi  the MPI whose MPI_Init this launcher serves
 */
public record Launcher(String name, Mpi.Implementation mpi) {

    /** This process's launcher, or null when started by hand. */
    public static Launcher detect() {
        return detect(System.getenv());
    }

    static Launcher detect(Map<String, String> env) {
        String name;
        Mpi.Implementation mpi;
        if (env.containsKey("OMPI_COMM_WORLD_SIZE")) {
            name = "Open MPI mpirun";
            mpi = Mpi.Implementation.OPENMPI;
        } else if (env.containsKey("SLURM_PROCID") && env.containsKey("SLURM_STEP_ID")) {
            name = "Slurm srun";
            mpi = env.containsKey("PMI_FD") || env.containsKey("PMI_RANK") ? Mpi.Implementation.MPICH : Mpi.Implementation.OPENMPI;
        } else if (env.containsKey("PMI_RANK") || env.containsKey("PMI_SIZE")) {
            name = "MPICH Hydra";
            mpi = Mpi.Implementation.MPICH;
        } else if (env.containsKey("PMIX_RANK")) {
            name = "PMIx";
            mpi = Mpi.Implementation.OPENMPI;
        } else {
            return null;
        }
        String chosen = env.get("FABPROBE_MPI");
        if (chosen != null && !chosen.isBlank()) mpi = Mpi.Implementation.of(chosen.strip());
        return new Launcher(name, mpi);
    }

    /** This process's rank as its launcher numbered it, before MPI is joined; 0 when started by hand. */
    public static int rank() {
        return rank(System.getenv());
    }

    static int rank(Map<String, String> env) {
        if (detect(env) == null) return 0;
        for (String key : List.of("OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID")) {
            String value = env.get(key);
            if (value == null) continue;
            try {
                return Integer.parseInt(value.strip());
            } catch (NumberFormatException e) {
                // not a number: the next variable may say it
            }
        }
        return 0;
    }
}
