/*
 * scripts/bench's C reference for `fabprobe pingpong -t mpi:...`: an 8 B MPI ping-pong
 * between ranks 0 and 1, in either of fabprobe's calling styles:
 *   b  MPI_Send / MPI_Recv (as osu_latency; fabprobe --calls blocking)
 *   n  MPI_Irecv posted first, MPI_Isend, MPI_Test until both are done (fabprobe --calls nonblocking)
 * After ITERS/10 untimed round trips and a barrier, rank 0 prints the mean half round trip
 * in us and the timed loop's length in s.
 *
 *   mpirun -np 2 bench-mpi-pingpong ITERS b|n
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank, iters = atoi(argv[1]), warm = iters / 10, nonblocking = argc > 2 && argv[2][0] == 'n';
    char buf[8] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double start = 0;
    for (int i = 0; i < warm + iters; i++) {
        if (i == warm) { MPI_Barrier(MPI_COMM_WORLD); start = MPI_Wtime(); }
        if (nonblocking) {
            MPI_Request r[2];
            int done = 0, peer = 1 - rank;
            MPI_Irecv(buf, 8, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &r[0]);
            if (rank == 1) while (!done) MPI_Test(&r[0], &done, MPI_STATUS_IGNORE);
            MPI_Isend(buf, 8, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &r[1]);
            for (done = 0; !done;) MPI_Test(&r[1], &done, MPI_STATUS_IGNORE);
            if (rank == 0) for (done = 0; !done;) MPI_Test(&r[0], &done, MPI_STATUS_IGNORE);
        } else if (rank == 0) {
            MPI_Send(buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
    double seconds = MPI_Wtime() - start;
    if (rank == 0) printf("%.4f %.4f\n", seconds / iters / 2 * 1e6, seconds);
    MPI_Finalize();
    return 0;
}
