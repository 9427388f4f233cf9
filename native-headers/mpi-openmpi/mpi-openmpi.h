/* fabprobe's view of Open MPI's mpi.h (Debian: libopenmpi-dev).
 * scripts/generate-bindings runs jextract on this file with mpi-openmpi.argfile.
 * Handles are pointers to predefined globals (ompi_mpi_comm_world, ...): the hand-written
 * layer looks those symbols up itself. */
#include <mpi.h>
