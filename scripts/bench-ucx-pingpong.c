/*
 * scripts/bench's same-pattern reference for `fabprobe pingpong` over UCX: the calls fabprobe's
 * PingPong and UcxTransport make, in C. Each side keeps its next receive posted while its own
 * message is in flight; a send that completes inside ucp_tag_send_nbx needs no wait; a wait
 * polls ucp_worker_progress and reads the status word of every outstanding request (written by
 * its completion callback) only when progress reported events or a request was posted since
 * the last look (a send that completed while the receive was awaited is seen then); completed requests are freed when their
 * slot is reused, after the next message is on its way. Prints the mean half round trip in ns
 * over the timed round trips (CLOCK_MONOTONIC around them), as fabprobe's JSON `mean` is.
 *
 *   bench-ucx-pingpong measure|mirror ROUNDS WARMUP SIZE DIR   (DIR: worker-address exchange)
 *
 * UCX_TLS and friends come from the environment, as for ucx_perftest.
 */
#define PROGRAM "bench-ucx-pingpong"
#include "bench-ucx-common.h"

static int posted_since_check;

/* the outstanding receive and send (NULL: none, or completed inside the posting call) */
static void *pending[2];
enum { RECV, SEND };

static void *post_recv(void *buffer, size_t size, const ucp_request_param_t *param) {
    void *request = ucp_tag_recv_nbx(worker, buffer, size, 1, (ucp_tag_t)-1, param);
    if (UCS_PTR_IS_ERR(request)) die("ucp_tag_recv_nbx", UCS_PTR_STATUS(request));
    posted_since_check = 1;
    return request;
}

static void *post_send(void *buffer, size_t size, const ucp_request_param_t *param) {
    void *request = ucp_tag_send_nbx(ep, buffer, size, 1, param);
    if (UCS_PTR_IS_ERR(request)) die("ucp_tag_send_nbx", UCS_PTR_STATUS(request));
    if (request != NULL) posted_since_check = 1;
    return request;
}

/* as UcxTransport.progress: one progress call; when it reported events or something was
   posted since the last look, the status word of every outstanding request */
static void progress(void) {
    if (ucp_worker_progress(worker) == 0 && !posted_since_check) return;
    posted_since_check = 0;
    for (int kind = RECV; kind <= SEND; kind++) {
        if (pending[kind] == NULL) continue;
        ucs_status_t status = STATUS(pending[kind]);
        if (status == UCS_INPROGRESS) continue;
        if (status != UCS_OK) die(kind == RECV ? "receive" : "send", status);
        pending[kind] = NULL;
    }
}

/* as Await: progress until the operation of this kind has completed */
static void wait_for(int kind, void *request) {
    pending[kind] = request;
    while (pending[kind] != NULL) progress();
}

static void release(void **slot, void *request) {
    if (*slot != NULL) release_request(*slot);
    *slot = request;
}

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: %s measure|mirror ROUNDS WARMUP SIZE DIR\n", argv[0]); return 2; }
    int measure = strcmp(argv[1], "measure") == 0, rounds = atoi(argv[2]), warmup = atoi(argv[3]);
    size_t size = strtoull(argv[4], NULL, 10);
    const char *dir = argv[5];

    connect_peer(dir, measure);
    ucs_status_t status;

    /* two buffers, mapped once and passed as memh, as fabprobe's */
    size_t length = size < 64 ? 64 : size;
    void *buffers[2];
    ucp_mem_h memh[2];
    for (int b = 0; b < 2; b++) {
        if (posix_memalign(&buffers[b], 4096, length) != 0) { perror("bench-ucx-pingpong: buffer"); return 1; }
        memset(buffers[b], 0, length);
        ucp_mem_map_params_t map = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
                                    .address = buffers[b], .length = length};
        if ((status = ucp_mem_map(context, &map, &memh[b])) != UCS_OK) die("ucp_mem_map", status);
    }
    void *send_buffer = buffers[0], *recv_buffer = buffers[1];
    ucp_request_param_t send_param = {.op_attr_mask = UCP_OP_ATTR_FIELD_MEMH | UCP_OP_ATTR_FIELD_CALLBACK,
                                      .memh = memh[0], .cb.send = send_done};
    ucp_request_param_t recv_param = {.op_attr_mask = UCP_OP_ATTR_FIELD_MEMH | UCP_OP_ATTR_FIELD_CALLBACK,
                                      .memh = memh[1], .cb.recv = recv_done};

    int total = warmup + rounds;
    void *recv_slot = NULL, *send_slot = NULL; /* the previous, completed requests */
    double start = 0;
    void *recv = post_recv(recv_buffer, size, &recv_param);
    for (int i = 0; i < total; i++) {
        if (measure) {
            if (i == warmup) start = now();
            void *send = post_send(send_buffer, size, &send_param);
            pending[SEND] = send;
            void *next = i + 1 < total ? post_recv(recv_buffer, size, &recv_param) : NULL;
            wait_for(RECV, recv);
            wait_for(SEND, pending[SEND]);
            release(&recv_slot, recv);
            release(&send_slot, send);
            recv = next;
        } else {
            wait_for(RECV, recv);
            void *send = post_send(send_buffer, size, &send_param);
            pending[SEND] = send;
            void *next = i + 1 < total ? post_recv(recv_buffer, size, &recv_param) : NULL;
            wait_for(SEND, pending[SEND]);
            release(&recv_slot, recv);
            release(&send_slot, send);
            recv = next;
        }
    }
    if (measure) printf("%.2f\n", (now() - start) / rounds / 2 * 1e9);
    release(&recv_slot, NULL);
    release(&send_slot, NULL);

    for (int b = 0; b < 2; b++) {
        ucp_mem_unmap(context, memh[b]);
        free(buffers[b]);
    }
    disconnect_peer();
    return 0;
}
