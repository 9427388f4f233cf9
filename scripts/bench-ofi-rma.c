/*
 * scripts/bench's C reference for fabprobe's one-sided operations over libfabric: Debian's
 * libfabric-bin ships no fi_rma tools, so this is the C side the Java side is compared with.
 * One FI_EP_RDM endpoint per side; buffers, keys and endpoint names are exchanged over a TCP
 * socket; the server serves one client and exits. Operations (-o):
 *
 *   write     fi_write ping-pong: each side writes m bytes into the other's registered buffer
 *             and the receiver polls its own memory for the message's flag byte (as perftest's
 *             ib_write_lat). How the flag follows the payload (-O, default auto: the first that
 *             the provider allows):
 *               last      the payload's last byte is the flag: only where the provider reports
 *                         FI_ORDER_DATA in its receive completion order (data placed in order)
 *               waw       payload write, then a 1-byte flag write, back to back: only where the
 *                         provider reports FI_ORDER_WAW in its transmit message order and a
 *                         max_order_waw_size of at least the payload (writes placed in order)
 *               fence     payload write, then a 1-byte flag write with FI_FENCE (FI_FENCE cap)
 *               complete  payload write with FI_DELIVERY_COMPLETE, wait for its completion,
 *                         then the 1-byte flag write
 *             Prints the mean half round trip, as fi_pingpong and ucx_perftest do.
 *   read      fi_read of m bytes from the server's buffer, waiting for each completion
 *   fadd      fi_fetch_atomic FI_SUM on one FI_UINT64 of the server's buffer, waiting for each
 *             completion (sizes are ignored: always 8 B); the last fetched value is checked
 *   write_bw  windows of -w fi_write (default 64) of m bytes, then all their completions
 *
 * The target makes no library call per message but fi_cq_read on its own CQ while it polls:
 * shm, tcp;ofi_rxm and udp;ofi_rxd progress data only when the application calls into the
 * provider (FI_PROGRESS_MANUAL), so a target that only polled memory would wait forever.
 * The header line says so. With Debian's libfabric 1.17, fadd over udp;ofi_rxd dies of SIGSEGV
 * inside the provider, on both sides; sockets now and then fails a completion with EIO.
 *
 * mr_mode bits honoured: FI_MR_LOCAL (descriptors for local buffers), FI_MR_VIRT_ADDR (remote
 * addresses are virtual addresses, else offsets), FI_MR_ALLOCATED (buffers are allocated and
 * touched before registration), FI_MR_PROV_KEY (keys from fi_mr_key, else requested),
 * FI_MR_ENDPOINT (fi_mr_bind to the endpoint, fi_mr_enable), FI_MR_RAW (fi_mr_raw_attr,
 * fi_mr_map_raw on the peer, fi_mr_unmap_key). FI_CONTEXT/FI_CONTEXT2: every operation that
 * completes gets its own struct fi_context2.
 *
 *   bench-ofi-rma [-p PROVIDER] [-P PORT] [-b ADDRESS]                 server (one session)
 *   bench-ofi-rma -p PROVIDER -o write|read|fadd|write_bw [-s SIZES] [-n ITERS] [-w WINDOW]
 *                 [-O auto|last|waw|fence|complete] [-P PORT] SERVER_ADDRESS       client
 *
 * SIZES: comma-separated, with k/m suffixes (1k = 1024), default 8 (write_bw: 1m). ITERS:
 * timed messages per size (write_bw: timed windows), after ITERS/10 untimed ones. The server
 * takes every setting from the client (a -p given to it must match). The client prints a
 * header starting with '#' and then one row per size:
 *
 *   OP BYTES ITERS SECONDS USEC MB/S MMSG/S MEDIAN_USEC
 *
 * USEC: write: mean half round trip; read, fadd: mean per operation; write_bw: mean per
 * message; MEDIAN_USEC the same from the median iteration (a round trip, an operation, a
 * window), which a few preempted iterations on a busy host do not move. MB/s is 10^6 B/s. Exit status 0, or 1 after one line on stderr (the server's
 * failure is reported by the client too). FI_*_IFACE as for fi_pingpong; without it, the
 * socket-based providers are given the local address of the exchange socket as source.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#define PROGRAM "bench-ofi-rma"
#define MAX_SIZES 32
#define MAX_WINDOW 1024
#define FLAG_GAP 64 /* the flag byte's offset past the largest payload, rounded up to this */

enum op { WRITE, READ, FADD, WRITE_BW };
static const char *op_names[] = {"write", "read", "fadd", "write_bw"};
enum order { AUTO, LAST, WAW, FENCE, COMPLETE };
static const char *order_names[] = {"auto", "last", "waw", "fence", "complete"};

/* what the client sends first: every setting of the session */
struct config {
    char provider[64];
    int32_t op, order, iters, window, nsizes;
    uint64_t sizes[MAX_SIZES];
};

/* what each side sends next: a status, its endpoint name and its remote-accessible buffer */
struct peer_info {
    int32_t status;    /* 0, or the failure the server met (then error holds its message) */
    int32_t order;     /* the flag ordering the sender resolved (write) */
    char error[200];
    uint64_t addr;     /* the buffer's remote address: virtual, or 0 (offsets) */
    uint64_t key;      /* its key, or (FI_MR_RAW) the base address fi_mr_raw_attr gave */
    uint32_t name_len, raw_key_len;
    uint8_t name[256], raw_key[256];
};

static struct fi_info *hints, *info;
static struct fid_fabric *fabric;
static struct fid_domain *domain;
static struct fid_av *av;
static struct fid_cq *cq;
static struct fid_ep *ep;
static struct fid_mr *window_mr, *local_mr;
static void *window_buf, *local_buf, *window_desc, *local_desc;
static uint64_t peer_key, peer_base;
static int peer_key_mapped;
static fi_addr_t peer = FI_ADDR_UNSPEC;
static size_t buffer_len, flag_offset;
static int sock = -1;
static long pending; /* operations posted whose completion has not been read */
static struct fi_context2 contexts[MAX_WINDOW];
static int inject_writes; /* fi_inject_write (no completion) for writes up to inject_size */

static int owe_answer; /* the server has the client's settings and has not answered yet */

static void release(void);

/* one line on stderr (and to the client, from a server that owes it an answer); all released */
static void fail(const char *format, ...) {
    struct peer_info refusal = {.status = 1};
    va_list args;
    va_start(args, format);
    vsnprintf(refusal.error, sizeof refusal.error, format, args);
    va_end(args);
    fprintf(stderr, PROGRAM ": %s\n", refusal.error);
    if (owe_answer) {
        owe_answer = 0;
        (void)!send(sock, &refusal, sizeof refusal, MSG_NOSIGNAL);
    }
    release();
    exit(1);
}

#define CHECK(call) do { int ret_ = (int)(call); if (ret_) fail("%s: %s", #call, fi_strerror(-ret_)); } while (0)

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* each timed iteration's seconds (write: a round trip; write_bw: a window), for the median:
   on a busy host a few preempted iterations move the mean, not the median */
static double *iteration_s;
static int iterations_timed;

static void time_iteration(int i, int warm, double *last) {
    double t = now();
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

/* ---------------------------------------------------------------- the exchange socket */

static void send_all(const void *data, size_t length) {
    for (const char *p = data; length > 0;) {
        ssize_t n = send(sock, p, length, MSG_NOSIGNAL);
        if (n <= 0) fail("exchange socket: send: %s", n < 0 ? strerror(errno) : "closed");
        p += n, length -= n;
    }
}

static void recv_all(void *data, size_t length) {
    for (char *p = data; length > 0;) {
        ssize_t n = recv(sock, p, length, 0);
        if (n <= 0) fail("exchange socket: %s", n < 0 ? strerror(errno) : "the peer closed it");
        p += n, length -= n;
    }
}

/* both sides meet: nothing the one does after it happens before the other got there */
static void barrier(void) {
    char byte = 1;
    send_all(&byte, 1);
    recv_all(&byte, 1);
}

/* whether the peer's byte has arrived (no wait); the peer closing fails */
static int peer_byte(void) {
    char byte;
    ssize_t n = recv(sock, &byte, 1, MSG_DONTWAIT);
    if (n == 1) return 1;
    if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) fail("exchange socket: the peer is gone");
    return 0;
}

/* the peer being gone while we poll memory (checked now and then, without taking bytes) */
static void check_peer(void) {
    char byte;
    ssize_t n = recv(sock, &byte, 1, MSG_DONTWAIT | MSG_PEEK);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) fail("exchange socket: the peer is gone");
}

static void open_socket(const char *address, const char *port, int server) {
    struct addrinfo want = {.ai_socktype = SOCK_STREAM, .ai_flags = server ? AI_PASSIVE : 0}, *found;
    int ret = getaddrinfo(address, port, &want, &found);
    if (ret) fail("%s port %s: %s", address, port, gai_strerror(ret));
    int s = socket(found->ai_family, SOCK_STREAM, 0), one = 1;
    if (s < 0) fail("socket: %s", strerror(errno));
    if (server) {
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(s, found->ai_addr, found->ai_addrlen) || listen(s, 1)) fail("listen on %s port %s: %s", address, port, strerror(errno));
        sock = accept(s, NULL, NULL);
        close(s);
        if (sock < 0) fail("accept: %s", strerror(errno));
    } else {
        /* the server may not listen yet: try for 10 s */
        for (int tries = 0; connect(s, found->ai_addr, found->ai_addrlen) != 0; tries++) {
            if (tries == 1000) fail("connect to %s port %s: %s", address, port, strerror(errno));
            usleep(10000);
        }
        sock = s;
    }
    freeaddrinfo(found);
    setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* numeric local address of the exchange socket (server), or towards the server (client: a UDP
   socket's connect, which sends nothing); "" if there is none */
static void local_address(const char *server_address, const char *port, char *out) {
    struct sockaddr_storage local;
    socklen_t local_len = sizeof local;
    int s = sock;
    if (server_address != NULL) {
        struct addrinfo want = {.ai_socktype = SOCK_DGRAM}, *found;
        if (getaddrinfo(server_address, port, &want, &found)) return;
        s = socket(found->ai_family, SOCK_DGRAM, 0);
        if (s >= 0 && connect(s, found->ai_addr, found->ai_addrlen) != 0) close(s), s = -1;
        freeaddrinfo(found);
    }
    if (s >= 0 && getsockname(s, (struct sockaddr *)&local, &local_len) == 0)
        getnameinfo((struct sockaddr *)&local, local_len, out, INET6_ADDRSTRLEN, NULL, 0, NI_NUMERICHOST);
    if (s >= 0 && s != sock) close(s);
}

/* ---------------------------------------------------------------- fabric */

static int needs(uint64_t mr_mode_bit) { return (info->domain_attr->mr_mode & mr_mode_bit) != 0; }

static struct fid_mr *register_buffer(void *buffer, uint64_t access, uint64_t requested_key, void **desc) {
    struct fid_mr *mr;
    CHECK(fi_mr_reg(domain, buffer, buffer_len, access, 0, requested_key, 0, &mr, NULL));
    if (needs(FI_MR_ENDPOINT)) {
        CHECK(fi_mr_bind(mr, &ep->fid, 0));
        CHECK(fi_mr_enable(mr));
    }
    *desc = fi_mr_desc(mr);
    return mr;
}

/* the first provider named PROVIDER that offers the operation's capabilities on FI_EP_RDM */
static void open_fabric(const struct config *config, const char *source) {
    hints = fi_allocinfo();
    if (hints == NULL) fail("fi_allocinfo: out of memory");
    hints->ep_attr->type = FI_EP_RDM;
    switch (config->op) {
    case WRITE:
    case WRITE_BW: hints->caps = FI_RMA | FI_WRITE | FI_REMOTE_WRITE; break;
    case READ: hints->caps = FI_RMA | FI_READ | FI_REMOTE_READ; break;
    case FADD: hints->caps = FI_ATOMIC | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE; break;
    }
    if (config->op == WRITE && config->order == FENCE) hints->caps |= FI_FENCE;
    hints->mode = FI_CONTEXT | FI_CONTEXT2;
    hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT | FI_MR_RAW;
    hints->domain_attr->threading = FI_THREAD_DOMAIN;
    /* manual data progress: fi_cq_read drives the transfers (shm, tcp;ofi_rxm and udp;ofi_rxd
       have nothing else; sockets' own progress thread, under automatic progress, left fi_read
       waiting for seconds beside a thread spinning in fi_cq_read, then failed with EIO) */
    hints->domain_attr->data_progress = FI_PROGRESS_MANUAL;
    hints->fabric_attr->prov_name = strdup(config->provider);
    /* the socket-based providers on the exchange socket's interface, unless FI_*_IFACE says */
    int ret = -FI_ENODATA;
    for (int attempt = 0; attempt < 4 && ret == -FI_ENODATA; attempt++) {
        /* with the source, then without (shm); manual progress, then any (a provider without it) */
        if (attempt == 2) hints->domain_attr->data_progress = FI_PROGRESS_UNSPEC;
        if (attempt % 2 == 0 && source == NULL) continue;
        ret = attempt % 2 == 0 ? fi_getinfo(FI_VERSION(1, 17), source, NULL, FI_SOURCE, hints, &info)
                               : fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info);
    }
    if (ret == -FI_ENODATA)
        fail("provider %s offers no FI_EP_RDM endpoint with %s (fi_info -p '%s' -c %s)", config->provider,
             config->op == FADD ? "FI_ATOMIC" : "FI_RMA", config->provider, config->op == FADD ? "FI_ATOMIC" : "FI_RMA");
    if (ret) fail("fi_getinfo(%s): %s", config->provider, fi_strerror(-ret));

    /* sockets, under manual progress, never sent a fi_inject_write that no operation with a
       completion followed (a ping-pong waited forever): there, small writes are fi_writemsg
       with FI_INJECT, whose completions fi_cq_read reads */
    inject_writes = strncmp(info->fabric_attr->prov_name, "sockets", 7) != 0;
    CHECK(fi_fabric(info->fabric_attr, &fabric, NULL));
    CHECK(fi_domain(fabric, info, &domain, NULL));
    if (config->op == FADD) {
        struct fi_atomic_attr attr;
        ret = fi_query_atomic(domain, FI_UINT64, FI_SUM, &attr, FI_FETCH_ATOMIC);
        if (ret) fail("provider %s: no fetching FI_SUM on FI_UINT64: %s", info->fabric_attr->prov_name, fi_strerror(-ret));
    }
    struct fi_av_attr av_attr = {.type = info->domain_attr->av_type != FI_AV_UNSPEC ? info->domain_attr->av_type : FI_AV_TABLE};
    CHECK(fi_av_open(domain, &av_attr, &av, NULL));
    struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_NONE, .size = 2 * MAX_WINDOW};
    CHECK(fi_cq_open(domain, &cq_attr, &cq, NULL));
    CHECK(fi_endpoint(domain, info, &ep, NULL));
    CHECK(fi_ep_bind(ep, &av->fid, 0));
    CHECK(fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV));
    CHECK(fi_enable(ep));

    /* the remote-accessible window and the local buffer (sources, read and fetch results) */
    size_t largest = 8;
    for (int i = 0; i < config->nsizes; i++)
        if (config->sizes[i] > largest) largest = config->sizes[i];
    flag_offset = (largest + FLAG_GAP - 1) / FLAG_GAP * FLAG_GAP;
    buffer_len = flag_offset + FLAG_GAP;
    if (posix_memalign(&window_buf, 4096, buffer_len) || posix_memalign(&local_buf, 4096, buffer_len))
        fail("buffers of %zu B: out of memory", buffer_len);
    memset(window_buf, 0, buffer_len); /* touched: allocated before registration (FI_MR_ALLOCATED) */
    memset(local_buf, 0, buffer_len);
    window_mr = register_buffer(window_buf, FI_REMOTE_READ | FI_REMOTE_WRITE, 1, &window_desc);
    local_mr = register_buffer(local_buf, FI_READ | FI_WRITE, 2, &local_desc);
}

static void describe_self(struct peer_info *self) {
    size_t name_len = sizeof self->name;
    CHECK(fi_getname(&ep->fid, self->name, &name_len));
    self->name_len = name_len;
    self->addr = needs(FI_MR_VIRT_ADDR) ? (uint64_t)(uintptr_t)window_buf : 0;
    if (needs(FI_MR_RAW)) {
        size_t key_len = sizeof self->raw_key;
        CHECK(fi_mr_raw_attr(window_mr, &self->key, self->raw_key, &key_len, 0));
        self->raw_key_len = key_len;
    } else {
        self->key = fi_mr_key(window_mr);
    }
}

static void adopt_peer(const struct peer_info *other) {
    if (fi_av_insert(av, other->name, 1, &peer, 0, NULL) != 1) fail("fi_av_insert: the peer's address was not taken");
    peer_base = other->addr;
    if (needs(FI_MR_RAW)) {
        CHECK(fi_mr_map_raw(domain, other->key, (uint8_t *)other->raw_key, other->raw_key_len, &peer_key, 0));
        peer_key_mapped = 1;
    } else {
        peer_key = other->key;
    }
}

static void release(void) {
    if (peer_key_mapped) fi_mr_unmap_key(domain, peer_key);
    peer_key_mapped = 0;
    struct fid *fids[] = {ep ? &ep->fid : NULL, local_mr ? &local_mr->fid : NULL, window_mr ? &window_mr->fid : NULL,
                          cq ? &cq->fid : NULL, av ? &av->fid : NULL, domain ? &domain->fid : NULL,
                          fabric ? &fabric->fid : NULL};
    for (size_t i = 0; i < sizeof fids / sizeof *fids; i++)
        if (fids[i]) fi_close(fids[i]);
    ep = NULL, local_mr = window_mr = NULL, cq = NULL, av = NULL, domain = NULL, fabric = NULL;
    if (info) fi_freeinfo(info);
    if (hints) fi_freeinfo(hints);
    info = hints = NULL;
    free(window_buf);
    free(local_buf);
    window_buf = local_buf = NULL;
    if (sock >= 0) close(sock);
    sock = -1;
}

/* ---------------------------------------------------------------- operations */

/* reads what completions there are (and so progresses the provider) */
static void progress(void) {
    struct fi_cq_entry entries[16];
    ssize_t n = fi_cq_read(cq, entries, 16);
    if (n > 0) {
        pending -= n;
    } else if (n == -FI_EAVAIL) {
        struct fi_cq_err_entry error = {0};
        fi_cq_readerr(cq, &error, 0);
        fail("completion error: %s (%s)", fi_strerror(error.err), fi_cq_strerror(cq, error.prov_errno, error.err_data, NULL, 0));
    } else if (n != -FI_EAGAIN) {
        fail("fi_cq_read: %s", fi_strerror((int)-n));
    }
}

static void wait_pending(void) {
    while (pending > 0) progress();
}

/* posts again while the provider says -FI_EAGAIN (its queue is full), progressing between */
#define POST(call) do { ssize_t ret_; while ((ret_ = (call)) == -FI_EAGAIN) progress(); \
                        if (ret_) fail("%s: %s", #call, fi_strerror((int)-ret_)); } while (0)

/* fi_write of length bytes at offset of both buffers: an inject (no completion) where allowed */
static void write_at(size_t offset, size_t length, uint64_t flags, int slot) {
    void *source = (char *)local_buf + offset;
    uint64_t target = peer_base + offset;
    if (inject_writes && flags == 0 && length <= info->tx_attr->inject_size) {
        POST(fi_inject_write(ep, source, length, peer, target, peer_key));
        return;
    }
    if (flags == 0 && length > info->tx_attr->inject_size) {
        POST(fi_write(ep, source, length, local_desc, peer, target, peer_key, &contexts[slot]));
    } else {
        struct iovec iov = {.iov_base = source, .iov_len = length};
        struct fi_rma_iov rma = {.addr = target, .len = length, .key = peer_key};
        struct fi_msg_rma msg = {.msg_iov = &iov, .desc = &local_desc, .iov_count = 1, .addr = peer,
                                 .rma_iov = &rma, .rma_iov_count = 1, .context = &contexts[slot]};
        if (length <= info->tx_attr->inject_size && !(flags & FI_DELIVERY_COMPLETE)) flags |= FI_INJECT;
        else flags &= ~FI_INJECT;
        POST(fi_writemsg(ep, &msg, flags | FI_COMPLETION));
    }
    pending++;
}

/* one ping-pong message: payload and flag into the peer's window, as the ordering allows */
static void send_message(size_t size, uint8_t flag, int order) {
    wait_pending(); /* the local buffer is ours again */
    switch (order) {
    case LAST:
        ((uint8_t *)local_buf)[size - 1] = flag;
        write_at(0, size, 0, 0);
        break;
    case WAW:
        ((uint8_t *)local_buf)[flag_offset] = flag;
        write_at(0, size, 0, 0);
        write_at(flag_offset, 1, 0, 1);
        break;
    case FENCE:
        ((uint8_t *)local_buf)[flag_offset] = flag;
        write_at(0, size, 0, 0);
        write_at(flag_offset, 1, FI_FENCE, 1);
        break;
    case COMPLETE:
        ((uint8_t *)local_buf)[flag_offset] = flag;
        write_at(0, size, FI_DELIVERY_COMPLETE, 0);
        wait_pending();
        write_at(flag_offset, 1, 0, 1);
        break;
    }
}

/* polls the own window for the flag, reading the CQ meanwhile (progress, own completions) */
static void await_message(size_t size, uint8_t flag, int order) {
    volatile uint8_t *at = (volatile uint8_t *)window_buf + (order == LAST ? size - 1 : flag_offset);
    for (unsigned long spins = 1; *at != flag; spins++) {
        progress();
        if ((spins & 0xfffff) == 0) check_peer();
    }
}

static int resolve_order(int asked, size_t largest) {
    int last = (info->rx_attr->comp_order & FI_ORDER_DATA) != 0, fence = (info->caps & FI_FENCE) != 0;
    int waw = (info->tx_attr->msg_order & FI_ORDER_WAW) != 0 && info->ep_attr->max_order_waw_size >= largest;
    if (asked == AUTO) return last ? LAST : waw ? WAW : fence ? FENCE : COMPLETE;
    if (asked == LAST && !last) fail("-O last: provider %s does not report FI_ORDER_DATA (data placed in order)", info->fabric_attr->prov_name);
    if (asked == WAW && !waw) fail("-O waw: provider %s does not order write after write up to %zu B", info->fabric_attr->prov_name, largest);
    if (asked == FENCE && !fence) fail("-O fence: provider %s does not offer FI_FENCE", info->fabric_attr->prov_name);
    return asked;
}

static const char *order_text(int order) {
    switch (order) {
    case LAST: return "the payload's last byte (FI_ORDER_DATA)";
    case WAW: return "payload write, then a 1-byte flag write (FI_ORDER_WAW up to max_order_waw_size)";
    case FENCE: return "payload write, then a 1-byte flag write with FI_FENCE";
    default: return "payload write with FI_DELIVERY_COMPLETE, its completion, then a 1-byte flag write";
    }
}

/* one size: returns the timed seconds (the server's side returns 0) */
static double run_size(const struct config *config, int server, size_t size, int order) {
    int warm = config->iters / 10, total = warm + config->iters;
    double start = 0, last = 0;
    iterations_timed = 0;
    memset(window_buf, 0, buffer_len); /* no flag or count left from the size before */
    wait_pending();
    barrier();
    switch (config->op) {
    case WRITE:
        for (int i = 0; i < total; i++) {
            uint8_t flag = (uint8_t)(i % 255 + 1);
            if (i == warm && !server) start = now();
            if (server) {
                await_message(size, flag, order);
                send_message(size, flag, order);
            } else {
                if (i == 0) last = now();
                send_message(size, flag, order);
                await_message(size, flag, order);
                time_iteration(i, warm, &last);
            }
        }
        wait_pending();
        break;
    case READ:
    case FADD:
    case WRITE_BW:
        if (server) {
            /* passive target: progress until the client says it is done */
            for (unsigned long spins = 1; !((spins & 0x3ff) == 0 && peer_byte()); spins++) progress();
            return 0;
        }
        if (config->op == WRITE_BW) total = warm + config->iters;
        uint64_t *operand = local_buf, *fetched = (uint64_t *)((char *)local_buf + FLAG_GAP);
        *operand = 1;
        last = now();
        for (int i = 0; i < total; i++) {
            if (i == warm) start = now();
            if (config->op == READ) {
                POST(fi_read(ep, local_buf, size, local_desc, peer, peer_base, peer_key, &contexts[0]));
                pending++;
            } else if (config->op == FADD) {
                POST(fi_fetch_atomic(ep, operand, 1, local_desc, fetched, local_desc, peer, peer_base, peer_key,
                                     FI_UINT64, FI_SUM, &contexts[0]));
                pending++;
            } else {
                for (int m = 0; m < config->window; m++) {
                    POST(fi_write(ep, local_buf, size, local_desc, peer, peer_base, peer_key, &contexts[m]));
                    pending++;
                }
            }
            wait_pending();
            time_iteration(i, warm, &last);
        }
        if (config->op == FADD && *fetched != (uint64_t)total - 1)
            fail("fetch-add: the last fetch returned %llu, not %d", (unsigned long long)*fetched, total - 1);
        double seconds = now() - start;
        char done = 1;
        send_all(&done, 1);
        return seconds;
    }
    return server ? 0 : now() - start;
}

/* ---------------------------------------------------------------- main */

static uint64_t parse_size(const char *text) {
    char *end;
    uint64_t value = strtoull(text, &end, 10);
    if (*end == 'k' || *end == 'K') value <<= 10, end++;
    else if (*end == 'm' || *end == 'M') value <<= 20, end++;
    else if (*end == 'g' || *end == 'G') value <<= 30, end++;
    if (end == text || *end != '\0' || value == 0) fail("size '%s': want a positive number with an optional k, m or g", text);
    return value;
}

static int parse_name(const char *text, const char **names, int count, const char *what) {
    for (int i = 0; i < count; i++)
        if (strcmp(text, names[i]) == 0) return i;
    fail("%s '%s' unknown", what, text);
    return -1;
}

static void usage(void) {
    fprintf(stderr, "usage: %s [-p PROVIDER] [-P PORT] [-b ADDRESS]   (server)\n"
                    "       %s -p PROVIDER -o write|read|fadd|write_bw [-s SIZES] [-n ITERS] [-w WINDOW]\n"
                    "          [-O auto|last|waw|fence|complete] [-P PORT] SERVER_ADDRESS   (client)\n", PROGRAM, PROGRAM);
    exit(2);
}

int main(int argc, char **argv) {
    struct config config = {.op = WRITE, .order = AUTO, .iters = 10000, .window = 64};
    const char *port = "47592", *bind_address = "127.0.0.1", *sizes = NULL, *server_provider = NULL;
    int opt;
    while ((opt = getopt(argc, argv, "p:o:s:n:w:O:P:B:b:h")) != -1) {
        switch (opt) {
        case 'p': server_provider = optarg; snprintf(config.provider, sizeof config.provider, "%s", optarg); break;
        case 'o': config.op = parse_name(optarg, op_names, 4, "operation"); break;
        case 's': sizes = optarg; break;
        case 'n': config.iters = atoi(optarg); break;
        case 'w': config.window = atoi(optarg); break;
        case 'O': config.order = parse_name(optarg, order_names, 5, "ordering"); break;
        case 'P':
        case 'B': port = optarg; break;
        case 'b': bind_address = optarg; break;
        default: usage();
        }
    }
    int server = optind == argc;
    if (optind < argc - 1) usage();
    if (server) {
        open_socket(bind_address, port, 1);
        recv_all(&config, sizeof config);
        config.provider[sizeof config.provider - 1] = '\0';
        owe_answer = 1;
        if (config.nsizes < 1 || config.nsizes > MAX_SIZES || config.op < WRITE || config.op > WRITE_BW)
            fail("the client sent settings this program does not know");
        if (server_provider != NULL && strcmp(server_provider, config.provider) != 0)
            fail("the server runs provider %s, not %s", server_provider, config.provider);
    } else {
        if (config.provider[0] == '\0') fail("the client needs -p PROVIDER");
        if (config.iters < 1) fail("-n: at least 1");
        if (config.window < 1 || config.window > MAX_WINDOW) fail("-w: 1 to %d", MAX_WINDOW);
        char list[1024];
        snprintf(list, sizeof list, "%s", sizes ? sizes : config.op == WRITE_BW ? "1m" : "8");
        for (char *next, *item = strtok_r(list, ",", &next); item; item = strtok_r(NULL, ",", &next)) {
            if (config.nsizes == MAX_SIZES) fail("-s: at most %d sizes", MAX_SIZES);
            config.sizes[config.nsizes++] = config.op == FADD ? 8 : parse_size(item);
        }
        if (config.nsizes == 0) fail("-s: no size");
    }

    /* the fabric's source, unless FI_*_IFACE chooses (and not for shm, whose names are strings):
       the server's end of the exchange socket, the client's way to the server */
    const char *iface = getenv("FI_TCP_IFACE") ? getenv("FI_TCP_IFACE") : getenv("FI_SOCKETS_IFACE") ? getenv("FI_SOCKETS_IFACE") : getenv("FI_UDP_IFACE");
    char source[INET6_ADDRSTRLEN] = "";
    if (iface == NULL && strncmp(config.provider, "shm", 3) != 0) local_address(server ? NULL : argv[optind], port, source);

    struct peer_info self = {0}, other;
    open_fabric(&config, source[0] ? source : NULL);
    if (!server) { /* only now: a provider that cannot serve fails before the server is bothered */
        open_socket(argv[optind], port, 0);
        send_all(&config, sizeof config);
    }
    int order = config.op == WRITE ? resolve_order(config.order, flag_offset) : AUTO;
    describe_self(&self);
    self.order = order;
    if (server) {
        owe_answer = 0;
        send_all(&self, sizeof self);
        recv_all(&other, sizeof other);
    } else {
        recv_all(&other, sizeof other);
        if (other.status != 0) fail("server: %s", other.error);
        send_all(&self, sizeof self);
        if (other.order != order) fail("the server resolved the flag ordering to %s, this side to %s",
                                       order_names[other.order], order_names[order]);
    }
    adopt_peer(&other);

    if (!server) {
        const char *what[] = {"fi_write ping-pong (mean half round trip)", "fi_read (mean per operation)",
                              "fi_fetch_atomic FI_SUM FI_UINT64 (mean per operation)",
                              "fi_write windows (mean per message)"};
        printf("# %s: %s, provider %s, fabric %s, domain %s, mr_mode 0x%llx, inject_size %zu, %d timed + %d untimed per size",
               PROGRAM, what[config.op], info->fabric_attr->prov_name, info->fabric_attr->name, info->domain_attr->name,
               (unsigned long long)info->domain_attr->mr_mode, info->tx_attr->inject_size, config.iters, config.iters / 10);
        if (config.op == WRITE_BW) printf(" windows of %d", config.window);
        printf("\n");
        if (config.op == WRITE) printf("# flag: %s\n", order_text(order));
        printf("# target: fi_cq_read on its own CQ while it polls (provider progress), no other call per message\n");
        printf("#%-8s %8s %8s %10s %10s %10s %8s %10s\n", "op", "bytes", "iters", "seconds", "usec", "MB/s", "Mmsg/s",
               "median_us");
        fflush(stdout);
    }
    iteration_s = malloc(sizeof *iteration_s * (config.iters > 0 ? config.iters : 1));
    if (iteration_s == NULL) fail("out of memory");
    for (int s = 0; s < config.nsizes; s++) {
        size_t size = config.sizes[s];
        double seconds = run_size(&config, server, size, order);
        if (server) continue;
        long messages = (long)config.iters * (config.op == WRITE_BW ? config.window : 1);
        double per = seconds / messages / (config.op == WRITE ? 2 : 1);
        /* the median iteration per message, as USEC is the mean */
        double median = median_s() / (config.op == WRITE_BW ? config.window : 1) / (config.op == WRITE ? 2 : 1);
        printf("%-9s %8zu %8d %10.4f %10.3f %10.1f %8.3f %10.3f\n", op_names[config.op], size, config.iters, seconds,
               per * 1e6, (double)size * messages / seconds / 1e6, messages / seconds / 1e6, median * 1e6);
        fflush(stdout);
    }
    barrier(); /* neither side closes its endpoint while the other may still use it */
    release();
    return 0;
}
