/* OSU's collective timing (osu_allreduce), shared by the collectives harness and the C side of
 * the mpi4py collectives kernel (coll_bridge.c), so that both time C the same way. */
#include "coll_variant.h"

double wb_coll_osu_block(const wb_coll_variant* v, void* state, MPI_Comm comm, long calls) {
  double total = 0;
  MPI_Barrier(comm);
  for (long i = 0; i < calls; ++i) {
    double start = MPI_Wtime();
    v->call(state);
    total += MPI_Wtime() - start;
    MPI_Barrier(comm);
  }
  return total * 1e6 / (double)calls;
}
