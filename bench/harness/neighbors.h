/* What every kernel of the neighbors suite sends and how it checks what it got (C, thinmpi,
 * mpi4py: bench/kernels/mpi4py/mpi4py_neighbors.py has the same formulas).
 *
 * Topologies: the ring is a distributed graph (MPI_Dist_graph_create_adjacent) whose in- and
 * out-neighbours are {left, right}; the torus is a periodic 2D Cartesian grid of MPI_Dims_create's
 * dims, whose neighbours are, per dimension, the -1 then the +1 neighbour (MPI_Cart_shift). Slot
 * k of a neighborhood call goes to and comes from neighbour k.
 *
 * Block k that a rank sends holds wb_coll_value(rank, (k / 2) * count + i): the value names the
 * sender and the dimension. A received block must come from its slot's neighbour, along its
 * slot's dimension, or along another dimension whose neighbour is the same rank: where a rank is
 * its own or its only neighbour in several slots (a torus dimension of size 1 or 2), which of
 * its blocks lands in which slot is the MPI's reading of the standard, not the wrapper's (on a
 * 1-rank torus, all four slots its own, Open MPI 4.1.4 gives slots {1, 0, 3, 2} of the send
 * blocks, as the standard says, and MPICH 4.0.2 gives {3, 2, 1, 0}).
 *
 * Sparse exchange: rank r sends `count` ints to (r + 1) % p and (r + 2) % p (once when they are
 * the same rank): wb_coll_value(r, d * count + i) to destination d. */
#ifndef WB_NEIGHBORS_H
#define WB_NEIGHBORS_H

#include <mpi.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The sparse exchange alternates WB_SPARSE_TAG and WB_SPARSE_TAG + 1 from call to call. */
enum { WB_SPARSE_TAG = 4242, WB_MAX_NEIGHBORS = 4 };

/* The ring's neighbours of `rank`: {left, right}. */
void wb_ring_neighbors(int rank, int size, int neighbors[2]);

/* The torus's dims (MPI_Dims_create of size in 2 dimensions). */
void wb_torus_dims(int size, int dims[2]);

/* Fills the send blocks of `degree` neighbours, `count` ints each. */
void wb_neighbor_fill(int rank, int degree, size_t count, int* send);

/* 0 when the `degree` blocks of `count` ints in `received` came from `neighbors` (slot order),
 * each along its slot's dimension or another dimension of the same neighbour (see above). */
int wb_neighbor_check(const int* neighbors, int degree, size_t count, const int* received);

/* The sparse exchange's destinations of `rank` (1 or 2 of them); returns how many. */
int wb_sparse_destinations(int rank, int size, int destinations[2]);

/* Room for `ints` ints starting on a page boundary (free() it): the sparse exchange's send and
 * receive buffers, in C and in thinmpi, so that both kernels copy 64 KiB between the same page
 * offsets. Where malloc placed them was luck: C's receive buffer came from mmap (page + 16
 * bytes), thinmpi's vector from the heap at another offset, and that alone made thinmpi's NBX
 * 5 % (0.5 us) slower than C's at 64 KiB on 2 ranks (the MPI calls and arguments the same). */
int* wb_sparse_buffer(size_t ints);

/* 0 when `received` holds what the sparse exchange sends to `rank`: from every source s that
 * has rank among its destinations, in increasing s, `count` ints each (`sources` lists them). */
int wb_sparse_check(int rank, int size, size_t count, const int* sources, int source_count,
                    const int* received);

#ifdef __cplusplus
}
#endif

#endif /* WB_NEIGHBORS_H */
