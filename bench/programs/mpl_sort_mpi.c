/* mpl/sample_sort/example_mpi: the plain-MPI parallel sort that MPL ships beside its MPL version
 * (examples/parallel_sort_mpi.c of the MPL source, unmodified), timed in the collectives harness
 * against c/sample_sort/program.
 *
 * What is ours: only this driver. Their file is included whole (its folder is a system include
 * folder, bench/cmake/WbPeerPrograms.cmake) with its main and its global functions renamed by
 * the macros below, because their main sorts 10^8 / size random doubles once and times nothing.
 * Their parallel_sort sorts doubles only (and sorts locally with qsort), so it gets the ints of
 * bench/programs's input as doubles (the same values, exactly) and moves 8 bytes an element where
 * the other sorts move 4; its pivots come from rand(), unseeded here as their main would seed it
 * from the clock. It sorts on MPI_COMM_WORLD, which is the harness's communicator. */
#include <stdlib.h>

/* Their functions are not static and have no prototypes; the names the macros give them are
 * reported at the macros, here, outside the system folder that keeps their warnings theirs. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#define main wb_mpl_parallel_sort_mpi_main
#define parallel_sort wb_mpl_c_parallel_sort
#define partition wb_mpl_c_partition
#define fill_random wb_mpl_c_fill_random
#include <parallel_sort_mpi.c>
#undef main
#undef parallel_sort
#undef partition
#undef fill_random
#pragma GCC diagnostic pop

#include "coll_variant.h"
#include "programs.h"
#include "sort_check.h"

/* Ours: the input; theirs: the doubles they partition in place and the vector they return. */
typedef struct mpl_sort_state {
  MPI_Comm comm;
  uint64_t calls;
  size_t n;
  int* input;
  double* work;
  vector sorted;
} mpl_sort_state;

static void* setup(MPI_Comm comm, size_t count) {
  mpl_sort_state* s = calloc(1, sizeof *s);
  int rank = 0;
  if (!s || !(s->input = malloc(count * sizeof(int) + 1)) ||
      !(s->work = malloc(count * sizeof(double) + 1))) {
    if (s) free(s->input);
    free(s);
    return NULL;
  }
  MPI_Comm_rank(comm, &rank);
  s->comm = comm, s->n = count;
  for (size_t i = 0; i < count; ++i)
    s->input[i] = wb_sort_input(rank, count, i);
  return s;
}

static void call(void* p) {
  mpl_sort_state* s = p;
  free(s->sorted.data);
  /* the input rotated as every sorter's (wb_sort_next_input), converted to doubles */
  const size_t offset = wb_sort_offset(s->n, s->calls++);
  for (size_t i = offset; i < s->n; ++i)
    s->work[i - offset] = s->input[i];
  for (size_t i = 0; i < offset; ++i)
    s->work[s->n - offset + i] = s->input[i];
  s->sorted = wb_mpl_c_parallel_sort((vector){s->work, s->n});
}

/* Their result as ints again (every value is one of the input's ints), then the common check. */
static int verify(void* p) {
  mpl_sort_state* s = p;
  int* sorted = malloc(s->sorted.N * sizeof(int) + 1);
  for (size_t i = 0; i < s->sorted.N; ++i)
    sorted[i] = (int)s->sorted.data[i];
  int wrong = wb_sort_check(s->comm, s->input, s->n, sorted, s->sorted.N);
  free(sorted);
  return wrong;
}

static void teardown(void* p) {
  mpl_sort_state* s = p;
  free(s->sorted.data), free(s->work), free(s->input), free(s);
}

const wb_coll_variant wb_mpl_sort_mpi = {
    "mpl", "sample_sort", "example_mpi", "c/sample_sort/program", WB_COLL_PROGRAM, setup,
    call,  verify,        teardown};
