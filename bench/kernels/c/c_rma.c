/* The C variants of the rma suite: each is what a careful C programmer writes, the method of
 * OSU's one-sided latency tests (osu_put_latency, osu_get_latency, osu_acc_latency,
 * osu_fop_latency, osu_cas_latency, osu_put_bw) and the baseline of the thinmpi and mpi4py
 * variants that do the same (rma_kernels.h has the layout):
 *
 *   c/<op>/lock_flush   passive target: rank 0 holds MPI_Win_lock(MPI_LOCK_SHARED, 1) from setup
 *                       on; one call is the operation to rank 1 and MPI_Win_flush(1)
 *   c/<op>/fence        active target, a round trip: MPI_Win_fence; rank 0's operation to 1;
 *                       MPI_Win_fence; rank 1's operation to 0; MPI_Win_fence (the epoch opened
 *                       by one fence at setup, closed by MPI_MODE_NOSUCCEED)
 *   c/<op>/bandwidth    rank 0: 64 operations to rank 1, then MPI_Win_flush(1)
 *
 * for <op> put (MPI_Put), get (MPI_Get) and accumulate (MPI_Accumulate, MPI_SUM), and
 * c/fetch_and_op/lock_flush (MPI_Fetch_and_op, MPI_SUM of 1) and
 * c/compare_and_swap/lock_flush (MPI_Compare_and_swap of the value it expects and the next one);
 * then the programs c/rma_counter/program and c/rma_histogram/program (bench/programs). The
 * harness times whole blocks of calls, as OSU's one-sided tests do (WB_COLL_ONE_SIDED). */
#include <stdlib.h>
#include <string.h>

#include "c_coll_table.h"
#include "c_kernel.h"
#include "rma_kernels.h"

typedef struct rma_state {
  MPI_Comm comm;
  MPI_Win win;
  int* window;
  int rank, peer, fence, open;
  size_t count;
  int *origin, *result;
  long calls;
  int one, fetched, expected, next, chain_ok;
} rma_state;

/* The window, its initial values and the origin; the epoch is opened by the caller. */
static rma_state* setup_window(MPI_Comm comm, size_t count, int fence) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  if (size < 2 || count == 0 || count > (size_t)1 << 28) return NULL;
  rma_state* s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->comm = comm, s->count = count, s->fence = fence, s->one = 1, s->chain_ok = 1;
  MPI_Comm_rank(comm, &s->rank);
  s->peer = s->rank < 2 ? 1 - s->rank : MPI_PROC_NULL;
  size_t window_ints = wb_rma_window_ints(count);
  s->origin = malloc(window_ints * sizeof(int));
  s->result = calloc(window_ints, sizeof(int));
  MPI_Win_allocate((MPI_Aint)(window_ints * sizeof(int)), (int)sizeof(int), MPI_INFO_NULL, comm,
                   &s->window, &s->win);
  for (size_t i = 0; i < window_ints; ++i)
    s->window[i] = s->origin[i] = wb_coll_value(s->rank, i);
  s->expected = wb_coll_value(1, 0), s->next = s->expected + 1;
  MPI_Barrier(comm); /* every window is filled before any rank accesses it */
  if (fence) {
    MPI_Win_fence(0, s->win);
  } else if (s->rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, s->win);
  }
  s->open = fence || s->rank == 0;
  return s;
}

WB_C_SETUP_WITH(setup_lock, setup_window, 0)
WB_C_SETUP_WITH(setup_fence, setup_window, 1)

#define WB_PUT(s) \
  MPI_Put((s)->origin, (int)(s)->count, MPI_INT, (s)->peer, 0, (int)(s)->count, MPI_INT, (s)->win)
#define WB_GET(s) \
  MPI_Get((s)->result, (int)(s)->count, MPI_INT, (s)->peer, 0, (int)(s)->count, MPI_INT, (s)->win)
#define WB_ACCUMULATE(s)                                                                        \
  MPI_Accumulate((s)->origin, (int)(s)->count, MPI_INT, (s)->peer, 0, (int)(s)->count, MPI_INT, \
                 MPI_SUM, (s)->win)

/* The three forms of one operation: lock_flush, fence (a round trip) and bandwidth. */
#define WB_RMA_FORMS(name, ISSUE)                  \
  static void call_##name##_lock(void* p) {        \
    rma_state* s = p;                              \
    if (s->rank != 0) return;                      \
    ISSUE(s);                                      \
    MPI_Win_flush(1, s->win);                      \
    ++s->calls;                                    \
  }                                                \
  static void call_##name##_fence(void* p) {       \
    rma_state* s = p;                              \
    MPI_Win_fence(0, s->win);                      \
    if (s->rank == 0) ISSUE(s);                    \
    MPI_Win_fence(0, s->win);                      \
    if (s->rank == 1) ISSUE(s);                    \
    MPI_Win_fence(0, s->win);                      \
    ++s->calls;                                    \
  }                                                \
  static void call_##name##_bandwidth(void* p) {   \
    rma_state* s = p;                              \
    if (s->rank != 0) return;                      \
    for (int k = 0; k < WB_RMA_BANDWIDTH_OPS; ++k) \
      ISSUE(s);                                    \
    MPI_Win_flush(1, s->win);                      \
    s->calls += WB_RMA_BANDWIDTH_OPS;              \
  }

WB_RMA_FORMS(put, WB_PUT)
WB_RMA_FORMS(get, WB_GET)
WB_RMA_FORMS(accumulate, WB_ACCUMULATE)

static void call_fetch_and_op(void* p) {
  rma_state* s = p;
  if (s->rank != 0) return;
  MPI_Fetch_and_op(&s->one, &s->fetched, MPI_INT, 1, 0, MPI_SUM, s->win);
  MPI_Win_flush(1, s->win);
  ++s->calls;
}

static void call_compare_and_swap(void* p) {
  rma_state* s = p;
  if (s->rank != 0) return;
  MPI_Compare_and_swap(&s->next, &s->expected, &s->fetched, MPI_INT, 1, 0, s->win);
  MPI_Win_flush(1, s->win);
  s->chain_ok &= s->fetched == s->expected;
  s->expected = s->next++;
  ++s->calls;
}

/* Ends the epoch, then checks this rank's window (read under a lock of itself) and results. */
static int verify_op(rma_state* s, wb_rma_op op) {
  if (s->open && s->fence) MPI_Win_fence(MPI_MODE_NOSUCCEED, s->win);
  if (s->open && !s->fence) MPI_Win_unlock(1, s->win);
  s->open = 0;
  long calls = 0;
  MPI_Allreduce(&s->calls, &calls, 1, MPI_LONG, MPI_MAX, s->comm);
  MPI_Win_lock(MPI_LOCK_SHARED, s->rank, 0, s->win);
  if (op == WB_RMA_FETCH_AND_OP || op == WB_RMA_COMPARE_AND_SWAP) s->result[0] = s->fetched;
  wb_rma_seen seen = {op, s->fence, s->rank, s->count, calls, s->window, s->result, s->chain_ok};
  int wrong = wb_rma_check(&seen);
  MPI_Win_unlock(s->rank, s->win);
  return wrong;
}

static int verify_put(void* p) {
  return verify_op(p, WB_RMA_PUT);
}
static int verify_get(void* p) {
  return verify_op(p, WB_RMA_GET);
}
static int verify_accumulate(void* p) {
  return verify_op(p, WB_RMA_ACCUMULATE);
}
static int verify_fetch_and_op(void* p) {
  return verify_op(p, WB_RMA_FETCH_AND_OP);
}
static int verify_compare_and_swap(void* p) {
  return verify_op(p, WB_RMA_COMPARE_AND_SWAP);
}

static void teardown_rma(void* p) {
  rma_state* s = p;
  if (s->open) verify_op(s, WB_RMA_GET); /* ends the epoch (a verify was skipped) */
  MPI_Win_free(&s->win);
  free(s->origin), free(s->result), free(s);
}

/* Whether ints[0..count) are rank's values plus `times` the values of rank `from`. */
static int holds(const int* ints, size_t count, int rank, long times, int from) {
  for (size_t i = 0; i < count; ++i)
    if ((long)ints[i] != wb_coll_value(rank, i) + times * wb_coll_value(from, i)) return 0;
  return 1;
}

int wb_rma_check(const wb_rma_seen* v) {
  int issuer = v->rank == 0 || (v->fence && v->rank == 1);
  int target = v->rank == 1 || (v->fence && v->rank == 0);
  int peer = 1 - v->rank;
  if (v->rank > 1) return !holds(v->window, v->count, v->rank, 0, 0);
  switch (v->op) {
    case WB_RMA_PUT:
      return !holds(v->window, v->count, target ? peer : v->rank, 0, 0);
    case WB_RMA_GET:
      return !holds(v->window, v->count, v->rank, 0, 0) ||
             (issuer && !holds(v->result, v->count, peer, 0, 0));
    case WB_RMA_ACCUMULATE:
      return !holds(v->window, v->count, v->rank, target ? v->calls : 0, peer);
    case WB_RMA_FETCH_AND_OP:
    case WB_RMA_COMPARE_AND_SWAP: {
      long first = wb_coll_value(1, 0);
      if (v->rank == 1) return v->window[0] != first + v->calls;
      return v->calls > 0 && (v->result[0] != first + v->calls - 1 || !v->chain_ok);
    }
  }
  return 1;
}

#define WB_RMA(op, form, setup, call, verify) \
  WB_C_COLL_ROW(op, form, WB_COLL_ONE_SIDED, setup, call, verify, teardown_rma)

size_t wb_c_rma_variants(const wb_coll_variant** table) {
  static const wb_coll_variant variants[] = {
      WB_RMA("put", "lock_flush", setup_lock, call_put_lock, verify_put),
      WB_RMA("put", "fence", setup_fence, call_put_fence, verify_put),
      WB_RMA("put", "bandwidth", setup_lock, call_put_bandwidth, verify_put),
      WB_RMA("get", "lock_flush", setup_lock, call_get_lock, verify_get),
      WB_RMA("get", "fence", setup_fence, call_get_fence, verify_get),
      WB_RMA("get", "bandwidth", setup_lock, call_get_bandwidth, verify_get),
      WB_RMA("accumulate", "lock_flush", setup_lock, call_accumulate_lock, verify_accumulate),
      WB_RMA("accumulate", "fence", setup_fence, call_accumulate_fence, verify_accumulate),
      WB_RMA("accumulate", "bandwidth", setup_lock, call_accumulate_bandwidth, verify_accumulate),
      WB_RMA("fetch_and_op", "lock_flush", setup_lock, call_fetch_and_op, verify_fetch_and_op),
      WB_RMA("compare_and_swap", "lock_flush", setup_lock, call_compare_and_swap,
             verify_compare_and_swap),
  };
  static wb_coll_variant all[WB_C_ROWS(variants) + 2];
  return wb_c_table_with_programs(table, all, variants, WB_C_ROWS(variants), &wb_c_rma_counter,
                                  &wb_c_rma_histogram);
}
