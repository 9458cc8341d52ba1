/* The C collective variants: each is the call a careful C programmer makes, and the baseline of
 * the thinmpi and Boost.MPI variants that do the same thing.
 *
 *   c/bcast/builtin                  MPI_Bcast from rank 0
 *   c/allreduce/sum                  MPI_Allreduce with MPI_SUM
 *   c/allreduce/user_fn              ... with an MPI_Op_create'd function doing the same sum
 *                                    (declared commutative)
 *   c/allreduce/user_fn_noncommute   ... the same function declared non-commutative (MPI then
 *                                    combines in rank order, as for any op not declared so)
 *   c/allreduce/user_fn_state        ... the same function adding a global read at run time
 *   c/allgather/builtin              MPI_Allgather
 *   c/allgatherv/counts_given        MPI_Allgatherv with counts and displacements known
 *   c/allgatherv/counts_exchanged    MPI_Allgather of the counts, displacements, a malloc'd
 *                                    result, then MPI_Allgatherv (what code that does not know
 *                                    the counts does)
 *   c/alltoall/builtin               MPI_Alltoall
 *   c/alltoallv/counts_given         MPI_Alltoallv with counts and displacements known
 *   c/alltoallv/counts_exchanged     MPI_Alltoall of the counts, then MPI_Alltoallv as above
 *   c/allgatherv/counts_exchanged_reuse, c/alltoallv/counts_exchanged_reuse
 *                                    the same exchanges in a loop that keeps its counts,
 *                                    displacements and result from call to call, growing the
 *                                    result (a new malloc) only when it is too small
 *   c/reduce_scatter_block/sum       MPI_Reduce_scatter_block with MPI_SUM
 *   c/scan/sum                       MPI_Scan with MPI_SUM
 *
 * and the programs of bench/programs (c/sample_sort/program, c/bfs/program). */
#include <stdlib.h>
#include <string.h>

#include "c_coll_table.h"
#include "c_kernel.h"
#include "programs.h"

typedef struct c_state {
  MPI_Comm comm;
  wb_coll_kind kind;
  int rank, size, count;
  int *send, *recv;
  int *counts, *displs; /* per rank, for the v-collectives */
  int* grown;           /* the counts-exchanged result of the last call (malloc'd per call) */
  size_t capacity;      /* the *_reuse forms: the ints `grown` holds, kept from call to call */
  int *got_counts, *got_displs; /* the *_reuse forms: the counts received, kept */
  MPI_Op op;
} c_state;

/* The sum that the user reductions compute (MPI_User_function). The length is read once: a
 * loop condition of `*length` would be reloaded after every store to b[i] (which may alias it),
 * and the loop would not vectorize; thinmpi's own loop takes the length by value. Not `restrict`:
 * MPI does not promise that invec and inoutvec are disjoint, and thinmpi does not assume it. */
static void sum_ints(void* in, void* inout, int* length, MPI_Datatype* type) {
  const int* a = in;
  int* b = inout;
  const int n = *length;
  (void)type;
  for (int i = 0; i < n; ++i)
    b[i] = a[i] + b[i];
}

/* The same sum with state read from a global, the C form of a capturing lambda. */
static void sum_ints_state(void* in, void* inout, int* length, MPI_Datatype* type) {
  const int* a = in;
  int* b = inout;
  const int n = *length, bias = wb_coll_bias;
  (void)type;
  for (int i = 0; i < n; ++i)
    b[i] = a[i] + b[i] + bias;
}

static c_state* setup_kind(MPI_Comm comm, size_t count, wb_coll_kind kind) {
  c_state* s = calloc(1, sizeof *s);
  if (!s || count > (size_t)1 << 28) return free(s), NULL;
  s->comm = comm, s->kind = kind, s->count = (int)count, s->op = MPI_SUM;
  MPI_Comm_rank(comm, &s->rank);
  MPI_Comm_size(comm, &s->size);
  size_t sent = wb_coll_sent(kind, s->size, count);
  s->send = malloc(sent * sizeof(int));
  s->recv = calloc(wb_coll_received(kind, s->size, count), sizeof(int));
  s->counts = malloc((size_t)s->size * sizeof(int));
  s->displs = malloc((size_t)s->size * sizeof(int));
  s->got_counts = malloc((size_t)s->size * sizeof(int));
  s->got_displs = malloc((size_t)s->size * sizeof(int));
  if (!s->send || !s->recv || !s->counts || !s->displs || !s->got_counts || !s->got_displs)
    return NULL;
  for (size_t i = 0; i < sent; ++i)
    s->send[i] = wb_coll_value(s->rank, i);
  for (int r = 0; r < s->size; ++r)
    s->counts[r] = s->count, s->displs[r] = r * s->count;
  if (kind == WB_COLL_BCAST && s->rank == 0) memcpy(s->recv, s->send, count * sizeof(int));
  return s;
}

WB_C_SETUP_WITH(setup_bcast, setup_kind, WB_COLL_BCAST)
WB_C_SETUP_WITH(setup_allreduce, setup_kind, WB_COLL_ALLREDUCE)
WB_C_SETUP_WITH(setup_allgather, setup_kind, WB_COLL_ALLGATHER)
WB_C_SETUP_WITH(setup_alltoall, setup_kind, WB_COLL_ALLTOALL)
WB_C_SETUP_WITH(setup_scan, setup_kind, WB_COLL_SCAN)
WB_C_SETUP_WITH(setup_rsb, setup_kind, WB_COLL_REDUCE_SCATTER_BLOCK)

static void* setup_user_op(MPI_Comm comm, size_t count, MPI_User_function* function, int commute) {
  c_state* s = setup_kind(comm, count, WB_COLL_ALLREDUCE);
  if (s) MPI_Op_create(function, commute, &s->op);
  return s;
}
WB_C_SETUP_WITH(setup_user_fn, setup_user_op, sum_ints, 1)
WB_C_SETUP_WITH(setup_user_fn_noncommute, setup_user_op, sum_ints, 0)
WB_C_SETUP_WITH(setup_user_fn_state, setup_user_op, sum_ints_state, 1)

static void call_bcast(void* p) {
  c_state* s = p;
  MPI_Bcast(s->recv, s->count, MPI_INT, 0, s->comm);
}
static void call_allreduce(void* p) {
  c_state* s = p;
  MPI_Allreduce(s->send, s->recv, s->count, MPI_INT, s->op, s->comm);
}
static void call_allgather(void* p) {
  c_state* s = p;
  MPI_Allgather(s->send, s->count, MPI_INT, s->recv, s->count, MPI_INT, s->comm);
}
static void call_allgatherv(void* p) {
  c_state* s = p;
  MPI_Allgatherv(s->send, s->count, MPI_INT, s->recv, s->counts, s->displs, MPI_INT, s->comm);
}
static void call_alltoall(void* p) {
  c_state* s = p;
  MPI_Alltoall(s->send, s->count, MPI_INT, s->recv, s->count, MPI_INT, s->comm);
}
static void call_alltoallv(void* p) {
  c_state* s = p;
  MPI_Alltoallv(s->send, s->counts, s->displs, MPI_INT, s->recv, s->counts, s->displs, MPI_INT,
                s->comm);
}
static void call_reduce_scatter_block(void* p) {
  c_state* s = p;
  MPI_Reduce_scatter_block(s->send, s->recv, s->count, MPI_INT, MPI_SUM, s->comm);
}
static void call_scan(void* p) {
  c_state* s = p;
  MPI_Scan(s->send, s->recv, s->count, MPI_INT, MPI_SUM, s->comm);
}

/* Displacements from counts (exclusive prefix sum); returns the total. */
static int displacements(const int* counts, int* displs, int size) {
  int total = 0;
  for (int r = 0; r < size; ++r)
    displs[r] = total, total += counts[r];
  return total;
}

/* Counts exchanged: each rank learns every rank's count, then receives into fresh memory
 * (bench/programs/allgatherv.c, the KaMPIng paper's first program in C). */
static void call_allgatherv_exchanged(void* p) {
  c_state* s = p;
  int total = 0;
  free(s->grown);
  s->grown = wb_whole_vector(s->comm, s->send, s->count, &total);
}

static void call_alltoallv_exchanged(void* p) {
  c_state* s = p;
  int* counts = malloc((size_t)s->size * sizeof(int));
  int* displs = malloc((size_t)s->size * sizeof(int));
  MPI_Alltoall(s->counts, 1, MPI_INT, counts, 1, MPI_INT, s->comm);
  int total = displacements(counts, displs, s->size);
  free(s->grown);
  s->grown = malloc((size_t)total * sizeof(int) + 1);
  MPI_Alltoallv(s->send, s->counts, s->displs, MPI_INT, s->grown, counts, displs, MPI_INT, s->comm);
  free(counts), free(displs);
}

/* The *_reuse forms' result: `grown` kept, replaced by a larger malloc (nothing in it is worth
 * copying: the collective overwrites it) only when `total` ints do not fit. */
static int* kept_result(c_state* s, int total) {
  if ((size_t)total > s->capacity) {
    free(s->grown);
    s->grown = malloc((size_t)total * sizeof(int) + 1);
    s->capacity = s->grown ? (size_t)total : 0;
  }
  return s->grown;
}

/* Counts exchanged as a loop that keeps its buffers would: no allocation once they suffice. */
static void call_allgatherv_exchanged_reuse(void* p) {
  c_state* s = p;
  MPI_Allgather(&s->count, 1, MPI_INT, s->got_counts, 1, MPI_INT, s->comm);
  int total = displacements(s->got_counts, s->got_displs, s->size);
  MPI_Allgatherv(s->send, s->count, MPI_INT, kept_result(s, total), s->got_counts, s->got_displs,
                 MPI_INT, s->comm);
}

static void call_alltoallv_exchanged_reuse(void* p) {
  c_state* s = p;
  MPI_Alltoall(s->counts, 1, MPI_INT, s->got_counts, 1, MPI_INT, s->comm);
  int total = displacements(s->got_counts, s->got_displs, s->size);
  MPI_Alltoallv(s->send, s->counts, s->displs, MPI_INT, kept_result(s, total), s->got_counts,
                s->got_displs, MPI_INT, s->comm);
}

static int verify(void* p) {
  c_state* s = p;
  const int* result = s->grown ? s->grown : s->recv;
  return wb_coll_check(s->kind, s->rank, s->size, (size_t)s->count, result);
}

static void teardown(void* p) {
  c_state* s = p;
  if (s->op != MPI_SUM) MPI_Op_free(&s->op);
  free(s->send), free(s->recv), free(s->counts), free(s->displs), free(s->grown);
  free(s->got_counts), free(s->got_displs), free(s);
}

#define WB_C(op, form, kind, setup, call) \
  WB_C_COLL_ROW(op, form, kind, setup, call, verify, teardown)

size_t wb_c_coll_variants(const wb_coll_variant** table) {
  static const wb_coll_variant variants[] = {
      WB_C("bcast", "builtin", WB_COLL_BCAST, setup_bcast, call_bcast),
      WB_C("allreduce", "sum", WB_COLL_ALLREDUCE, setup_allreduce, call_allreduce),
      WB_C("allreduce", "user_fn", WB_COLL_ALLREDUCE, setup_user_fn, call_allreduce),
      WB_C("allreduce", "user_fn_noncommute", WB_COLL_ALLREDUCE, setup_user_fn_noncommute,
           call_allreduce),
      WB_C("allreduce", "user_fn_state", WB_COLL_ALLREDUCE, setup_user_fn_state, call_allreduce),
      WB_C("allgather", "builtin", WB_COLL_ALLGATHER, setup_allgather, call_allgather),
      WB_C("allgatherv", "counts_given", WB_COLL_ALLGATHER, setup_allgather, call_allgatherv),
      WB_C("allgatherv", "counts_exchanged", WB_COLL_ALLGATHER, setup_allgather,
           call_allgatherv_exchanged),
      WB_C("allgatherv", "counts_exchanged_reuse", WB_COLL_ALLGATHER, setup_allgather,
           call_allgatherv_exchanged_reuse),
      WB_C("alltoall", "builtin", WB_COLL_ALLTOALL, setup_alltoall, call_alltoall),
      WB_C("alltoallv", "counts_given", WB_COLL_ALLTOALL, setup_alltoall, call_alltoallv),
      WB_C("alltoallv", "counts_exchanged", WB_COLL_ALLTOALL, setup_alltoall,
           call_alltoallv_exchanged),
      WB_C("alltoallv", "counts_exchanged_reuse", WB_COLL_ALLTOALL, setup_alltoall,
           call_alltoallv_exchanged_reuse),
      WB_C("reduce_scatter_block", "sum", WB_COLL_REDUCE_SCATTER_BLOCK, setup_rsb,
           call_reduce_scatter_block),
      WB_C("scan", "sum", WB_COLL_SCAN, setup_scan, call_scan),
  };
  static wb_coll_variant all[WB_C_ROWS(variants) + 2];
  return wb_c_table_with_programs(table, all, variants, WB_C_ROWS(variants), &wb_c_sample_sort,
                                  &wb_c_bfs);
}
