/* fabprobe's view of libfabric: the headers the ofi transport uses.
 * scripts/generate-bindings runs jextract on this file with libfabric.argfile. */
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_tagged.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_eq.h>
