/* OSU's collective timing (osu_allreduce), shared by the collectives harness and the C side of
 * the mpi4py collectives kernel (coll_bridge.c), so that both time C the same way (and
 * mpi4py_coll.py's osu_block times Python the same way). */
#include "coll_variant.h"

double wb_coll_osu_block(const wb_coll_variant* v, void* state, MPI_Comm comm, long calls) {
  double total = 0;
  /* One untimed call first. The variants of a process run in interleaved blocks, so a block
   * starts with its buffers (and the MPI's own) where the other variants' blocks left them: out
   * of cache. OSU times one collective over and over on the same buffers; at 1 MiB, where a
   * block is 2 calls, the cold first call was most of what the harness measured (MPI_Allgather
   * on Open MPI 4.1.4, 2 ranks: 415 us interleaved, 164 us alone, OSU 173 us). */
  v->call(state);
  MPI_Barrier(comm);
  if (v->kind == WB_COLL_ONE_SIDED) { /* a passive target takes no part: nothing to separate */
    double start = MPI_Wtime();
    for (long i = 0; i < calls; ++i)
      v->call(state);
    total = MPI_Wtime() - start;
    MPI_Barrier(comm);
    return total * 1e6 / (double)calls;
  }
  for (long i = 0; i < calls; ++i) {
    double start = MPI_Wtime();
    v->call(state);
    total += MPI_Wtime() - start;
    MPI_Barrier(comm);
  }
  return total * 1e6 / (double)calls;
}
