/* What the rma suite's kernels share (C: c_rma.c, bench/programs/rma_*.c; thinmpi:
 * thinmpi_rma.cpp): the sizes of the bandwidth form and of the programs, the check of what a
 * variant left in its window, and the C programs' entry points.
 *
 * Every kernel runs on 2 ranks (more ranks take part in the fences and collectives and do
 * nothing else): rank 0 is the origin of the passive-target forms, ranks 0 and 1 each other's
 * peer in the fence forms. `count` is the ints of one operation (ignored by the atomics, which
 * move one int). Windows are MPI_Win_allocate'd ints (OSU's default window), filled with the
 * owner's wb_coll_value before the first epoch. */
#ifndef WB_RMA_KERNELS_H
#define WB_RMA_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "coll_variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Operations per call of the bandwidth forms, then one flush (osu_put_bw's window size). */
enum { WB_RMA_BANDWIDTH_OPS = 64 };

/* Every window holds a multiple of 16 bytes: MPICH 4.0.2 (ch4, shared memory) misplaces the
 * operations to rank 1 of a window made by MPI_Win_allocate with the same size on every rank
 * when that size is not a multiple of 16 bytes (a put of one int to rank 1 of a 2-rank window
 * of 4, 8, 12, 20, 24, 36 or 4100 bytes per rank does not reach rank 1's memory; of 16, 32, 48
 * bytes it does). Open MPI 4.1.4 places them right at any size. */
enum { WB_RMA_WINDOW_QUANTUM_INTS = 4 };

/* The ints of each rank's window for operations of `count` ints. */
static inline size_t wb_rma_window_ints(size_t count) {
  size_t quantum = WB_RMA_WINDOW_QUANTUM_INTS;
  return (count + quantum - 1) / quantum * quantum;
}

/* The programs' input, as examples/rma_counter.cpp and examples/rma_histogram.cpp have it. */
enum {
  WB_RMA_COUNTER_TICKETS = 1000,  /* tickets each rank draws */
  WB_RMA_HISTOGRAM_BINS = 64,     /* bins over all ranks */
  WB_RMA_HISTOGRAM_VALUES = 10000 /* values each rank counts */
};

/* The operation a variant repeats, for wb_rma_check. */
typedef enum wb_rma_op {
  WB_RMA_PUT,
  WB_RMA_GET,
  WB_RMA_ACCUMULATE, /* MPI_SUM of count ones */
  WB_RMA_FETCH_AND_OP,
  WB_RMA_COMPARE_AND_SWAP
} wb_rma_op;

/* What one rank saw, after its epoch ended, for wb_rma_check. */
typedef struct wb_rma_seen {
  wb_rma_op op;
  int fence; /* 1: both ranks issued (fence); 0: rank 0 issued to rank 1 (lock) */
  int rank;
  size_t count;      /* ints of the window and of each operation */
  long calls;        /* calls the issuing rank made (the maximum over ranks) */
  const int* window; /* this rank's window, read under a lock of itself */
  const int* result; /* get: the ints fetched; atomics: result[0] is the last value fetched */
  int chain_ok;      /* compare_and_swap: every swap found the value it expected */
} wb_rma_seen;

/* 0 when `seen` is what the variant's calls leave on this rank. */
int wb_rma_check(const wb_rma_seen* seen);

/* The C programs (bench/programs/rma_counter.c, rma_histogram.c): each runs the whole program
 * on comm and returns 1 when its result checks, as the examples do. */
int wb_rma_counter(MPI_Comm comm, size_t per_rank, long* final_value, size_t* tickets);
int wb_rma_histogram(MPI_Comm comm, size_t values_per_rank, size_t bins);
extern const wb_coll_variant wb_c_rma_counter;
extern const wb_coll_variant wb_c_rma_histogram;

/* The state of a C program variant: the communicator it runs on and whether its last run
 * checked. Setup ignores `count` (a program's input is fixed above); verify is 0 when it checked.
 */
typedef struct wb_rma_program_state {
  MPI_Comm comm;
  int ok;
  /* The histogram's input sizes, read from here at each call: a constant argument would let the
   * compiler specialise one side (thinmpi's example is an inline function: `% bins` became a
   * mask there, a division in the C function, 0.80-0.88x C for the same code). */
  size_t values, bins;
} wb_rma_program_state;

#ifndef __cplusplus /* the C programs' */
static inline void* wb_rma_program_setup(MPI_Comm comm, size_t count) {
  (void)count;
  wb_rma_program_state* s = malloc(sizeof *s);
  if (s) {
    s->comm = comm, s->ok = 0;
    s->values = WB_RMA_HISTOGRAM_VALUES, s->bins = WB_RMA_HISTOGRAM_BINS;
  }
  return s;
}

static inline int wb_rma_program_verify(void* p) {
  return !((wb_rma_program_state*)p)->ok;
}
#endif

/* Sorts values[0..n) ascending with std::sort (the examples' sort, for the C programs). */
void wb_sort_longs(long* values, size_t n);

/* The histogram's values of `rank`: the linear congruential sequence of the example. */
static inline uint64_t wb_histogram_seed(int rank) {
#ifdef __cplusplus
  return 12345 + 977 * static_cast<uint64_t>(rank);
#else
  return 12345 + 977 * (uint64_t)rank;
#endif
}
static inline size_t wb_histogram_next(uint64_t* state, size_t bins) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
#ifdef __cplusplus
  return static_cast<size_t>((*state >> 33) % bins);
#else
  return (size_t)((*state >> 33) % bins);
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* WB_RMA_KERNELS_H */
