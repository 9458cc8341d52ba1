/* Breadth-first search in plain C MPI (the KaMPIng paper's third program) on a generated graph
 * whose vertices are spread over the ranks in equal blocks. The partition is a distributed graph
 * communicator (MPI_Dist_graph_create_adjacent): out-neighbours own the far ends of a rank's
 * edges, in-neighbours are found once by NBX with empty messages (MPI_Issend, MPI_Improbe +
 * MPI_Mrecv, MPI_Ibarrier). Each level's frontier goes to the owners of its vertices with
 * MPI_Neighbor_alltoall of the counts and MPI_Neighbor_alltoallv, and the search ends when no
 * rank has anything to send (MPI_Allreduce). The baseline of thinmpi/bfs/program
 * (examples/bfs.hpp: the same algorithm). */
#include <stdlib.h>
#include <string.h>

#include "programs.h"

enum { WB_BFS_SOURCES_TAG = 16016 };

/* The vertices found for one out-neighbour. */
typedef struct bucket {
  uint64_t* items;
  size_t n, capacity;
} bucket;

static void push(bucket* b, uint64_t v) {
  if (b->n == b->capacity) {
    b->capacity = b->capacity ? 2 * b->capacity : 16;
    b->items = realloc(b->items, b->capacity * sizeof(uint64_t));
  }
  b->items[b->n++] = v;
}

/* The partition: the graph communicator, each rank's out-neighbour slot (-1: none), degrees. */
typedef struct partition {
  MPI_Comm graph;
  int* slot_of;
  int out_n, in_n;
} partition;

/* The ranks that send to this one, in increasing order: one empty synchronous message to each
 * of `destinations`, received by a matched probe; once this rank's are matched it enters a
 * nonblocking barrier, whose completion means every rank's are (NBX). Returns how many. */
static int find_sources(MPI_Comm comm, const int* destinations, int out_n, int* sources) {
  MPI_Request* sends = malloc((size_t)out_n * sizeof(MPI_Request) + 1);
  MPI_Request barrier = MPI_REQUEST_NULL;
  int n = 0, sent = 0, done = 0;
  for (int k = 0; k < out_n; ++k)
    MPI_Issend(NULL, 0, MPI_BYTE, destinations[k], WB_BFS_SOURCES_TAG, comm, &sends[k]);
  while (!done) {
    int arrived = 0;
    MPI_Message message;
    MPI_Status status;
    MPI_Improbe(MPI_ANY_SOURCE, WB_BFS_SOURCES_TAG, comm, &arrived, &message, &status);
    if (arrived) {
      MPI_Mrecv(NULL, 0, MPI_BYTE, &message, MPI_STATUS_IGNORE);
      int at = n++;
      for (; at > 0 && sources[at - 1] > status.MPI_SOURCE; --at)
        sources[at] = sources[at - 1];
      sources[at] = status.MPI_SOURCE;
    }
    if (!sent) {
/* GCC 12 reads MPICH 4.0.2's access attribute on MPI_Testall against MPI_STATUSES_IGNORE as a
 * 0-byte region (-Wstringop-overflow): a false positive (as in bench/kernels/c/c_neighbors.c). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
      MPI_Testall(out_n, sends, &sent, MPI_STATUSES_IGNORE);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
      if (sent) MPI_Ibarrier(comm, &barrier);
    } else {
      MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
    }
  }
  free(sends);
  return n;
}

/* The partition of comm's ranks owning local_n vertices each (first is this rank's first). */
static void make_partition(MPI_Comm comm, uint64_t first, uint64_t local_n, uint64_t vertices,
                           partition* part) {
  int size;
  MPI_Comm_size(comm, &size);
  int* destinations = malloc((size_t)size * sizeof(int));
  int* sources = malloc((size_t)size * sizeof(int));
  part->slot_of = malloc((size_t)size * sizeof(int));
  part->out_n = 0;
  for (int r = 0; r < size; ++r)
    part->slot_of[r] = -1;
  for (uint64_t v = first; v < first + local_n; ++v)
    for (int k = 0; k < WB_BFS_DEGREE; ++k) {
      int owner = (int)(wb_bfs_neighbor(v, k, vertices) / local_n);
      if (part->slot_of[owner] < 0)
        part->slot_of[owner] = part->out_n, destinations[part->out_n++] = owner;
    }
  part->in_n = find_sources(comm, destinations, part->out_n, sources);
/* GCC 12 reads Open MPI's MPI_UNWEIGHTED (the sentinel address (int*)2) as an array to check. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif
  MPI_Dist_graph_create_adjacent(comm, part->in_n, sources, MPI_UNWEIGHTED, part->out_n,
                                 destinations, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &part->graph);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  free(destinations), free(sources);
}

/* Sends every out-neighbour the vertices found for it and empties the buckets; returns the
 * vertices sent to this rank (malloc'd, *received_n of them), or NULL when no rank found any. */
static uint64_t* exchange(const partition* part, bucket* out, size_t* received_n) {
  //> START BFS C
  int empty, all_empty;
  int* scounts = malloc((size_t)part->out_n * sizeof(int) + 1);
  int* sdispls = malloc((size_t)part->out_n * sizeof(int) + 1);
  int* rcounts = malloc((size_t)part->in_n * sizeof(int) + 1);
  int* rdispls = malloc((size_t)part->in_n * sizeof(int) + 1);
  size_t sent = 0, received = 0;
  for (int k = 0; k < part->out_n; ++k)
    sdispls[k] = (int)sent, scounts[k] = (int)out[k].n, sent += out[k].n;
  empty = sent == 0;
  MPI_Allreduce(&empty, &all_empty, 1, MPI_INT, MPI_LAND, part->graph);
  uint64_t *send = NULL, *frontier = NULL;
  if (!all_empty) {
    send = malloc(sent * sizeof(uint64_t) + 1);
    for (int k = 0; k < part->out_n; ++k)
      memcpy(send + sdispls[k], out[k].items, out[k].n * sizeof(uint64_t)), out[k].n = 0;
    MPI_Neighbor_alltoall(scounts, 1, MPI_INT, rcounts, 1, MPI_INT, part->graph);
    for (int k = 0; k < part->in_n; ++k)
      rdispls[k] = (int)received, received += (size_t)rcounts[k];
    frontier = malloc(received * sizeof(uint64_t) + 1);
    MPI_Neighbor_alltoallv(send, scounts, sdispls, MPI_UINT64_T, frontier, rcounts, rdispls,
                           MPI_UINT64_T, part->graph);
  }
  free(send), free(scounts), free(sdispls), free(rcounts), free(rdispls);
  *received_n = received;
  return frontier;
  //> END
}

/* The levels of this rank's vertices [first, first + local_n) from root (-1: unreached). */
static void bfs(const partition* part, uint64_t first, uint64_t local_n, uint64_t vertices,
                uint64_t root, int* level_of, bucket* out) {
  size_t frontier_n = 0;
  uint64_t* frontier = malloc(sizeof(uint64_t));
  for (uint64_t i = 0; i < local_n; ++i)
    level_of[i] = -1;
  if (root >= first && root < first + local_n) frontier[frontier_n++] = root;
  for (int level = 0; frontier; ++level) {
    for (size_t i = 0; i < frontier_n; ++i) {
      uint64_t v = frontier[i];
      if (level_of[v - first] >= 0) continue;
      level_of[v - first] = level;
      for (int k = 0; k < WB_BFS_DEGREE; ++k) {
        uint64_t u = wb_bfs_neighbor(v, k, vertices);
        push(&out[part->slot_of[u / local_n]], u);
      }
    }
    free(frontier);
    frontier = exchange(part, out, &frontier_n);
  }
}

typedef struct bfs_state {
  MPI_Comm comm;
  int size;
  uint64_t first, local_n, vertices;
  uint64_t calls, root; /* calls made; the last one's root (wb_bfs_root) */
  partition part;
  int* level_of;
  int* expected;
  bucket* out; /* one per out-neighbour */
} bfs_state;

/* The levels of all vertices from the last call's root by a sequential BFS, for this rank's
 * block. */
static void sequential_levels(bfs_state* s) {
  int* level = malloc(s->vertices * sizeof(int));
  uint64_t* queue = malloc(s->vertices * sizeof(uint64_t));
  size_t head = 0, tail = 0;
  for (uint64_t v = 0; v < s->vertices; ++v)
    level[v] = -1;
  level[s->root] = 0, queue[tail++] = s->root;
  while (head < tail) {
    uint64_t v = queue[head++];
    for (int k = 0; k < WB_BFS_DEGREE; ++k) {
      uint64_t u = wb_bfs_neighbor(v, k, s->vertices);
      if (level[u] < 0) level[u] = level[v] + 1, queue[tail++] = u;
    }
  }
  memcpy(s->expected, level + s->first, s->local_n * sizeof(int));
  free(level), free(queue);
}

static void* setup(MPI_Comm comm, size_t count) {
  bfs_state* s = calloc(1, sizeof *s);
  int rank = 0;
  if (!s) return NULL;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &s->size);
  s->comm = comm, s->local_n = count, s->vertices = count * (uint64_t)s->size;
  s->first = (uint64_t)rank * count;
  s->level_of = malloc(count * sizeof(int));
  s->expected = malloc(count * sizeof(int));
  make_partition(comm, s->first, count, s->vertices, &s->part);
  s->out = calloc((size_t)s->part.out_n + 1, sizeof(bucket));
  if (!s->level_of || !s->expected || !s->out) return NULL;
  return s;
}

static void call(void* p) {
  bfs_state* s = p;
  s->root = wb_bfs_root(s->vertices, s->calls++);
  bfs(&s->part, s->first, s->local_n, s->vertices, s->root, s->level_of, s->out);
}

static int verify(void* p) {
  bfs_state* s = p;
  sequential_levels(s);
  return memcmp(s->level_of, s->expected, s->local_n * sizeof(int)) != 0;
}

static void teardown(void* p) {
  bfs_state* s = p;
  for (int k = 0; k < s->part.out_n; ++k)
    free(s->out[k].items);
  MPI_Comm_free(&s->part.graph);
  free(s->part.slot_of), free(s->out), free(s->level_of), free(s->expected), free(s);
}

const wb_coll_variant wb_c_bfs = {"c",   "bfs", "program", NULL,    WB_COLL_PROGRAM,
                                  setup, call,  verify,    teardown};
