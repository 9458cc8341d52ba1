/* The values every collective kernel sends, and the check of what a call left behind. */
#include "coll_variant.h"

int wb_coll_bias = 0;

int wb_coll_value(int rank, size_t index) {
  return rank * 7 + (int)(index % 13u) + 1;
}

size_t wb_coll_sent(wb_coll_kind kind, int size, size_t count) {
  int blocks = kind == WB_COLL_ALLTOALL || kind == WB_COLL_REDUCE_SCATTER_BLOCK;
  return blocks ? (size_t)size * count : count;
}

size_t wb_coll_received(wb_coll_kind kind, int size, size_t count) {
  int blocks = kind == WB_COLL_ALLGATHER || kind == WB_COLL_ALLTOALL;
  return blocks ? (size_t)size * count : count;
}

/* The sum over ranks first..last of element `index`. */
static int sum_over(int first, int last, size_t index) {
  int sum = 0;
  for (int r = first; r <= last; ++r)
    sum += wb_coll_value(r, index);
  return sum;
}

/* What element i of a `kind` result holds on `rank`. */
static int expected(wb_coll_kind kind, int rank, int size, size_t count, size_t i) {
  switch (kind) {
    case WB_COLL_BCAST:
      return wb_coll_value(0, i);
    case WB_COLL_ALLREDUCE:
      return sum_over(0, size - 1, i);
    case WB_COLL_ALLGATHER:
      return wb_coll_value((int)(i / count), i % count);
    case WB_COLL_ALLTOALL:
      return wb_coll_value((int)(i / count), (size_t)rank * count + i % count);
    case WB_COLL_REDUCE_SCATTER_BLOCK:
      return sum_over(0, size - 1, (size_t)rank * count + i);
    case WB_COLL_SCAN:
      return sum_over(0, rank, i);
    case WB_COLL_PROGRAM:
    case WB_COLL_SELF_CHECKED:
    case WB_COLL_ONE_SIDED:
      break;
  }
  return 0;
}

int wb_coll_check(wb_coll_kind kind, int rank, int size, size_t count, const int* received) {
  size_t n = wb_coll_received(kind, size, count);
  for (size_t i = 0; i < n; ++i)
    if (received[i] != expected(kind, rank, size, count, i)) return 1;
  return 0;
}
