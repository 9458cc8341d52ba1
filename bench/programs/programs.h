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
#include <string.h>

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

/* Where call `call` of a sorter starts reading its n ints: each call sorts the rank's input
 * rotated left by this offset (the same multiset, another order). Every sorter counts its calls
 * from setup, and the harness calls every variant of a process as often, so call k of each
 * sorter sorts the same array. Sorting one array call after call let the branch predictor learn
 * the sort: std::sort of the same 4,096 ints ran 38 us a call, of that array rotated anew each
 * call 140 us (clang 14 -O3, this machine), and the sorter listed first (timed after another
 * program) ran 7-28 % slower than the same sorter listed third (docs/bench.md, The programs'
 * input). */
static inline size_t wb_sort_offset(size_t n, uint64_t call) {
  return n ? WB_CAST(size_t, call * 2654435761u % n) : 0;
}

/* The input of a sorter's next call into out[0..n): input rotated by wb_sort_offset(n, *calls),
 * which then counts the call. */
static inline void wb_sort_next_input(int* out, const int* input, size_t n, uint64_t* calls) {
  const size_t offset = wb_sort_offset(n, (*calls)++);
  memcpy(out, input + offset, (n - offset) * sizeof(int));
  memcpy(out + (n - offset), input, offset * sizeof(int));
}

enum { WB_BFS_DEGREE = 4 };

/* The root of a BFS's call `call` (of `vertices`): another vertex each call, the same for call k
 * of every BFS (each counts its calls from setup, as the sorters do). A search from one root
 * call after call runs the same branches each time, and the branch predictor learned them as it
 * learned a repeated sort (wb_sort_offset): the C and thinmpi searches, the same work, then ran
 * 0.53-0.64x apart depending on which was which (docs/bench.md, The programs' input). Every
 * root reaches about the whole graph (4 out-neighbours each), so a search does the same work. */
static inline uint64_t wb_bfs_root(uint64_t vertices, uint64_t call) {
  return vertices ? wb_mix(call ^ 0x5bd1e995u) % vertices : 0;
}

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

#include <vector>

/* wb_sort_next_input into a std::vector (the C++ sorters' containers), as copy-assigning the
 * input did before: the storage kept where it holds n, nothing zeroed. */
inline void wb_sort_next_input(std::vector<int>& out, const std::vector<int>& input,
                               uint64_t& calls) {
  const size_t n = input.size();
  const size_t offset = wb_sort_offset(n, calls++);
  out.clear();
  out.reserve(n);
  out.insert(out.end(), input.data() + offset, input.data() + n);
  out.insert(out.end(), input.data(), input.data() + offset);
}
#endif

#endif /* WB_PROGRAMS_H */
