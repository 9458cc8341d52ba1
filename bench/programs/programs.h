/* The KaMPIng paper's programs in plain C MPI (sample sort, BFS) and the 2D halo exchange (a
 * Jacobi heat equation), the baselines of the thinmpi examples (examples/sample_sort.hpp,
 * examples/bfs.hpp, examples/halo_2d.hpp) in the collectives and neighbors harnesses.
 *
 * Their input is generated the same way as the examples' (the same formulas), and the local work
 * that is not communication is the same: the local sort is std::sort in both (wb_sort_ints, a
 * C++ helper called from C), so that the programs' ratio measures the MPI part. */
#ifndef WB_PROGRAMS_H
#define WB_PROGRAMS_H

#include <stddef.h>
#include <stdint.h>

#include "coll_variant.h"

/* The inline helpers below are compiled as C, whose -Wconversion wants their narrowing casts
 * spelled out, and as C++ by the thinmpi kernels, which build with -Wold-style-cast (clang 14
 * rejected C's casts there under -Werror): each language gets its own cast. */
#ifdef __cplusplus
#define WB_CAST(type, value) static_cast<type>(value)
#else
#define WB_CAST(type, value) ((type)(value))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Sorts values[0..n) ascending with std::sort. */
void wb_sort_ints(int* values, size_t n);

/* Every rank's n ints concatenated in rank order (malloc'd; *n_global of them): MPI_Allgather
 * of the counts, then MPI_Allgatherv (bench/programs/allgatherv.c). */
int* wb_whole_vector(MPI_Comm comm, const int* v_local, int n, int* n_global);

/* The collectives-harness variants: c/sample_sort/program and c/bfs/program; `count` is the ints
 * to sort per rank, or the vertices per rank. */
extern const wb_coll_variant wb_c_sample_sort;
extern const wb_coll_variant wb_c_bfs;
/* The neighbors-harness program c/halo_2d/program (bench/programs/halo_2d.c); `count` is the side
 * of each rank's square block of the plate. */
extern const wb_coll_variant wb_c_halo_2d;

/* splitmix64: the hash behind both programs' generated input. */
static inline uint64_t wb_mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15u;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
  return x ^ (x >> 31);
}

/* Element i of the ints that `rank` sorts (n per rank). */
static inline int wb_sort_input(int rank, size_t n, size_t i) {
  return WB_CAST(int, wb_mix(WB_CAST(uint64_t, rank) * n + i) % 1000000007u);
}

enum { WB_BFS_DEGREE = 4 };

/* The k-th out-neighbour of vertex v in the generated graph of `vertices` vertices. */
static inline uint64_t wb_bfs_neighbor(uint64_t v, int k, uint64_t vertices) {
  return wb_mix(v * WB_BFS_DEGREE + WB_CAST(uint64_t, k)) % vertices;
}

/* The halo program's sweeps per call, and the total change below which it stops earlier (never
 * reached in that many sweeps: the check compares with exactly WB_HALO_STEPS sequential ones). */
enum { WB_HALO_STEPS = 20 };
#define WB_HALO_TOLERANCE 1e-9

/* The plate's temperature at (row, col) before the first sweep; rows -1 and plate_rows and
 * columns -1 and plate_cols are its fixed edges: 1 along the top, 0 elsewhere
 * (examples/halo_2d.hpp has the same). */
static inline double wb_halo_initial(int row, int col, int plate_rows, int plate_cols) {
  if (row < 0) return 1.0;
  if (row >= plate_rows || col < 0 || col >= plate_cols) return 0.0;
  return WB_CAST(double, (row * 7 + col * 13) % 17) / 16.0;
}

#ifdef __cplusplus
}
#endif

#endif /* WB_PROGRAMS_H */
