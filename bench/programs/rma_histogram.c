/* A distributed histogram in one-sided communication, in plain C MPI: the baseline of
 * examples/rma_histogram.cpp (same algorithm, same input, same output line). The bins are
 * spread over the ranks in equal blocks (each rank's block is its window); every rank counts its
 * own values into a local copy of all bins, then adds each block to its owner's window with one
 * MPI_Accumulate (MPI_SUM) under MPI_Win_lock_all. The owners' blocks, gathered, must equal the
 * histogram of every rank's values counted sequentially.
 *
 * In the rma harness it is c/rma_histogram/program; built with WB_RMA_PROGRAM_MAIN it is a
 * program of its own that prints what the example prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rma_kernels.h"
#include "rma_program_main.h"

//> START HISTOGRAM C
int wb_rma_histogram(MPI_Comm comm, size_t values_per_rank, size_t bins) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const size_t ranks = (size_t)size;
  const size_t block = (bins + ranks - 1) / ranks; /* bins each rank owns */

  long* mine = NULL;
  MPI_Win histogram;
  MPI_Win_allocate((MPI_Aint)(block * sizeof(long)), (int)sizeof(long), MPI_INFO_NULL, comm, &mine,
                   &histogram);
  long* zeros = calloc(block, sizeof *zeros);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, histogram);
  MPI_Put(zeros, (int)block, MPI_LONG, rank, 0, (int)block, MPI_LONG, histogram);
  MPI_Win_unlock(rank, histogram);
  MPI_Barrier(comm);

  long* counts = calloc(block * ranks, sizeof *counts); /* every bin, counted locally first */
  uint64_t state = wb_histogram_seed(rank);
  for (size_t i = 0; i < values_per_rank; ++i)
    ++counts[wb_histogram_next(&state, bins)];
  MPI_Win_lock_all(0, histogram);
  for (size_t owner = 0; owner < ranks; ++owner)
    MPI_Accumulate(counts + owner * block, (int)block, MPI_LONG, (int)owner, 0, (int)block,
                   MPI_LONG, MPI_SUM, histogram);
  MPI_Win_unlock_all(histogram); /* every block has been added at its owner */
  MPI_Barrier(comm);

  long* own = malloc(block * sizeof *own);
  MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, histogram);
  MPI_Get(own, (int)block, MPI_LONG, rank, 0, (int)block, MPI_LONG, histogram);
  MPI_Win_unlock(rank, histogram);
  long* gathered = malloc(block * ranks * sizeof *gathered);
  MPI_Allgather(own, (int)block, MPI_LONG, gathered, (int)block, MPI_LONG, comm);

  long* sequential = calloc(block * ranks, sizeof *sequential);
  for (int r = 0; r < size; ++r) {
    state = wb_histogram_seed(r);
    for (size_t i = 0; i < values_per_rank; ++i)
      ++sequential[wb_histogram_next(&state, bins)];
  }
  int ok = memcmp(gathered, sequential, block * ranks * sizeof *gathered) == 0;
  free(zeros), free(counts), free(own), free(gathered), free(sequential);
  MPI_Win_free(&histogram);
  return ok;
}
//> END HISTOGRAM C

static void call_histogram(void* p) {
  wb_rma_program_state* s = p;
  s->ok = wb_rma_histogram(s->comm, s->values, s->bins);
}

const wb_coll_variant wb_c_rma_histogram = {"c",
                                            "rma_histogram",
                                            "program",
                                            NULL,
                                            WB_COLL_PROGRAM,
                                            wb_rma_program_setup,
                                            call_histogram,
                                            wb_rma_program_verify,
                                            free};

#ifdef WB_RMA_PROGRAM_MAIN
static int run_histogram(int rank, int size) {
  int ok = wb_rma_histogram(MPI_COMM_WORLD, WB_RMA_HISTOGRAM_VALUES, WB_RMA_HISTOGRAM_BINS);
  if (rank == 0)
    printf("histogram of %zu values in %d bins over %d ranks %s\n",
           (size_t)WB_RMA_HISTOGRAM_VALUES * (size_t)size, WB_RMA_HISTOGRAM_BINS, size,
           ok ? "matches the sequential count" : "DOES NOT match the sequential count");
  return ok;
}

int main(int argc, char** argv) {
  return wb_rma_program_main(argc, argv, run_histogram);
}
#endif
