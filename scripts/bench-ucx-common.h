/*
 * What scripts/bench's UCX reference programs (bench-ucx-window.c, bench-ucx-pingpong.c) share:
 * a UCP context with the tag feature and UCX_TLS from the environment, a status word in every
 * request (as fabprobe's: 4 bytes of request space, UCS_INPROGRESS until a completion callback
 * stores the status, set back before ucp_request_free), one single-threaded
 * worker, one endpoint to the peer's worker (error mode NONE, as fabprobe's and ucx_perftest's),
 * whose address comes through files in a folder both sides are given, and a forced close.
 * Define PROGRAM (its name, for messages) before including this.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <ucp/api/ucp.h>

static ucp_context_h context;
static ucp_worker_h worker;
static ucp_ep_h ep;

/* the request's status word (see fabprobe's UcpCompletion) and the callbacks that write it */
#define STATUS(request) (*(volatile int *)(request))
static void init_request(void *request) { STATUS(request) = UCS_INPROGRESS; }
static void recv_done(void *request, ucs_status_t status, const ucp_tag_recv_info_t *info, void *user) { STATUS(request) = status; }
static void send_done(void *request, ucs_status_t status, void *user) { STATUS(request) = status; }
static void release_request(void *request) { STATUS(request) = UCS_INPROGRESS; ucp_request_free(request); }

static void die(const char *what, ucs_status_t status) {
    fprintf(stderr, PROGRAM ": %s: %s\n", what, ucs_status_string(status));
    exit(1);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* writes this worker's address to DIR/SELF and reads the peer's from DIR/PEER */
static void exchange(const char *dir, const char *self, const char *peer, ucp_address_t *address,
                     size_t length, char *peer_address, size_t capacity) {
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s", dir, self);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f == NULL || fwrite(address, 1, length, f) != length || fclose(f) != 0 || rename(tmp, path) != 0) {
        perror(PROGRAM ": address file");
        exit(1);
    }
    snprintf(path, sizeof path, "%s/%s", dir, peer);
    for (int waited = 0; access(path, R_OK) != 0; waited++) {
        if (waited > 30000) { fprintf(stderr, PROGRAM ": no peer address in 30 s\n"); exit(1); }
        usleep(1000);
    }
    f = fopen(path, "r");
    size_t got = f ? fread(peer_address, 1, capacity, f) : 0;
    if (f) fclose(f);
    if (got == 0) { fprintf(stderr, PROGRAM ": empty peer address\n"); exit(1); }
}

/* context, worker and the endpoint to the other side ("measure" or "mirror") */
static void connect_peer(const char *dir, int measure) {
    ucp_config_t *config;
    ucp_params_t params = {.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_REQUEST_SIZE | UCP_PARAM_FIELD_REQUEST_INIT,
                           .features = UCP_FEATURE_TAG, .request_size = sizeof(int), .request_init = init_request};
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
    ucp_ep_params_t ep_params = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE,
                                 .address = (ucp_address_t *)peer_address, .err_mode = UCP_ERR_HANDLING_MODE_NONE};
    if ((status = ucp_ep_create(worker, &ep_params, &ep)) != UCS_OK) die("ucp_ep_create", status);
}

/* forced close (the peer may be gone already, which is no error here), then worker and context */
static void disconnect_peer(void) {
    void *close = ucp_ep_close_nbx(ep, &(ucp_request_param_t){.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                                                              .flags = UCP_EP_CLOSE_FLAG_FORCE});
    if (UCS_PTR_IS_PTR(close)) {
        while (ucp_request_check_status(close) == UCS_INPROGRESS) ucp_worker_progress(worker);
        release_request(close);
    }
    ucp_worker_destroy(worker);
    ucp_cleanup(context);
}
