#!/bin/sh
# fabprobe as a Slurm batch job: raw transport against MPI between two ranks on two nodes
# (the cluster recipe); the table goes to fabprobe-JOBID.out, the JSON document beside it.
#   sbatch docs/slurm-job.sh                                  # compare -t ucx:tcp --mpi openmpi
#   sbatch docs/slurm-job.sh compare -t ofi:verbs --mpi openmpi
#   FABPROBE=$HOME/fabprobe/bin/fabprobe sbatch docs/slurm-job.sh pingpong -t ofi:tcp
# Open MPI bootstraps through PMIx (srun --mpi=pmix); with MPICH set FABPROBE_MPI=mpich and
# SRUN_MPI=pmi2 (sbatch passes the environment on). scripts/test-slurm runs this file.
#SBATCH --job-name=fabprobe
#SBATCH --nodes=2
#SBATCH --ntasks=2
#SBATCH --time=00:15:00
#SBATCH --output=fabprobe-%j.out
set -eu
[ $# -gt 0 ] || set -- compare -t ucx:tcp --mpi openmpi
exec srun --mpi="${SRUN_MPI:-pmix}" "${FABPROBE:-/opt/fabprobe/bin/fabprobe}" "$@" --json "fabprobe-$SLURM_JOB_ID.json"
