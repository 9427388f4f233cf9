/* fabprobe's view of UCX: the UCP tag API and the ucs types it needs.
 * scripts/generate-bindings runs jextract on this file with ucx.argfile. */
#include <ucp/api/ucp.h>
#include <ucs/type/status.h>
