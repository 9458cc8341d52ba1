/* c/partitioned: n MPI_INT as a partitioned message of one partition (MPI-4). Each rank sets its
 * send (MPI_Psend_init) and its receive (MPI_Precv_init) up once, one partition of n MPI_INT;
 * every round trip starts both sides (MPI_Start), the sender marks its one partition ready
 * (MPI_Pready) and both wait (MPI_Wait), in c/persistent's order: rank 0 sends, then receives;
 * rank 1 receives, then sends back what it received (its send is set up on its receive buffer).
 * What a partitioned message costs against a persistent one (c/persistent, its baseline), and
 * the C that thinmpi/partitioned is measured against. Built only where the MPI is MPI-4 (MPICH 4;
 * not Open MPI 4.1, MPI 3.1): bench/CMakeLists.txt. */
#include "c_persistent.h"
#include "c_variants.h"

static int init(void* buffer, int sends, const wb_c_state* s, MPI_Request* request) {
  return sends ? MPI_Psend_init(buffer, 1, s->count, MPI_INT, s->peer, WB_C_TAG, s->comm,
                                MPI_INFO_NULL, request)
               : MPI_Precv_init(buffer, 1, s->count, MPI_INT, s->peer, WB_C_TAG, s->comm,
                                MPI_INFO_NULL, request);
}

static void* setup(MPI_Comm comm, size_t count) {
  return wb_c_requests_setup(comm, count, init);
}

/* One message out: start the send, its one partition is ready, wait. */
static void send_message(MPI_Request* send) {
  MPI_Start(send);
  MPI_Pready(0, *send);
  MPI_Wait(send, MPI_STATUS_IGNORE);
}

static void round_trips(void* state, long iterations) {
  wb_c_requests* p = (wb_c_requests*)state;
  const int rank = p->base->rank;
  for (long i = 0; i < iterations; ++i) {
    if (rank == 0) send_message(&p->send);
    MPI_Start(&p->receive);
    MPI_Wait(&p->receive, MPI_STATUS_IGNORE);
    if (rank == 1) send_message(&p->send);
  }
}

const wb_variant wb_c_partitioned = WB_C_REQUESTS_VARIANT("partitioned", setup, round_trips);
