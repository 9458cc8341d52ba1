/* The C variants of the neighbors suite: each is the call a careful C programmer makes, and the
 * baseline of the thinmpi (and mpi4py) variants that do the same thing (neighbors.h has the
 * topologies and the data):
 *
 *   c/neighbor_alltoall/ring      MPI_Neighbor_alltoall on the ring (a distributed graph)
 *   c/neighbor_alltoall/torus     ... on the periodic 2D Cartesian grid
 *   c/neighbor_alltoallv/ring     MPI_Neighbor_alltoallv, counts and displacements known
 *   c/neighbor_alltoallv/torus
 *   c/cart_create/torus           MPI_Cart_create of the torus and MPI_Comm_free
 *   c/sparse_exchange/nbx         the NBX protocol (Hoefler, Siebert, Lumsdaine, PPoPP 2010):
 *                                 MPI_Issend to each destination; MPI_Improbe (any source) and
 *                                 MPI_Mrecv of what arrives; MPI_Ibarrier once the own sends
 *                                 completed (MPI_Testall), probing until it completes (MPI_Test);
 *                                 consecutive calls alternate two tags (a rank done with one
 *                                 exchange may send the next one's messages to a rank still
 *                                 probing for the first)
 *   c/sparse_exchange/alltoallv   the same data the dense way: MPI_Alltoall of the counts, then
 *                                 MPI_Alltoallv into fresh memory (O(p) counts per rank however
 *                                 few destinations)
 *
 * and the program c/halo_2d/program (bench/programs/halo_2d.c). */
#include <stdlib.h>
#include <string.h>

#include "coll_variant.h"
#include "neighbors.h"
#include "programs.h"

void wb_ring_neighbors(int rank, int size, int neighbors[2]) {
  neighbors[0] = (rank + size - 1) % size;
  neighbors[1] = (rank + 1) % size;
}

void wb_torus_dims(int size, int dims[2]) {
  dims[0] = dims[1] = 0;
  MPI_Dims_create(size, 2, dims);
}

void wb_neighbor_fill(int rank, int degree, size_t count, int* send) {
  for (int k = 0; k < degree; ++k)
    for (size_t i = 0; i < count; ++i)
      send[(size_t)k * count + i] = wb_coll_value(rank, (size_t)(k / 2) * count + i);
}

/* Whether block k of `received` holds what a neighbour sends along dimension `dim`. */
static int block_from(const int* neighbors, int k, int dim, size_t count, const int* received) {
  for (size_t i = 0; i < count; ++i)
    if (received[(size_t)k * count + i] != wb_coll_value(neighbors[k], (size_t)dim * count + i))
      return 0;
  return 1;
}

int wb_neighbor_check(const int* neighbors, int degree, size_t count, const int* received) {
  for (int k = 0; k < degree; ++k) {
    int found = 0;
    for (int other = 0; other < degree && !found; ++other)
      found =
          neighbors[other] == neighbors[k] && block_from(neighbors, k, other / 2, count, received);
    if (!found) return 1;
  }
  return 0;
}

int wb_sparse_destinations(int rank, int size, int destinations[2]) {
  destinations[0] = (rank + 1) % size;
  destinations[1] = (rank + 2) % size;
  return destinations[1] == destinations[0] ? 1 : 2;
}

int* wb_sparse_buffer(size_t ints) {
  enum { page = 4096 };
  size_t bytes = (ints * sizeof(int) + page) / page * page; /* a multiple, as C11 asks; never 0 */
  return aligned_alloc(page, bytes);
}

int wb_sparse_check(int rank, int size, size_t count, const int* sources, int source_count,
                    const int* received) {
  int expected = 0;
  for (int s = 0; s < size; ++s) {
    int destinations[2];
    int n = wb_sparse_destinations(s, size, destinations);
    if (destinations[0] != rank && (n < 2 || destinations[1] != rank)) continue;
    if (expected >= source_count || sources[expected] != s) return 1;
    for (size_t i = 0; i < count; ++i)
      if (received[(size_t)expected * count + i] != wb_coll_value(s, (size_t)rank * count + i))
        return 1;
    ++expected;
  }
  return expected != source_count;
}

typedef struct nb_state {
  MPI_Comm comm; /* the ring or the torus */
  int rank, size, degree;
  int neighbors[WB_MAX_NEIGHBORS];
  int count;
  int *send, *recv, *counts, *displs;
} nb_state;

static MPI_Comm make_ring(MPI_Comm comm, int neighbors[2]) {
  int rank, size;
  MPI_Comm ring;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  wb_ring_neighbors(rank, size, neighbors);
/* GCC 12 reads Open MPI's MPI_UNWEIGHTED (the sentinel address (int*)2) as an array to check. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif
  MPI_Dist_graph_create_adjacent(comm, 2, neighbors, MPI_UNWEIGHTED, 2, neighbors, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &ring);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  return ring;
}

static MPI_Comm make_torus(MPI_Comm comm, int neighbors[4]) {
  int size, dims[2], periods[2] = {1, 1};
  MPI_Comm torus;
  MPI_Comm_size(comm, &size);
  wb_torus_dims(size, dims);
  MPI_Cart_create(comm, 2, dims, periods, 0, &torus);
  for (int d = 0; d < 2; ++d)
    MPI_Cart_shift(torus, d, 1, &neighbors[2 * d], &neighbors[2 * d + 1]);
  return torus;
}

static void* setup_topology(MPI_Comm comm, size_t count, int torus) {
  nb_state* s = calloc(1, sizeof *s);
  if (!s || count > (size_t)1 << 24) return free(s), NULL;
  s->comm = torus ? make_torus(comm, s->neighbors) : make_ring(comm, s->neighbors);
  s->degree = torus ? 4 : 2, s->count = (int)count;
  MPI_Comm_rank(s->comm, &s->rank);
  MPI_Comm_size(s->comm, &s->size);
  size_t ints = (size_t)s->degree * count;
  s->send = malloc(ints * sizeof(int));
  s->recv = calloc(ints, sizeof(int));
  s->counts = malloc((size_t)s->degree * sizeof(int));
  s->displs = malloc((size_t)s->degree * sizeof(int));
  if (!s->send || !s->recv || !s->counts || !s->displs) return NULL;
  wb_neighbor_fill(s->rank, s->degree, count, s->send);
  for (int k = 0; k < s->degree; ++k)
    s->counts[k] = s->count, s->displs[k] = k * s->count;
  return s;
}

static void* setup_ring(MPI_Comm c, size_t n) {
  return setup_topology(c, n, 0);
}
static void* setup_torus(MPI_Comm c, size_t n) {
  return setup_topology(c, n, 1);
}

static void call_alltoall(void* p) {
  nb_state* s = p;
  MPI_Neighbor_alltoall(s->send, s->count, MPI_INT, s->recv, s->count, MPI_INT, s->comm);
}

static void call_alltoallv(void* p) {
  nb_state* s = p;
  MPI_Neighbor_alltoallv(s->send, s->counts, s->displs, MPI_INT, s->recv, s->counts, s->displs,
                         MPI_INT, s->comm);
}

/* A new torus per call, freed at once: what making the topology costs. */
static void call_cart_create(void* p) {
  nb_state* s = p;
  int dims[2], periods[2] = {1, 1};
  MPI_Comm torus;
  wb_torus_dims(s->size, dims);
  MPI_Cart_create(s->comm, 2, dims, periods, 0, &torus);
  MPI_Comm_free(&torus);
}

static int verify_topology(void* p) {
  nb_state* s = p;
  return wb_neighbor_check(s->neighbors, s->degree, (size_t)s->count, s->recv);
}

static int verify_nothing(void* p) {
  (void)p;
  return 0;
}

static void teardown_topology(void* p) {
  nb_state* s = p;
  MPI_Comm_free(&s->comm);
  free(s->send), free(s->recv), free(s->counts), free(s->displs), free(s);
}

/* The sparse exchange: what this rank sends, and what it got in the last call. */
typedef struct sparse_state {
  MPI_Comm comm;
  int rank, size, count, destination_n;
  int destinations[2];
  int* send;
  int *sendcounts, *sdispls, *recvcounts, *rdispls; /* per rank: the dense exchange */
  int* received;               /* NBX: room for the 2 messages a rank gets, from setup on */
  size_t received_n, capacity; /* ints */
  int* sources;                /* per message received, in arrival order (NBX) or rank order */
  int source_n;
  int round; /* which of the two tags the next call uses */
} sparse_state;

static void* setup_sparse(MPI_Comm comm, size_t count) {
  sparse_state* s = calloc(1, sizeof *s);
  if (!s || count > (size_t)1 << 24) return free(s), NULL;
  s->comm = comm, s->count = (int)count;
  MPI_Comm_rank(comm, &s->rank);
  MPI_Comm_size(comm, &s->size);
  s->destination_n = wb_sparse_destinations(s->rank, s->size, s->destinations);
  size_t ranks = (size_t)s->size;
  s->send = wb_sparse_buffer(2 * count);
  s->received = wb_sparse_buffer(2 * count), s->capacity = 2 * count;
  s->sendcounts = calloc(ranks, sizeof(int)), s->sdispls = calloc(ranks, sizeof(int));
  s->recvcounts = calloc(ranks, sizeof(int)), s->rdispls = calloc(ranks, sizeof(int));
  s->sources = malloc(ranks * sizeof(int));
  if (!s->send || !s->received || !s->sendcounts || !s->sdispls || !s->recvcounts || !s->rdispls ||
      !s->sources)
    return NULL;
  /* The dense form needs the blocks in rank order: the destinations sorted. */
  if (s->destination_n == 2 && s->destinations[1] < s->destinations[0]) {
    int first = s->destinations[1];
    s->destinations[1] = s->destinations[0], s->destinations[0] = first;
  }
  for (int k = 0; k < s->destination_n; ++k) {
    int d = s->destinations[k];
    for (size_t i = 0; i < count; ++i)
      s->send[(size_t)k * count + i] = wb_coll_value(s->rank, (size_t)d * count + i);
    s->sendcounts[d] = s->count, s->sdispls[d] = k * s->count;
  }
  return s;
}

/* Room for `more` ints after the received ones (setup made room for what arrives). */
static void reserve(sparse_state* s, size_t more) {
  if (s->received_n + more <= s->capacity) return;
  s->capacity = 2 * (s->received_n + more);
  s->received = realloc(s->received, s->capacity * sizeof(int));
}

static void call_nbx(void* p) {
  sparse_state* s = p;
  MPI_Request sends[2], barrier = MPI_REQUEST_NULL;
  int sent = 0, done = 0, tag = WB_SPARSE_TAG + s->round;
  s->received_n = 0, s->source_n = 0, s->round ^= 1;
  for (int k = 0; k < s->destination_n; ++k)
    MPI_Issend(s->send + (size_t)k * (size_t)s->count, s->count, MPI_INT, s->destinations[k], tag,
               s->comm, &sends[k]);
  while (!done) {
    int arrived = 0, n = 0;
    MPI_Message message;
    MPI_Status status;
    MPI_Improbe(MPI_ANY_SOURCE, tag, s->comm, &arrived, &message, &status);
    if (arrived) {
      MPI_Get_count(&status, MPI_INT, &n);
      reserve(s, (size_t)n);
      MPI_Mrecv(s->received + s->received_n, n, MPI_INT, &message, MPI_STATUS_IGNORE);
      s->received_n += (size_t)n, s->sources[s->source_n++] = status.MPI_SOURCE;
    }
    if (!sent) {
/* GCC 12 reads MPICH 4.0.2's access attribute on MPI_Testall against MPI_STATUSES_IGNORE, the
 * constant (MPI_Status *) 1, as a 0-byte region (-Wstringop-overflow): a false positive. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
      MPI_Testall(s->destination_n, sends, &sent, MPI_STATUSES_IGNORE);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
      if (sent) MPI_Ibarrier(s->comm, &barrier);
    } else {
      MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
    }
  }
}

/* The dense form receives into fresh memory, as code that does not know the counts does (and as
 * c/alltoallv/counts_exchanged of the collectives suite). */
static void call_dense(void* p) {
  sparse_state* s = p;
  free(s->received);
  s->received = NULL, s->received_n = s->capacity = 0;
  MPI_Alltoall(s->sendcounts, 1, MPI_INT, s->recvcounts, 1, MPI_INT, s->comm);
  int total = 0;
  const int size = s->size;
  s->source_n = 0;
  for (int r = 0; r < size; ++r) {
    s->rdispls[r] = total, total += s->recvcounts[r];
    if (s->recvcounts[r] > 0) s->sources[s->source_n++] = r;
  }
  s->received = malloc((size_t)total * sizeof(int) + 1);
  s->capacity = (size_t)total;
  MPI_Alltoallv(s->send, s->sendcounts, s->sdispls, MPI_INT, s->received, s->recvcounts, s->rdispls,
                MPI_INT, s->comm);
  s->received_n = (size_t)total;
}

/* The messages in increasing source order (NBX gives them in arrival order), then the check. */
static int verify_sparse(void* p) {
  sparse_state* s = p;
  size_t count = (size_t)s->count;
  int* sorted = malloc(s->received_n * sizeof(int) + 1);
  int* order = malloc((size_t)s->source_n * sizeof(int) + 1);
  for (int m = 0; m < s->source_n; ++m) {
    int at = m;
    while (at > 0 && order[at - 1] > s->sources[m])
      order[at] = order[at - 1], --at;
    order[at] = s->sources[m];
  }
  for (int m = 0; m < s->source_n; ++m)
    for (int k = 0; k < s->source_n; ++k)
      if (s->sources[k] == order[m] && count > 0)
        memcpy(sorted + (size_t)m * count, s->received + (size_t)k * count, count * sizeof(int));
  int wrong = s->received_n != (size_t)s->source_n * count ||
              wb_sparse_check(s->rank, s->size, count, order, s->source_n, sorted);
  free(sorted), free(order);
  return wrong;
}

static void teardown_sparse(void* p) {
  sparse_state* s = p;
  free(s->send), free(s->sendcounts), free(s->sdispls), free(s->recvcounts), free(s->rdispls);
  free(s->received), free(s->sources), free(s);
}

#define WB_NB(op, form, setup, call, verify, teardown) \
  { "c", op, form, NULL, WB_COLL_SELF_CHECKED, setup, call, verify, teardown }

size_t wb_c_neighbor_variants(const wb_coll_variant** table) {
  static const wb_coll_variant variants[] = {
      WB_NB("neighbor_alltoall", "ring", setup_ring, call_alltoall, verify_topology,
            teardown_topology),
      WB_NB("neighbor_alltoall", "torus", setup_torus, call_alltoall, verify_topology,
            teardown_topology),
      WB_NB("neighbor_alltoallv", "ring", setup_ring, call_alltoallv, verify_topology,
            teardown_topology),
      WB_NB("neighbor_alltoallv", "torus", setup_torus, call_alltoallv, verify_topology,
            teardown_topology),
      WB_NB("cart_create", "torus", setup_torus, call_cart_create, verify_nothing,
            teardown_topology),
      WB_NB("sparse_exchange", "nbx", setup_sparse, call_nbx, verify_sparse, teardown_sparse),
      WB_NB("sparse_exchange", "alltoallv", setup_sparse, call_dense, verify_sparse,
            teardown_sparse),
  };
  enum { calls = sizeof variants / sizeof variants[0] };
  static wb_coll_variant all[calls + 1]; /* C cannot initialize from the program's object */
  memcpy(all, variants, sizeof variants);
  all[calls] = wb_c_halo_2d;
  *table = all;
  return calls + 1;
}
