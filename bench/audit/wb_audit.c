/* libwb_audit: a PMPI interposer (LD_PRELOAD) that counts the MPI calls a variant makes.
 *
 * MPI_Pcontrol(1, "api/payload") opens a counting window, MPI_Pcontrol(2) opens one labelled by
 * the environment variable WB_AUDIT_LABEL (mpi4py's Pcontrol passes only the level), and
 * MPI_Pcontrol(0) closes it and appends one JSON line to the file $WB_AUDIT_OUT (stderr when
 * unset): {"label": ..., "rank": r, "calls": {"MPI_Send": n, ...}, "bytes_sent": b,
 * "peers": n} (peers: the ranks the calls addressed, see count_peers). A persistent send's bytes
 * and peer count at each MPI_Start of it (the set-up call names them, see remember_persistent).
 * Works with OpenMPI and MPICH; the MPI-4 `_c` and partitioned calls are counted where the MPI
 * declares them (a partitioned send as a persistent one). */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb_audit_calls.h"
#include "wb_audit_coll_calls.h"
#include "wb_audit_io_calls.h"
#include "wb_audit_neighbor_calls.h"
#include "wb_audit_rma_calls.h"

#define WB_ENUM_SEND(name, params, args, n, t) WB_CALL_##name,
#define WB_ENUM(name, params, args) WB_CALL_##name,
#define WB_ENUM_PEER(name, params, args, comm, reach) WB_CALL_##name,
#define WB_ENUM_INIT(name, params, args, n, t, peer, sends) WB_CALL_##name,
enum {
  WB_SEND_CALLS(WB_ENUM_SEND) WB_SEND_CALLS_C(WB_ENUM_SEND) WB_CALLS(WB_ENUM) WB_CALLS_C(WB_ENUM)
      WB_PERSISTENT_INIT_CALLS(WB_ENUM_INIT) WB_PERSISTENT_INIT_CALLS_C(WB_ENUM_INIT)
          WB_PARTITIONED_INIT_CALLS(WB_ENUM_INIT) WB_PARTITION_CALLS(WB_ENUM)
              WB_REQUEST_CALLS(WB_ENUM) WB_COLL_CALLS(WB_ENUM) WB_PEER_CALLS(WB_ENUM_PEER)
                  WB_TOPOLOGY_CALLS(WB_ENUM) WB_RMA_CALLS(WB_ENUM) WB_RMA_CALLS_C(WB_ENUM)
                      WB_IO_CALLS(WB_ENUM) WB_IO_CALLS_C(WB_ENUM) WB_CALL_COUNT
};

#define WB_NAME_SEND(name, params, args, n, t) "MPI_" #name,
#define WB_NAME(name, params, args) "MPI_" #name,
#define WB_NAME_PEER(name, params, args, comm, reach) "MPI_" #name,
#define WB_NAME_INIT(name, params, args, n, t, peer, sends) "MPI_" #name,
static const char* const call_names[WB_CALL_COUNT] = {
    WB_SEND_CALLS(WB_NAME_SEND) WB_SEND_CALLS_C(WB_NAME_SEND) WB_CALLS(WB_NAME) WB_CALLS_C(WB_NAME)
        WB_PERSISTENT_INIT_CALLS(WB_NAME_INIT) WB_PERSISTENT_INIT_CALLS_C(WB_NAME_INIT)
            WB_PARTITIONED_INIT_CALLS(WB_NAME_INIT) WB_PARTITION_CALLS(WB_NAME)
                WB_REQUEST_CALLS(WB_NAME) WB_COLL_CALLS(WB_NAME) WB_PEER_CALLS(WB_NAME_PEER)
                    WB_TOPOLOGY_CALLS(WB_NAME) WB_RMA_CALLS(WB_NAME) WB_RMA_CALLS_C(WB_NAME)
                        WB_IO_CALLS(WB_NAME) WB_IO_CALLS_C(WB_NAME)};

static struct {
  int open;
  char label[128];
  long long calls[WB_CALL_COUNT];
  long long bytes_sent;
  long long peers; /* the ranks the counted calls addressed: 1 per send, p per dense all-to-all,
                      the out-degree per neighborhood call */
} window;

enum { WB_REACH_ALL, WB_REACH_NEIGHBORS };

/* Adds the ranks that one call on comm addresses. */
static void count_peers(MPI_Comm comm, int reach) {
  int kind = MPI_UNDEFINED, n = 0, in = 0, out = 0, weighted = 0;
  if (!window.open) return;
  if (reach == WB_REACH_ALL) {
    PMPI_Comm_size(comm, &n);
  } else {
    PMPI_Topo_test(comm, &kind);
    if (kind == MPI_CART) {
      PMPI_Cartdim_get(comm, &n);
      n *= 2;
    } else if (kind == MPI_DIST_GRAPH) {
      PMPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
      n = out;
    }
  }
  window.peers += n;
}

static void count_call(int call) {
  if (window.open) ++window.calls[call];
}

static void count_bytes(MPI_Count count, MPI_Datatype type) {
  int size = 0;
  if (!window.open) return;
  PMPI_Type_size(type, &size);
  window.bytes_sent += count * size;
}

/* Every send call names its destination d. */
#define WB_WRAP_SEND(name, params, args, n, t)             \
  int MPI_##name params {                                  \
    count_call(WB_CALL_##name);                            \
    count_bytes((MPI_Count)(n), t);                        \
    if (window.open && d != MPI_PROC_NULL) ++window.peers; \
    return PMPI_##name args;                               \
  }
#define WB_WRAP(name, params, args) \
  int MPI_##name params {           \
    count_call(WB_CALL_##name);     \
    return PMPI_##name args;        \
  }
WB_SEND_CALLS(WB_WRAP_SEND)
WB_SEND_CALLS_C(WB_WRAP_SEND)
WB_CALLS(WB_WRAP)
WB_CALLS_C(WB_WRAP)
WB_COLL_CALLS(WB_WRAP)
WB_TOPOLOGY_CALLS(WB_WRAP)
WB_RMA_CALLS(WB_WRAP)
WB_RMA_CALLS_C(WB_WRAP)
WB_IO_CALLS(WB_WRAP)
WB_IO_CALLS_C(WB_WRAP)
WB_PARTITION_CALLS(WB_WRAP)

/* The persistent requests set up so far (a send's bytes and whether it addresses a rank, a
 * receive's none), so that each MPI_Start of one counts what a send call would: set up outside
 * a window (the harness sets its variants up before it opens one), started inside it. A freed
 * request is forgotten; a handle that MPI hands out again is set up again and overwritten. */
enum { WB_PERSISTENT_MAX = 256 };
static struct {
  int used;
  MPI_Request request;
  long long bytes;
  int addresses_peer;
} persistent[WB_PERSISTENT_MAX];

/* The slot of a request set up and not yet freed; -1 for none. */
static int persistent_slot(MPI_Request request) {
  for (int i = 0; i < WB_PERSISTENT_MAX; ++i)
    if (persistent[i].used && persistent[i].request == request) return i;
  return -1;
}

/* Records a request that MPI has just set up; more than WB_PERSISTENT_MAX at once go uncounted. */
static void remember_persistent(MPI_Request request, MPI_Count count, MPI_Datatype type, int peer,
                                int sends) {
  int slot = persistent_slot(request), size = 0;
  for (int i = 0; slot < 0 && i < WB_PERSISTENT_MAX; ++i)
    if (!persistent[i].used) slot = i;
  if (slot < 0) return;
  if (sends) PMPI_Type_size(type, &size);
  persistent[slot].used = 1;
  persistent[slot].request = request;
  persistent[slot].bytes = sends ? count * size : 0;
  persistent[slot].addresses_peer = sends && peer != MPI_PROC_NULL;
}

/* Counts the bytes and the peer of a started persistent send (nothing for other requests). */
static void count_start(MPI_Request request) {
  int slot = window.open ? persistent_slot(request) : -1;
  if (slot < 0) return;
  window.bytes_sent += persistent[slot].bytes;
  window.peers += persistent[slot].addresses_peer;
}

#define WB_WRAP_INIT(name, params, args, n, t, peer, sends)                         \
  int MPI_##name params {                                                           \
    count_call(WB_CALL_##name);                                                     \
    int rc = PMPI_##name args;                                                      \
    if (rc == MPI_SUCCESS) remember_persistent(*r, (MPI_Count)(n), t, peer, sends); \
    return rc;                                                                      \
  }
WB_PERSISTENT_INIT_CALLS(WB_WRAP_INIT)
WB_PERSISTENT_INIT_CALLS_C(WB_WRAP_INIT)
WB_PARTITIONED_INIT_CALLS(WB_WRAP_INIT)

int MPI_Start(MPI_Request* r) {
  count_call(WB_CALL_Start);
  count_start(*r);
  return PMPI_Start(r);
}

int MPI_Startall(int n, MPI_Request r[]) {
  count_call(WB_CALL_Startall);
  for (int i = 0; i < n; ++i)
    count_start(r[i]);
  return PMPI_Startall(n, r);
}

int MPI_Request_free(MPI_Request* r) {
  count_call(WB_CALL_Request_free);
  int slot = persistent_slot(*r);
  if (slot >= 0) persistent[slot].used = 0;
  return PMPI_Request_free(r);
}

#define WB_WRAP_PEER(name, params, args, comm, reach) \
  int MPI_##name params {                             \
    count_call(WB_CALL_##name);                       \
    count_peers(comm, reach);                         \
    return PMPI_##name args;                          \
  }
WB_PEER_CALLS(WB_WRAP_PEER)

static void open_window(const char* label) {
  memset(&window, 0, sizeof window);
  snprintf(window.label, sizeof window.label, "%s", label ? label : "unlabelled");
  window.open = 1;
}

/* Formats the window as one JSON line into `line`; returns its length. */
static size_t format_window(char* line, size_t capacity) {
  int rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  size_t used = (size_t)snprintf(line, capacity, "{\"label\": \"%s\", \"rank\": %d, \"calls\": {",
                                 window.label, rank);
  const char* separator = "";
  for (int call = 0; call < WB_CALL_COUNT && used < capacity; ++call) {
    if (window.calls[call] == 0) continue;
    used += (size_t)snprintf(line + used, capacity - used, "%s\"%s\": %lld", separator,
                             call_names[call], window.calls[call]);
    separator = ", ";
  }
  if (used < capacity)
    used += (size_t)snprintf(line + used, capacity - used,
                             "}, \"bytes_sent\": %lld, \"peers\": %lld}\n", window.bytes_sent,
                             window.peers);
  return used < capacity ? used : capacity - 1;
}

/* Appends the window's line with one write(), so two ranks' lines never interleave. */
static void close_window(void) {
  char line[8192];
  size_t length = format_window(line, sizeof line);
  const char* path = getenv("WB_AUDIT_OUT");
  int fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND, 0644) : 2;
  if (fd < 0) return;
  ssize_t written = write(fd, line, length);
  (void)written;
  if (fd != 2) close(fd);
  window.open = 0;
}

int MPI_Pcontrol(const int level, ...) {
  if (level == 1) {
    va_list rest;
    va_start(rest, level);
    open_window(va_arg(rest, const char*));
    va_end(rest);
  } else if (level == 2) {
    open_window(getenv("WB_AUDIT_LABEL"));
  } else if (level == 0 && window.open) {
    close_window();
  }
  return MPI_SUCCESS;
}
