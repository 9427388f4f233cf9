/* fabprobe's view of MPICH's mpi.h (Debian: libmpich-dev).
 * scripts/generate-bindings runs jextract on this file with mpi-mpich.argfile.
 * Handles are ints (MPI_COMM_WORLD is 0x44000000); MPI_STATUS_IGNORE is (MPI_Status *)1. */
#include <mpi.h>
