/* Sample sort in plain C MPI (the KaMPIng paper's second program): splitters by sampling
 * (MPI_Allgather of each rank's samples), the buckets exchanged with MPI_Alltoall of the counts
 * and MPI_Alltoallv, then a local sort. The baseline of thinmpi/sample_sort/program. */
#include <stdlib.h>
#include <string.h>

#include "programs.h"

/* Samples per rank: 16 log2(size) + 1, as in the KaMPIng paper. */
static int oversampling_ratio(int size) {
  int log2 = 0;
  while ((1 << (log2 + 1)) <= size)
    ++log2;
  return 16 * log2 + 1;
}

/* Draws `count` samples of data[0..n) at positions from C++'s std::minstd_rand seeded with
 * seed + 1 (x = 48271 x mod 2^31 - 1), the generator of examples/sample_sort.hpp: both versions
 * draw the same samples, so they pick the same splitters and sort the same buckets. */
static void draw_samples(const int* data, size_t n, int* samples, int count, uint64_t seed) {
  const uint64_t modulus = 2147483647u;
  uint64_t x = (seed + 1) % modulus;
  if (x == 0) x = 1;
  for (int i = 0; i < count; ++i) {
    x = x * 48271u % modulus;
    samples[i] = n ? data[x % n] : 0;
  }
}

/* Sorts the gathered samples and keeps size - 1 equidistant splitters in front. */
static void pick_splitters(int* samples, int oversampling, int size) {
  wb_sort_ints(samples, (size_t)oversampling * (size_t)size);
  for (int i = 0; i + 1 < size; ++i)
    samples[i] = samples[oversampling * (i + 1)];
}

/* The bucket (destination rank) of x: the first splitter greater than x, found as C++'s
 * std::ranges::upper_bound finds it (halving the remaining count), the thinmpi example's search. */
static int bucket_of(int x, const int* splitters, int count) {
  const int* first = splitters;
  ptrdiff_t remaining = count;
  while (remaining > 0) {
    ptrdiff_t half = remaining >> 1;
    if (x < first[half]) {
      remaining = half;
    } else {
      first += half + 1;
      remaining -= half + 1;
    }
  }
  return (int)(first - splitters);
}

/* data[0..n) grouped by bucket into a new array; counts and displacements per rank. */
static int* build_buckets(const int* data, size_t n, const int* splitters, int size, int* counts,
                          int* displs) {
  int* send = malloc(n * sizeof(int) + 1);
  int* bucket = malloc(n * sizeof(int) + 1);
  memset(counts, 0, (size_t)size * sizeof(int));
  for (size_t i = 0; i < n; ++i)
    ++counts[bucket[i] = bucket_of(data[i], splitters, size - 1)];
  for (int r = 0, total = 0; r < size; ++r)
    displs[r] = total, total += counts[r];
  int* next = malloc((size_t)size * sizeof(int));
  memcpy(next, displs, (size_t)size * sizeof(int));
  for (size_t i = 0; i < n; ++i)
    send[next[bucket[i]]++] = data[i];
  free(bucket), free(next);
  return send;
}

/* Sorts the ints of every rank globally: afterwards *data holds this rank's share, sorted, and
 * every rank's values are below the next rank's. */
static void sample_sort(MPI_Comm comm, int** data, size_t* n, uint64_t seed) {
  //> START SORTING C
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int oversampling = oversampling_ratio(size);
  int* samples = malloc((size_t)oversampling * (size_t)size * sizeof(int));
  draw_samples(*data, *n, samples + rank * oversampling, oversampling, seed);
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, samples, oversampling, MPI_INT, comm);
  pick_splitters(samples, oversampling, size);
  int* scounts = malloc((size_t)size * sizeof(int));
  int* sdispls = malloc((size_t)size * sizeof(int));
  int* rcounts = malloc((size_t)size * sizeof(int));
  int* rdispls = malloc((size_t)size * sizeof(int));
  int* send = build_buckets(*data, *n, samples, size, scounts, sdispls);
  MPI_Alltoall(scounts, 1, MPI_INT, rcounts, 1, MPI_INT, comm);
  size_t total = 0;
  for (int r = 0; r < size; ++r)
    rdispls[r] = (int)total, total += (size_t)rcounts[r];
  int* received = malloc(total * sizeof(int) + 1);
  MPI_Alltoallv(send, scounts, sdispls, MPI_INT, received, rcounts, rdispls, MPI_INT, comm);
  wb_sort_ints(received, total);
  free(samples), free(send), free(scounts), free(sdispls), free(rcounts), free(rdispls);
  free(*data);
  *data = received;
  *n = total;
  //> END
}

typedef struct sort_state {
  MPI_Comm comm;
  uint64_t calls;
  size_t n, sorted_n;
  int* input;
  int* sorted;
  long long input_sum;
} sort_state;

static void* setup(MPI_Comm comm, size_t count) {
  sort_state* s = calloc(1, sizeof *s);
  int rank = 0;
  if (!s || !(s->input = malloc(count * sizeof(int)))) return free(s), NULL;
  MPI_Comm_rank(comm, &rank);
  s->comm = comm, s->n = count;
  for (size_t i = 0; i < count; ++i)
    s->input_sum += s->input[i] = wb_sort_input(rank, count, i);
  return s;
}

static void call(void* p) {
  sort_state* s = p;
  free(s->sorted);
  s->sorted = malloc(s->n * sizeof(int) + 1);
  wb_sort_next_input(s->sorted, s->input, s->n, &s->calls);
  s->sorted_n = s->n;
  sample_sort(s->comm, &s->sorted, &s->sorted_n, 42);
}

/* Sorted here, below the next rank's values, and the same count and sum as the input. */
static int verify(void* p) {
  sort_state* s = p;
  int rank, size, wrong = 0;
  MPI_Comm_rank(s->comm, &rank);
  MPI_Comm_size(s->comm, &size);
  for (size_t i = 1; i < s->sorted_n; ++i)
    wrong |= s->sorted[i - 1] > s->sorted[i];
  long long mine[4] = {(long long)s->n, s->input_sum, (long long)s->sorted_n, 0}, all[4];
  for (size_t i = 0; i < s->sorted_n; ++i)
    mine[3] += s->sorted[i];
  MPI_Allreduce(mine, all, 4, MPI_LONG_LONG, MPI_SUM, s->comm);
  wrong |= all[0] != all[2] || all[1] != all[3];
  int last = s->sorted_n ? s->sorted[s->sorted_n - 1] : -1, before = -1;
  MPI_Sendrecv(&last, 1, MPI_INT, rank + 1 < size ? rank + 1 : MPI_PROC_NULL, 0, &before, 1,
               MPI_INT, rank > 0 ? rank - 1 : MPI_PROC_NULL, 0, s->comm, MPI_STATUS_IGNORE);
  wrong |= s->sorted_n && before > s->sorted[0];
  return wrong;
}

static void teardown(void* p) {
  sort_state* s = p;
  free(s->input), free(s->sorted), free(s);
}

const wb_coll_variant wb_c_sample_sort = {"c",   "sample_sort", "program", NULL,    WB_COLL_PROGRAM,
                                          setup, call,          verify,    teardown};
