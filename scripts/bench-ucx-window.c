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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <ucp/api/ucp.h>

#define WARMUP_WINDOWS 3

static ucp_worker_h worker;

static void die(const char *what, ucs_status_t status) {
    fprintf(stderr, "bench-ucx-window: %s: %s\n", what, ucs_status_string(status));
    exit(1);
}

static void sent(void *request, ucs_status_t status, void *user) {}
static void received(void *request, ucs_status_t status, const ucp_tag_recv_info_t *info, void *user) {}

static void wait_for(void *request, const char *what) {
    if (request == NULL) return;
    if (UCS_PTR_IS_ERR(request)) die(what, UCS_PTR_STATUS(request));
    ucs_status_t status;
    while ((status = ucp_request_check_status(request)) == UCS_INPROGRESS) ucp_worker_progress(worker);
    ucp_request_free(request);
    if (status != UCS_OK) die(what, status);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* writes this worker's address to DIR/SELF and reads the peer's from DIR/PEER */
static size_t exchange(const char *dir, const char *self, const char *peer, ucp_address_t *address,
                       size_t length, char *peer_address, size_t capacity) {
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s", dir, self);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f == NULL || fwrite(address, 1, length, f) != length || fclose(f) != 0 || rename(tmp, path) != 0) {
        perror("bench-ucx-window: address file");
        exit(1);
    }
    snprintf(path, sizeof path, "%s/%s", dir, peer);
    for (int waited = 0; access(path, R_OK) != 0; waited++) {
        if (waited > 30000) { fprintf(stderr, "bench-ucx-window: no peer address in 30 s\n"); exit(1); }
        usleep(1000);
    }
    f = fopen(path, "r");
    size_t got = f ? fread(peer_address, 1, capacity, f) : 0;
    if (f) fclose(f);
    return got;
}

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: %s measure|mirror WINDOW WINDOWS SIZE DIR\n", argv[0]); return 2; }
    int measure = strcmp(argv[1], "measure") == 0, window = atoi(argv[2]), windows = atoi(argv[3]);
    size_t size = strtoull(argv[4], NULL, 10);
    const char *dir = argv[5];

    ucp_config_t *config;
    ucp_context_h context;
    ucp_params_t params = {.field_mask = UCP_PARAM_FIELD_FEATURES, .features = UCP_FEATURE_TAG};
    ucs_status_t status = ucp_config_read(NULL, NULL, &config);
    if (status != UCS_OK) die("ucp_config_read", status);
    if ((status = ucp_init(&params, config, &context)) != UCS_OK) die("ucp_init", status);
    ucp_config_release(config);
    ucp_worker_params_t worker_params = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                                         .thread_mode = UCS_THREAD_MODE_SINGLE};
    if ((status = ucp_worker_create(context, &worker_params, &worker)) != UCS_OK) die("ucp_worker_create", status);

    ucp_address_t *address;
    size_t address_length;
    if ((status = ucp_worker_get_address(worker, &address, &address_length)) != UCS_OK) die("ucp_worker_get_address", status);
    static char peer_address[65536];
    exchange(dir, measure ? "measure" : "mirror", measure ? "mirror" : "measure", address, address_length,
             peer_address, sizeof peer_address);
    ucp_worker_release_address(worker, address);
    ucp_ep_params_t ep_params = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS,
                                 .address = (ucp_address_t *)peer_address};
    ucp_ep_h ep;
    if ((status = ucp_ep_create(worker, &ep_params, &ep)) != UCS_OK) die("ucp_ep_create", status);

    ucp_mem_map_params_t map = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_LENGTH | UCP_MEM_MAP_PARAM_FIELD_FLAGS,
                                .length = size, .flags = UCP_MEM_MAP_ALLOCATE};
    ucp_mem_h memh;
    if ((status = ucp_mem_map(context, &map, &memh)) != UCS_OK) die("ucp_mem_map", status);
    ucp_mem_attr_t attr = {.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS};
    ucp_mem_query(memh, &attr);
    void *buffer = attr.address;

    ucp_request_param_t send_param = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_MEMH,
                                      .cb.send = sent, .memh = memh};
    ucp_request_param_t recv_param = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_MEMH,
                                      .cb.recv = received, .memh = memh};
    ucp_request_param_t ack_send = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK, .cb.send = sent};
    ucp_request_param_t ack_recv = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK, .cb.recv = received};
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

    /* forced close: the peer may be gone already, which is no error here */
    void *close = ucp_ep_close_nbx(ep, &(ucp_request_param_t){.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                                                              .flags = UCP_EP_CLOSE_FLAG_FORCE});
    if (UCS_PTR_IS_PTR(close)) {
        while (ucp_request_check_status(close) == UCS_INPROGRESS) ucp_worker_progress(worker);
        ucp_request_free(close);
    }
    free(requests);
    ucp_mem_unmap(context, memh);
    ucp_worker_destroy(worker);
    ucp_cleanup(context);
    return 0;
}
