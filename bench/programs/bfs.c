/* Breadth-first search in plain C MPI (the KaMPIng paper's third program) on a generated graph
 * whose vertices are spread over the ranks in equal blocks: each level's frontier goes to the
 * owners of its vertices with MPI_Alltoall of the counts and MPI_Alltoallv, and the search ends
 * when no rank has anything to send (MPI_Allreduce). The baseline of thinmpi/bfs/program. */
#include <stdlib.h>
#include <string.h>

#include "programs.h"

/* The vertices found for one destination rank. */
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

/* Sends every rank the vertices found for it and empties the buckets; returns the vertices sent
 * to this rank (malloc'd, *received_n of them), or NULL when no rank found any. */
static uint64_t* exchange(MPI_Comm comm, bucket* out, size_t* received_n) {
  //> START BFS C
  int size, empty, all_empty;
  MPI_Comm_size(comm, &size);
  int* scounts = malloc((size_t)size * sizeof(int));
  int* sdispls = malloc((size_t)size * sizeof(int));
  int* rcounts = malloc((size_t)size * sizeof(int));
  int* rdispls = malloc((size_t)size * sizeof(int));
  size_t sent = 0, received = 0;
  for (int r = 0; r < size; ++r)
    sdispls[r] = (int)sent, scounts[r] = (int)out[r].n, sent += out[r].n;
  empty = sent == 0;
  MPI_Allreduce(&empty, &all_empty, 1, MPI_INT, MPI_LAND, comm);
  uint64_t *send = NULL, *frontier = NULL;
  if (!all_empty) {
    send = malloc(sent * sizeof(uint64_t) + 1);
    for (int r = 0; r < size; ++r)
      memcpy(send + sdispls[r], out[r].items, out[r].n * sizeof(uint64_t)), out[r].n = 0;
    MPI_Alltoall(scounts, 1, MPI_INT, rcounts, 1, MPI_INT, comm);
    for (int r = 0; r < size; ++r)
      rdispls[r] = (int)received, received += (size_t)rcounts[r];
    frontier = malloc(received * sizeof(uint64_t) + 1);
    MPI_Alltoallv(send, scounts, sdispls, MPI_UINT64_T, frontier, rcounts, rdispls, MPI_UINT64_T,
                  comm);
  }
  free(send), free(scounts), free(sdispls), free(rcounts), free(rdispls);
  *received_n = received;
  return frontier;
  //> END
}

/* The levels of this rank's vertices [first, first + local_n) from root (-1: unreached). */
static void bfs(MPI_Comm comm, uint64_t first, uint64_t local_n, uint64_t vertices, uint64_t root,
                int* level_of, bucket* out) {
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
        push(&out[u / local_n], u);
      }
    }
    free(frontier);
    frontier = exchange(comm, out, &frontier_n);
  }
}

typedef struct bfs_state {
  MPI_Comm comm;
  int size;
  uint64_t first, local_n, vertices;
  int* level_of;
  int* expected;
  bucket* out;
} bfs_state;

/* The levels of all vertices by a sequential BFS, for this rank's block. */
static void sequential_levels(bfs_state* s) {
  int* level = malloc(s->vertices * sizeof(int));
  uint64_t* queue = malloc(s->vertices * sizeof(uint64_t));
  size_t head = 0, tail = 0;
  for (uint64_t v = 0; v < s->vertices; ++v)
    level[v] = -1;
  level[0] = 0, queue[tail++] = 0;
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
  s->out = calloc((size_t)s->size, sizeof(bucket));
  if (!s->level_of || !s->expected || !s->out) return NULL;
  sequential_levels(s);
  return s;
}

static void call(void* p) {
  bfs_state* s = p;
  bfs(s->comm, s->first, s->local_n, s->vertices, 0, s->level_of, s->out);
}

static int verify(void* p) {
  bfs_state* s = p;
  return memcmp(s->level_of, s->expected, s->local_n * sizeof(int)) != 0;
}

static void teardown(void* p) {
  bfs_state* s = p;
  for (int r = 0; r < s->size; ++r)
    free(s->out[r].items);
  free(s->out), free(s->level_of), free(s->expected), free(s);
}

const wb_coll_variant wb_c_bfs = {"c",   "bfs", "program", NULL,    WB_COLL_PROGRAM,
                                  setup, call,  verify,    teardown};
