/* A global counter in one-sided communication, in plain C MPI: the baseline of
 * examples/rma_counter.cpp (same algorithm, same input, same output line). Rank 0's window
 * holds one long, and every rank draws tickets from it with MPI_Fetch_and_op (MPI_SUM) under a
 * shared lock, without rank 0 taking part. The tickets of all ranks are then checked to be
 * 0 .. N-1, each drawn once, and the counter to read N (an atomic read, MPI_NO_OP).
 *
 * In the rma harness it is c/rma_counter/program (the window made and freed in every call, as
 * the example makes it once per run); built with WB_RMA_PROGRAM_MAIN it is a program of its own
 * that prints what the example prints. */
#include <stdio.h>
#include <stdlib.h>

#include "rma_kernels.h"
#include "rma_program_main.h"

//> START COUNTER C
int wb_rma_counter(MPI_Comm comm, size_t per_rank, long* final_value, size_t* tickets_drawn) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  long* count = NULL;
  MPI_Win counter;
  MPI_Win_allocate(rank == 0 ? (MPI_Aint)sizeof(long) : 0, (int)sizeof(long), MPI_INFO_NULL, comm,
                   &count, &counter);
  const long zero = 0, one = 1, nothing = 0;
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, counter);
    MPI_Put(&zero, 1, MPI_LONG, 0, 0, 1, MPI_LONG, counter);
    MPI_Win_unlock(0, counter);
  }
  MPI_Barrier(comm);

  long* tickets = malloc(per_rank * sizeof *tickets);
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, counter);
  for (size_t i = 0; i < per_rank; ++i) {
    MPI_Fetch_and_op(&one, &tickets[i], MPI_LONG, 0, 0, MPI_SUM, counter);
    MPI_Win_flush(0, counter); /* the ticket has arrived */
  }
  MPI_Win_unlock(0, counter);

  size_t n = per_rank * (size_t)size;
  long* all = malloc(n * sizeof *all);
  MPI_Allgather(tickets, (int)per_rank, MPI_LONG, all, (int)per_rank, MPI_LONG, comm);
  MPI_Barrier(comm);
  *final_value = -1;
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, counter);
  MPI_Fetch_and_op(&nothing, final_value, MPI_LONG, 0, 0, MPI_NO_OP, counter);
  MPI_Win_unlock(0, counter);
  wb_sort_longs(all, n);
  int ok = *final_value == (long)n;
  for (size_t i = 0; i < n; ++i)
    ok &= all[i] == (long)i;
  free(tickets), free(all);
  MPI_Win_free(&counter);
  *tickets_drawn = n;
  return ok;
}
//> END COUNTER C

static void call_counter(void* p) {
  wb_rma_program_state* s = p;
  long final_value = 0;
  size_t tickets = 0;
  s->ok = wb_rma_counter(s->comm, WB_RMA_COUNTER_TICKETS, &final_value, &tickets);
}

const wb_coll_variant wb_c_rma_counter = {"c",          "rma_counter",         "program",
                                          NULL,         WB_COLL_PROGRAM,       wb_rma_program_setup,
                                          call_counter, wb_rma_program_verify, free};

#ifdef WB_RMA_PROGRAM_MAIN
static int run_counter(int rank, int size) {
  long final_value = 0;
  size_t tickets = 0;
  int ok = wb_rma_counter(MPI_COMM_WORLD, WB_RMA_COUNTER_TICKETS, &final_value, &tickets);
  if (rank == 0)
    printf("%zu tickets from %d ranks, %s; the counter reads %ld\n", tickets, size,
           ok ? "each drawn once" : "NOT each drawn once", final_value);
  return ok;
}

int main(int argc, char** argv) {
  return wb_rma_program_main(argc, argv, run_counter);
}
#endif
