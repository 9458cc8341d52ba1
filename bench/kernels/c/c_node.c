/* The node suite's C variants (wb_node, harness.c built with WB_NODE), beside c/char_buffer
 * and c/char_mprobe, which it runs as they are:
 *
 *   c/shm_floor   the floor of a message of n bytes: floor.h's cache-line ping-pong with the
 *                 payload copied into the shared segment and out of it (no MPI)
 *   c/rate_isend  message rate, osu_mbw_mr's pattern: rank 0 posts a window of MPI_Isend of
 *                 n MPI_CHAR and waits for them all, rank 1 pre-posts the window's MPI_Irecv
 *                 (one buffer each) and waits, then sends a 1-byte ack that rank 0 receives.
 *                 A "round trip" of the harness is one window: messages/s = window /
 *                 (2 one_way_us) */
#include "c_kernel.h"
#include "floor.h"
#include "node_window.h"
#include "variant.h"

/* A node variant's state: the C state (pattern and received buffer) and what its kind adds:
 * floor.h's segment (c/shm_floor), or a window of messages in flight (c/rate_isend). */
typedef struct node_state {
  wb_c_state* buffers;
  void* floor;
  unsigned char* window; /* rank 1: WB_NODE_WINDOW buffers of n bytes */
  MPI_Request requests[WB_NODE_WINDOW];
  char ack;
} node_state;

static void node_teardown(void* state) {
  node_state* s = (node_state*)state;
  if (s->floor) wb_floor_close(s->floor);
  free(s->window);
  wb_c_teardown(s->buffers);
  free(s);
}

/* The C state of n MPI_CHAR and, for c/shm_floor (with_floor), floor.h's segment (collective:
 * every rank opens it or learns that another failed), else c/rate_isend's receive buffers; NULL
 * when any fails. */
static void* node_setup(MPI_Comm comm, size_t count, int with_floor) {
  node_state* s = (node_state*)calloc(1, sizeof *s);
  if (s) s->buffers = (wb_c_state*)wb_c_setup(comm, count, MPI_CHAR, 1, wb_c_fill_bytes);
  int ok = s && s->buffers;
  if (with_floor) {
    int both = 0;
    MPI_Allreduce(&ok, &both, 1, MPI_INT, MPI_MIN, comm); /* wb_floor_open is collective */
    if (both) s->floor = wb_floor_open_payload(comm, count);
    ok = both && s->floor;
  } else if (ok) {
    s->window = (unsigned char*)calloc(WB_NODE_WINDOW, count);
    ok = s->window != NULL;
  }
  if (ok) return s;
  if (s) node_teardown(s);
  return NULL;
}

WB_C_SETUP_WITH(shm_floor_setup, node_setup, 1)
WB_C_SETUP_WITH(rate_setup, node_setup, 0)

static void shm_floor_round_trips(void* state, long iterations) {
  node_state* s = (node_state*)state;
  wb_floor_payload_round_trips(s->floor, s->buffers->sent, s->buffers->received, iterations);
}

static int shm_floor_verify(void* state) {
  return wb_c_verify_received(((node_state*)state)->buffers);
}

/* MPI_Waitall of a window. GCC 12 reads MPICH 4.0.2's access attribute on MPI_Waitall against
 * MPI_STATUSES_IGNORE, the constant (MPI_Status *) 1, as a 0-byte region
 * (-Wstringop-overflow): a false positive, as in c_neighbors.c's MPI_Testall. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
static void wait_window(MPI_Request* requests) {
  MPI_Waitall(WB_NODE_WINDOW, requests, MPI_STATUSES_IGNORE);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

static void rate_round_trips(void* state, long iterations) {
  node_state* s = (node_state*)state;
  wb_c_state* b = s->buffers;
  for (long i = 0; i < iterations; ++i) {
    for (int w = 0; w < WB_NODE_WINDOW; ++w) {
      if (b->rank == 0)
        MPI_Isend(b->sent, b->count, MPI_CHAR, b->peer, WB_C_TAG, b->comm, &s->requests[w]);
      else
        MPI_Irecv(s->window + (size_t)w * b->bytes, b->count, MPI_CHAR, b->peer, WB_C_TAG, b->comm,
                  &s->requests[w]);
    }
    wait_window(s->requests);
    if (b->rank == 0)
      MPI_Recv(&s->ack, 1, MPI_CHAR, b->peer, WB_C_TAG, b->comm, MPI_STATUS_IGNORE);
    else
      MPI_Send(&s->ack, 1, MPI_CHAR, b->peer, WB_C_TAG, b->comm);
  }
}

/* Rank 1: every buffer of the window holds the pattern. Rank 0 has nothing to check. */
static int rate_verify(void* state) {
  node_state* s = (node_state*)state;
  wb_c_state* b = s->buffers;
  for (int w = 0; b->rank == 1 && w < WB_NODE_WINDOW; ++w)
    if (memcmp(s->window + (size_t)w * b->bytes, b->sent, b->bytes) != 0) return 1;
  return 0;
}

size_t wb_c_node_variants(const wb_variant** table) {
  static const wb_variant variants[] = {
      {"c", "shm_floor", NULL, 1, 0, shm_floor_setup, shm_floor_round_trips, shm_floor_verify,
       node_teardown},
      {"c", "rate_isend", NULL, 1, 0, rate_setup, rate_round_trips, rate_verify, node_teardown},
  };
  *table = variants;
  return sizeof variants / sizeof variants[0];
}
