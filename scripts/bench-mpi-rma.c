/*
 * scripts/bench's C reference for fabprobe's one-sided operations under MPI, in the style of
 * the OSU one-sided benchmarks: a window from MPI_Win_allocate (displacement unit 1) under a
 * passive-target epoch (MPI_Win_lock_all) for the whole run, ranks 0 and 1. Operations (-o, a
 * comma-separated list, each in turn):
 *
 *   put  ping-pong: rank 0 MPI_Put m bytes into rank 1's window and MPI_Win_flush; rank 1 polls
 *        its own window memory for the message's flag (MPI_Win_sync and, for the progress
 *        MPICH needs, MPI_Iprobe between looks), then puts back the same way. Prints the mean half round trip. Where the flag is (-O):
 *          flag  (default) a separate 1-byte MPI_Put after the payload's MPI_Win_flush (which
 *                completes it at the target): MPI promises no order of the bytes of one put
 *          last  the payload's last byte, as perftest's ib_write_lat polls (the order in which
 *                a put's bytes land is the implementation's; for comparison only)
 *   get  rank 0 MPI_Get m bytes from rank 1 and MPI_Win_flush, per operation; rank 1 waits in
 *        MPI_Barrier (its progress, as in osu_get_latency)
 *   fop  MPI_Fetch_and_op MPI_SUM on one MPI_UINT64_T + MPI_Win_flush (sizes ignored: 8 B)
 *   cas  MPI_Compare_and_swap on one MPI_UINT64_T + MPI_Win_flush, each swap succeeding
 *        (the fetched values are checked after the loop)
 *   put_bw  windows of -w MPI_Put of m bytes (default 64), then one MPI_Win_flush, as
 *        osu_put_bw; an iteration is a window (rank 1 waits in MPI_Barrier)
 *
 * ITERS/10 untimed operations precede the ITERS timed ones of each size, after a barrier.
 * Rank 0 prints a header starting with '#' and then one row per operation and size:
 *
 *   OP BYTES ITERS SECONDS USEC MB/S MMSG/S MEDIAN_USEC
 *
 * (USEC: put: mean half round trip; get, fop, cas: mean per operation; put_bw: mean per
 * message; MEDIAN_USEC the same from the median iteration, which a few preempted iterations
 * on a busy host do not move; MB/s is 10^6 B/s.)
 *
 *   mpirun -np 2 bench-mpi-rma [-o put,get,fop,cas,put_bw] [-s SIZES] [-n ITERS] [-w WINDOW] [-O flag|last]
 *
 * SIZES: comma-separated, with k/m suffixes (1k = 1024), default 8. Open MPI 4.1's default
 * one-sided component (osc rdma over btl vader) crashes in MPI_Compare_and_swap (a SIGSEGV in
 * mca_btl_vader_poll_handle_frag, open-mpi/ompi#11349): cas needs --mca osc sm, or
 * --mca btl_vader_single_copy_mechanism none.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SIZES 32
#define FLAG_GAP 64 /* the flag byte's offset past the largest payload, rounded up to this */

static int rank;

/* each timed iteration's seconds (put: a round trip; put_bw: a window), for the median */
static double *iteration_s;
static int iterations_timed;

static void time_iteration(int i, int warm, double *last) {
    double t = MPI_Wtime();
    if (i >= warm) iteration_s[iterations_timed++] = t - *last;
    *last = t;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_s(void) {
    qsort(iteration_s, iterations_timed, sizeof *iteration_s, by_value);
    int n = iterations_timed;
    return n == 0 ? 0 : n % 2 ? iteration_s[n / 2] : (iteration_s[n / 2 - 1] + iteration_s[n / 2]) / 2;
}

static void fail(const char *message, const char *detail) {
    if (rank == 0) fprintf(stderr, "bench-mpi-rma: %s%s\n", message, detail);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* polls the own window memory for the flag: MPI_Win_sync between looks (the memory model), and
   MPI_Iprobe for progress (under MPICH 4.0 with ch4:ucx a put into a window whose owner
   only polled with MPI_Win_sync never completed) */
static void await_flag(volatile uint8_t *at, uint8_t flag, MPI_Win win) {
    int unused;
    while (*at != flag) {
        MPI_Win_sync(win);
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &unused, MPI_STATUS_IGNORE);
    }
}

static uint64_t parse_size(const char *text) {
    char *end;
    uint64_t value = strtoull(text, &end, 10);
    if (*end == 'k' || *end == 'K') value <<= 10, end++;
    else if (*end == 'm' || *end == 'M') value <<= 20, end++;
    if (end == text || *end != '\0' || value == 0) fail("size: want a positive number with an optional k or m: ", text);
    return value;
}

int main(int argc, char **argv) {
    int size_of_world;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size_of_world);
    if (size_of_world != 2) fail("run with exactly 2 ranks", "");

    char ops[256] = "put", size_list[1024] = "8";
    int iters = 10000, window_ops = 64, last_byte = 0, opt;
    while ((opt = getopt(argc, argv, "o:s:n:w:O:")) != -1) {
        switch (opt) {
        case 'o': snprintf(ops, sizeof ops, "%s", optarg); break;
        case 's': snprintf(size_list, sizeof size_list, "%s", optarg); break;
        case 'n': iters = atoi(optarg); break;
        case 'w': window_ops = atoi(optarg); break;
        case 'O':
            if (strcmp(optarg, "last") != 0 && strcmp(optarg, "flag") != 0) fail("-O: flag or last, not ", optarg);
            last_byte = strcmp(optarg, "last") == 0;
            break;
        default: fail("usage: bench-mpi-rma [-o put,get,fop,cas,put_bw] [-s SIZES] [-n ITERS] [-w WINDOW] [-O flag|last]", "");
        }
    }
    if (iters < 1) fail("-n: at least 1", "");
    if (window_ops < 1) fail("-w: at least 1", "");
    uint64_t sizes[MAX_SIZES], largest = 8;
    int nsizes = 0;
    for (char *next, *item = strtok_r(size_list, ",", &next); item; item = strtok_r(NULL, ",", &next)) {
        if (nsizes == MAX_SIZES) fail("-s: too many sizes", "");
        sizes[nsizes] = parse_size(item);
        if (sizes[nsizes] > largest) largest = sizes[nsizes];
        nsizes++;
    }
    const size_t flag_offset = (largest + FLAG_GAP - 1) / FLAG_GAP * FLAG_GAP, length = flag_offset + FLAG_GAP;

    uint8_t *window, *local;
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)length, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &window, &win);
    MPI_Alloc_mem((MPI_Aint)length, MPI_INFO_NULL, &local);
    memset(window, 0, length);
    memset(local, 0, length);
    MPI_Win_lock_all(0, win);
    const int peer = 1 - rank, warm = iters / 10, total = warm + iters;
    iteration_s = malloc(sizeof *iteration_s * (size_t)iters);
    if (!iteration_s) fail("out of memory", "");

    if (rank == 0) {
        int version, subversion, len;
        char library[MPI_MAX_LIBRARY_VERSION_STRING];
        MPI_Get_version(&version, &subversion);
        MPI_Get_library_version(library, &len);
        library[strcspn(library, "\n")] = '\0';
        printf("# bench-mpi-rma: MPI %d.%d, %s; MPI_Win_allocate + MPI_Win_lock_all, %d timed + %d untimed per size\n",
               version, subversion, library, iters, warm);
        printf("# put: ping-pong, half round trip; the flag: %s\n",
               last_byte ? "the payload's last byte (-O last)" : "a 1-byte MPI_Put after the payload's MPI_Win_flush");
        printf("# put_bw: windows of %d MPI_Put, then MPI_Win_flush\n", window_ops);
        printf("#%-8s %8s %8s %10s %10s %10s %8s %10s\n", "op", "bytes", "iters", "seconds", "usec", "MB/s", "Mmsg/s",
               "median_us");
        fflush(stdout);
    }

    for (char *next, *op = strtok_r(ops, ",", &next); op; op = strtok_r(NULL, ",", &next)) {
        int put = strcmp(op, "put") == 0, get = strcmp(op, "get") == 0, fop = strcmp(op, "fop") == 0,
            cas = strcmp(op, "cas") == 0, put_bw = strcmp(op, "put_bw") == 0;
        if (!put && !get && !fop && !cas && !put_bw) fail("-o: put, get, fop, cas or put_bw, not ", op);
        for (int s = 0; s < (put || get || put_bw ? nsizes : 1); s++) {
            const size_t m = put || get || put_bw ? sizes[s] : 8;
            /* a clean window: no flag or count left from before */
            memset(window, 0, length);
            MPI_Win_sync(win);
            MPI_Barrier(MPI_COMM_WORLD);
            double start = 0, last = MPI_Wtime();
            iterations_timed = 0;
            uint64_t *counter = (uint64_t *)local, *fetched /* origin buffers in MPI_Alloc_mem memory */ = (uint64_t *)(local + FLAG_GAP);
            int wrong = 0;
            if (put) {
                volatile uint8_t *flag_at = window + (last_byte ? m - 1 : flag_offset);
                for (int i = 0; i < total; i++) {
                    uint8_t flag = (uint8_t)(i % 255 + 1);
                    if (i == warm) start = MPI_Wtime();
                    if (rank == 1) await_flag(flag_at, flag, win);
                    if (last_byte) {
                        local[m - 1] = flag;
                        MPI_Put(local, (int)m, MPI_BYTE, peer, 0, (int)m, MPI_BYTE, win);
                        MPI_Win_flush(peer, win);
                    } else {
                        local[flag_offset] = flag;
                        MPI_Put(local, (int)m, MPI_BYTE, peer, 0, (int)m, MPI_BYTE, win);
                        MPI_Win_flush(peer, win);
                        MPI_Put(local + flag_offset, 1, MPI_BYTE, peer, (MPI_Aint)flag_offset, 1, MPI_BYTE, win);
                        MPI_Win_flush(peer, win);
                    }
                    if (rank == 0) {
                        await_flag(flag_at, flag, win);
                        time_iteration(i, warm, &last);
                    }
                }
            } else if (rank == 0) {
                for (int i = 0; i < total; i++) {
                    if (i == warm) start = MPI_Wtime();
                    if (put_bw) {
                        for (int w = 0; w < window_ops; w++)
                            MPI_Put(local, (int)m, MPI_BYTE, peer, 0, (int)m, MPI_BYTE, win);
                    } else if (get) {
                        MPI_Get(local, (int)m, MPI_BYTE, peer, 0, (int)m, MPI_BYTE, win);
                    } else if (fop) {
                        *counter = 1;
                        MPI_Fetch_and_op(counter, fetched, MPI_UINT64_T, peer, 0, MPI_SUM, win);
                    } else {
                        counter[0] = (uint64_t)i + 1; /* the new value, if the target holds counter[1] */
                        counter[1] = (uint64_t)i;
                        MPI_Compare_and_swap(&counter[0], &counter[1], fetched, MPI_UINT64_T, peer, 0, win);
                    }
                    MPI_Win_flush(peer, win);
                    time_iteration(i, warm, &last);
                    if ((fop || cas) && *fetched != (uint64_t)i) wrong++;
                }
            }
            double seconds = MPI_Wtime() - start;
            MPI_Barrier(MPI_COMM_WORLD); /* rank 1's progress while rank 0 gets or fetches */
            if (rank == 1 && (fop || cas)) {
                MPI_Win_sync(win);
                if (*(uint64_t *)window != (uint64_t)total) wrong++;
            }
            int wrong_anywhere;
            MPI_Allreduce(&wrong, &wrong_anywhere, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            if (wrong_anywhere) fail(op, ": fetched or final values are not what the operations made them");
            if (rank == 0) {
                /* per message: a write's half round trip, a window's share */
                const double per = put ? 2 : put_bw ? window_ops : 1, messages = (double)iters * (put_bw ? window_ops : 1);
                printf("%-9s %8zu %8d %10.4f %10.3f %10.1f %8.3f %10.3f\n", op, m, iters, seconds,
                       seconds / iters / per * 1e6, (double)m * messages / seconds / 1e6, messages / seconds / 1e6,
                       median_s() / per * 1e6);
                fflush(stdout);
            }
        }
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Free_mem(local);
    free(iteration_s);
    MPI_Finalize();
    return 0;
}
