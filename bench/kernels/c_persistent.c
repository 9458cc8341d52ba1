/* c/persistent: n MPI_INT through persistent requests. Each rank sets its send (MPI_Send_init)
 * and its receive (MPI_Recv_init) up once; every round trip starts and waits them (MPI_Start +
 * MPI_Wait) in c/int_buffer's order: rank 0 sends, then receives; rank 1 receives, then sends
 * back what it received (its send request is set up on its receive buffer). What persistence
 * costs or saves against MPI_Send and MPI_Recv (c/int_buffer, its baseline), and the C that
 * thinmpi/persistent is measured against. */
#include "c_kernel.h"
#include "c_variants.h"

typedef struct persistent_state {
  wb_c_state* base;
  MPI_Request send;
  MPI_Request receive;
} persistent_state;

static void* setup(MPI_Comm comm, size_t count) {
  persistent_state* p = (persistent_state*)calloc(1, sizeof *p);
  if (!p) return NULL;
  p->send = p->receive = MPI_REQUEST_NULL;
  p->base = (wb_c_state*)wb_c_setup(comm, count, MPI_INT, sizeof(int), wb_c_fill_bytes);
  wb_c_state* s = p->base;
  if (s &&
      MPI_Recv_init(s->received, s->count, MPI_INT, s->peer, WB_C_TAG, s->comm, &p->receive) ==
          MPI_SUCCESS &&
      MPI_Send_init(s->rank == 0 ? s->sent : s->received, s->count, MPI_INT, s->peer, WB_C_TAG,
                    s->comm, &p->send) == MPI_SUCCESS)
    return p;
  if (p->receive != MPI_REQUEST_NULL) MPI_Request_free(&p->receive);
  if (s) wb_c_teardown(s);
  free(p);
  return NULL;
}

static void round_trips(void* state, long iterations) {
  persistent_state* p = (persistent_state*)state;
  const int rank = p->base->rank;
  for (long i = 0; i < iterations; ++i) {
    if (rank == 0) {
      MPI_Start(&p->send);
      MPI_Wait(&p->send, MPI_STATUS_IGNORE);
    }
    MPI_Start(&p->receive);
    MPI_Wait(&p->receive, MPI_STATUS_IGNORE);
    if (rank == 1) {
      MPI_Start(&p->send);
      MPI_Wait(&p->send, MPI_STATUS_IGNORE);
    }
  }
}

static int verify(void* state) {
  return wb_c_verify_received(((persistent_state*)state)->base);
}

static void teardown(void* state) {
  persistent_state* p = (persistent_state*)state;
  MPI_Request_free(&p->send);
  MPI_Request_free(&p->receive);
  wb_c_teardown(p->base);
  free(p);
}

const wb_variant wb_c_persistent = {"c",   "persistent", NULL,   sizeof(int), 0,
                                    setup, round_trips,  verify, teardown};
