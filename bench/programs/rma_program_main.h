/* The main of the C rma programs built as programs of their own (rma_counter.c and
 * rma_histogram.c with WB_RMA_PROGRAM_MAIN, bench/cmake/WbRma.cmake). */
#ifndef WB_RMA_PROGRAM_MAIN_H
#define WB_RMA_PROGRAM_MAIN_H

#include <mpi.h>

/* Sets MPI up, runs `run` on MPI_COMM_WORLD with this rank and the number of ranks (it prints
 * rank 0's line and returns whether its check passed), finishes MPI; returns main's status. */
static inline int wb_rma_program_main(int argc, char** argv, int (*run)(int rank, int size)) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int ok = run(rank, size);
  MPI_Finalize();
  return ok ? 0 : 1;
}

#endif /* WB_RMA_PROGRAM_MAIN_H */
