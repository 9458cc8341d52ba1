/* The check of the peers' sample sorts (bench/kernels/kamping/kamping_sample_sort.cpp,
 * mpl_sample_sort.cpp, bench/programs/mpl_sort_mpi.c), which return their result in their own
 * containers: compiled as C and as C++ (hence WB_CAST), one copy per translation unit. */
#ifndef WB_SORT_CHECK_H
#define WB_SORT_CHECK_H

#include <mpi.h>
#include <stdlib.h>

#include "programs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Adds up what a permutation keeps: the count, the sum and a sum of hashes of the values. */
static inline void wb_sort_digest(const int* values, size_t n, unsigned long long digest[3]) {
  digest[0] += n;
  for (size_t i = 0; i < n; ++i) {
    digest[1] += WB_CAST(unsigned long long, values[i]);
    digest[2] += wb_mix(WB_CAST(uint64_t, values[i]));
  }
}

/* 0 on every rank when `sorted` (this rank's n_sorted) is sorted here, starts at or above the
 * last value of every rank before this one, and the ranks' results together are a permutation
 * of their inputs (the same count, sum and sum of hashes); 1 on every rank otherwise. Collective
 * on comm. */
static inline int wb_sort_check(MPI_Comm comm, const int* input, size_t n_input, const int* sorted,
                                size_t n_sorted) {
  int rank = 0, size = 0, wrong = 0, any_wrong = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (size_t i = 1; i < n_sorted; ++i)
    wrong |= sorted[i - 1] > sorted[i];
  unsigned long long mine[6] = {0, 0, 0, 0, 0, 0}, all[6];
  wb_sort_digest(input, n_input, mine);
  wb_sort_digest(sorted, n_sorted, mine + 3);
  MPI_Allreduce(mine, all, 6, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  for (int k = 0; k < 3; ++k)
    wrong |= all[k] != all[k + 3];
  /* The last value of each rank (INT_MIN where a rank holds none): every earlier rank's is at
   * most this rank's first. */
  int last = n_sorted ? sorted[n_sorted - 1] : -2147483647 - 1;
  int* lasts = WB_CAST(int*, malloc(WB_CAST(size_t, size) * sizeof(int)));
  MPI_Allgather(&last, 1, MPI_INT, lasts, 1, MPI_INT, comm);
  for (int r = 0; r < rank && n_sorted; ++r)
    wrong |= lasts[r] > sorted[0];
  free(lasts);
  MPI_Allreduce(&wrong, &any_wrong, 1, MPI_INT, MPI_MAX, comm);
  return any_wrong;
}

#ifdef __cplusplus
}
#endif

#endif /* WB_SORT_CHECK_H */
