/* c/persistent: n MPI_INT through persistent requests. Each rank sets its send (MPI_Send_init)
 * and its receive (MPI_Recv_init) up once; every round trip starts and waits them (MPI_Start +
 * MPI_Wait) in c/int_buffer's order: rank 0 sends, then receives; rank 1 receives, then sends
 * back what it received (its send request is set up on its receive buffer). What persistence
 * costs or saves against MPI_Send and MPI_Recv (c/int_buffer, its baseline), and the C that
 * thinmpi/persistent is measured against. */
#include "c_persistent.h"
#include "c_variants.h"

static int init(void* buffer, int sends, const wb_c_state* s, MPI_Request* request) {
  return sends ? MPI_Send_init(buffer, s->count, MPI_INT, s->peer, WB_C_TAG, s->comm, request)
               : MPI_Recv_init(buffer, s->count, MPI_INT, s->peer, WB_C_TAG, s->comm, request);
}

static void* setup(MPI_Comm comm, size_t count) {
  return wb_c_requests_setup(comm, count, init);
}

static void round_trips(void* state, long iterations) {
  wb_c_requests* p = (wb_c_requests*)state;
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

const wb_variant wb_c_persistent = WB_C_REQUESTS_VARIANT("persistent", setup, round_trips);
