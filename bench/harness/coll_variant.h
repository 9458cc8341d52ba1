/* The contract between the collectives harness (coll_harness.c) and every collective kernel it
 * measures (C, thinmpi, Boost.MPI).
 *
 * A collective variant is one way of making one collective call on every rank of a communicator:
 * `call` is that call, made by all ranks together. The harness times it the way the OSU
 * collective benchmarks do (osu_allreduce: each call timed alone, calls separated by barriers,
 * the per-rank average, the maximum over ranks), with the variants of one process interleaved in
 * blocks so that their ratios are measured side by side.
 *
 * `count` is the ints each rank contributes (per destination for alltoall(v), per rank block for
 * reduce_scatter_block), as in the OSU benchmarks' message size. */
#ifndef WB_COLL_VARIANT_H
#define WB_COLL_VARIANT_H

#include <mpi.h>
#include <stddef.h>

#include "variant_tables.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a variant's last call must have left in its receive buffer (see wb_coll_check). */
typedef enum wb_coll_kind {
  WB_COLL_BCAST,     /* count ints from rank 0 */
  WB_COLL_ALLREDUCE, /* count ints, the sum over ranks */
  WB_COLL_ALLGATHER, /* size blocks of count ints, rank r's block from rank r */
  WB_COLL_ALLTOALL,  /* size blocks of count ints, block s from rank s's block for this rank */
  WB_COLL_REDUCE_SCATTER_BLOCK, /* count ints: this rank's block of the sum */
  WB_COLL_SCAN,                 /* count ints, the sum over ranks 0..rank */
  WB_COLL_PROGRAM,              /* a whole program (sample sort, BFS, halo): checks itself */
  WB_COLL_SELF_CHECKED,         /* one call of the neighbors suite: checks itself */
  WB_COLL_ONE_SIDED /* one RMA call of the rma suite: checks itself, timed as OSU's one-sided
                       tests time (the calls back to back, see wb_coll_osu_block) */
} wb_coll_kind;

struct wb_coll_variant {
  const char* api;      /* "c", "thinmpi", "boost" */
  const char* op;       /* "allreduce", "allgatherv", "sample_sort", ... */
  const char* form;     /* "sum", "user_fn", "counts_given", ... unique within api/op */
  const char* baseline; /* "c/<op>/<form>" of the C variant it is compared with; NULL for C */
  wb_coll_kind kind;
  /* Allocates and fills this rank's buffers for `count` ints; NULL on error. */
  void* (*setup)(MPI_Comm comm, size_t count);
  /* One collective call (all ranks of comm call it together). */
  void (*call)(void* state);
  /* After calls: 0 when this rank's last result is right. */
  int (*verify)(void* state);
  void (*teardown)(void* state);
};
/* Each kernel translation unit exports a table of them, a wb_coll_variant_table
 * (variant_tables.h). */

/* Element `index` of the ints that `rank` sends (every kernel sends the same values). */
int wb_coll_value(int rank, size_t index);

/* 0 when `received` holds what a call of `kind` leaves on `rank` of `size` ranks, at `count`. */
int wb_coll_check(wb_coll_kind kind, int rank, int size, size_t count, const int* received);

/* Ints a call of `kind` receives on one rank (count or size * count). */
size_t wb_coll_received(wb_coll_kind kind, int size, size_t count);

/* Ints one rank sends (count, or size * count for alltoall and reduce_scatter_block). */
size_t wb_coll_sent(wb_coll_kind kind, int size, size_t count);

/* OSU's timing of `calls` calls of a variant (osu_allreduce): each call timed alone, calls
 * separated by MPI_Barrier on `comm`; returns this rank's average microseconds per call. A
 * WB_COLL_ONE_SIDED variant is timed as osu_put_latency times: the calls back to back between
 * two barriers. */
double wb_coll_osu_block(const wb_coll_variant* v, void* state, MPI_Comm comm, long calls);

/* The state of the "stateful" user reductions: 0, read at run time so that no compiler can fold
 * it away (C reads this global in its MPI_User_function; thinmpi's lambda captures a copy). */
extern int wb_coll_bias;

#ifdef __cplusplus
}
#endif

#endif /* WB_COLL_VARIANT_H */
