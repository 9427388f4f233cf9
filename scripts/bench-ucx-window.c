/*
 * scripts/bench's same-pattern reference for `fabprobe bandwidth` over UCX: the calls
 * fabprobe's Stream makes, in C. Measure sends windows of W tagged messages from one mapped
 * buffer (one ucp_worker_progress after each send) and waits for a 0-byte acknowledgement per
 * window; mirror keeps the next window's receives posted before it acknowledges. Prints MB/s (10^6 B/s) over the timed windows.
 *
 *   bench-ucx-window measure|mirror WINDOW WINDOWS SIZE DIR   (DIR: worker-address exchange)
 *
 * UCX_TLS and friends come from the environment, as for ucx_perftest.
 */
#define PROGRAM "bench-ucx-window"
#include "bench-ucx-common.h"

#define WARMUP_WINDOWS 3

static void wait_for(void *request, const char *what) {
    if (request == NULL) return;
    if (UCS_PTR_IS_ERR(request)) die(what, UCS_PTR_STATUS(request));
    ucs_status_t status;
    while ((status = STATUS(request)) == UCS_INPROGRESS) ucp_worker_progress(worker); /* its callback writes it */
    release_request(request);
    if (status != UCS_OK) die(what, status);
}

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: %s measure|mirror WINDOW WINDOWS SIZE DIR\n", argv[0]); return 2; }
    int measure = strcmp(argv[1], "measure") == 0, window = atoi(argv[2]), windows = atoi(argv[3]);
    size_t size = strtoull(argv[4], NULL, 10);
    const char *dir = argv[5];

    connect_peer(dir, measure);
    ucs_status_t status;

    ucp_mem_map_params_t map = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_LENGTH | UCP_MEM_MAP_PARAM_FIELD_FLAGS,
                                .length = size, .flags = UCP_MEM_MAP_ALLOCATE};
    ucp_mem_h memh;
    if ((status = ucp_mem_map(context, &map, &memh)) != UCS_OK) die("ucp_mem_map", status);
    ucp_mem_attr_t attr = {.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS};
    ucp_mem_query(memh, &attr);
    void *buffer = attr.address;

    ucp_request_param_t send_param = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_MEMH,
                                      .cb.send = send_done, .memh = memh};
    ucp_request_param_t recv_param = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_MEMH,
                                      .cb.recv = recv_done, .memh = memh};
    ucp_request_param_t ack_send = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK, .cb.send = send_done};
    ucp_request_param_t ack_recv = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK, .cb.recv = recv_done};
    void **requests = calloc(window, sizeof *requests);
    char ack[8];
    const ucp_tag_t data_tag = 1, ack_tag = 2;

    double start = 0;
    int total = WARMUP_WINDOWS + windows;
    for (int w = 0; w < total; w++) {
        if (w == WARMUP_WINDOWS) start = now();
        if (measure) {
            void *ack_request = ucp_tag_recv_nbx(worker, ack, 0, ack_tag, (ucp_tag_t)-1, &ack_recv);
            for (int m = 0; m < window; m++) {
                requests[m] = ucp_tag_send_nbx(ep, buffer, size, data_tag, &send_param);
                ucp_worker_progress(worker); /* as fabprobe: progress between the window's sends */
            }
            wait_for(ack_request, "ack receive");
            for (int m = 0; m < window; m++) wait_for(requests[m], "send");
        } else {
            if (w == 0) {
                for (int m = 0; m < window; m++)
                    requests[m] = ucp_tag_recv_nbx(worker, buffer, size, data_tag, (ucp_tag_t)-1, &recv_param);
            }
            for (int m = 0; m < window; m++) wait_for(requests[m], "receive");
            if (w + 1 < total) {
                for (int m = 0; m < window; m++)
                    requests[m] = ucp_tag_recv_nbx(worker, buffer, size, data_tag, (ucp_tag_t)-1, &recv_param);
            }
            wait_for(ucp_tag_send_nbx(ep, ack, 0, ack_tag, &ack_send), "ack send");
        }
    }
    if (measure) printf("%.1f\n", (double)size * window * windows / (now() - start) / 1e6);

    free(requests);
    ucp_mem_unmap(context, memh);
    disconnect_peer();
    return 0;
}
