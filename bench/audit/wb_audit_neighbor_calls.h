/* The calls of the neighbors suite that wb_audit counts, as X-macro lists.
 *
 * WB_PEER_CALLS(X): X(name, parameters, arguments, comm, reach): the calls that address other
 * ranks as one call; `reach` is WB_REACH_ALL (every rank of comm: the dense all-to-alls) or
 * WB_REACH_NEIGHBORS (the out-neighbours of a topology communicator). The audit adds up the
 * ranks each call addresses ("peers"), which shows how an exchange grows with the number of
 * ranks where the number of calls does not (one MPI_Alltoallv addresses every rank).
 * WB_TOPOLOGY_CALLS(X): X(name, parameters, arguments), counted like WB_CALLS. */
#ifndef WB_AUDIT_NEIGHBOR_CALLS_H
#define WB_AUDIT_NEIGHBOR_CALLS_H

#include <mpi.h>

/* The parameters and arguments of the all-to-all shapes, which the dense calls share with their
 * neighbourhood forms (and the nonblocking ones, with a request after them). The w forms take
 * the v forms' arguments, with a datatype per rank and displacements of `displacement`. */
#define WB_ALLTOALL_PARAMS \
  const void *s, int sn, MPI_Datatype st, void *b, int rn, MPI_Datatype rt, MPI_Comm c
#define WB_ALLTOALL_ARGS s, sn, st, b, rn, rt, c
#define WB_ALLTOALLV_PARAMS                                                                \
  const void *s, const int sn[], const int sd[], MPI_Datatype st, void *b, const int rn[], \
      const int rd[], MPI_Datatype rt, MPI_Comm c
#define WB_ALLTOALLW_PARAMS(displacement)                                                   \
  const void *s, const int sn[], const displacement sd[], const MPI_Datatype st[], void *b, \
      const int rn[], const displacement rd[], const MPI_Datatype rt[], MPI_Comm c
#define WB_ALLTOALLV_ARGS s, sn, sd, st, b, rn, rd, rt, c

#define WB_PEER_CALLS(X)                                                                    \
  X(Alltoall, (WB_ALLTOALL_PARAMS), (WB_ALLTOALL_ARGS), c, WB_REACH_ALL)                    \
  X(Alltoallv, (WB_ALLTOALLV_PARAMS), (WB_ALLTOALLV_ARGS), c, WB_REACH_ALL)                 \
  X(Alltoallw, (WB_ALLTOALLW_PARAMS(int)), (WB_ALLTOALLV_ARGS), c, WB_REACH_ALL)            \
  X(Neighbor_allgather, (WB_ALLTOALL_PARAMS), (WB_ALLTOALL_ARGS), c, WB_REACH_NEIGHBORS)    \
  X(Neighbor_allgatherv,                                                                    \
    (const void* s, int sn, MPI_Datatype st, void* b, const int rn[], const int d[],        \
     MPI_Datatype rt, MPI_Comm c),                                                          \
    (s, sn, st, b, rn, d, rt, c), c, WB_REACH_NEIGHBORS)                                    \
  X(Neighbor_alltoall, (WB_ALLTOALL_PARAMS), (WB_ALLTOALL_ARGS), c, WB_REACH_NEIGHBORS)     \
  X(Neighbor_alltoallv, (WB_ALLTOALLV_PARAMS), (WB_ALLTOALLV_ARGS), c, WB_REACH_NEIGHBORS)  \
  X(Neighbor_alltoallw, (WB_ALLTOALLW_PARAMS(MPI_Aint)), (WB_ALLTOALLV_ARGS), c,            \
    WB_REACH_NEIGHBORS)                                                                     \
  X(Ineighbor_alltoall, (WB_ALLTOALL_PARAMS, MPI_Request * r), (WB_ALLTOALL_ARGS, r), c,    \
    WB_REACH_NEIGHBORS)                                                                     \
  X(Ineighbor_alltoallv, (WB_ALLTOALLV_PARAMS, MPI_Request * r), (WB_ALLTOALLV_ARGS, r), c, \
    WB_REACH_NEIGHBORS)

#define WB_TOPOLOGY_CALLS(X)                                                                    \
  X(Ibarrier, (MPI_Comm c, MPI_Request * r), (c, r))                                            \
  X(Dims_create, (int n, int d, int dims[]), (n, d, dims))                                      \
  X(Cart_create, (MPI_Comm c, int n, const int d[], const int p[], int r, MPI_Comm* o),         \
    (c, n, d, p, r, o))                                                                         \
  X(Cart_shift, (MPI_Comm c, int d, int s, int* from, int* to), (c, d, s, from, to))            \
  X(Cart_coords, (MPI_Comm c, int r, int n, int co[]), (c, r, n, co))                           \
  X(Cart_rank, (MPI_Comm c, const int co[], int* r), (c, co, r))                                \
  X(Cartdim_get, (MPI_Comm c, int* n), (c, n))                                                  \
  X(Cart_get, (MPI_Comm c, int n, int d[], int p[], int co[]), (c, n, d, p, co))                \
  X(Topo_test, (MPI_Comm c, int* t), (c, t))                                                    \
  X(Dist_graph_create_adjacent,                                                                 \
    (MPI_Comm c, int in, const int s[], const int sw[], int out, const int d[], const int dw[], \
     MPI_Info i, int r, MPI_Comm* o),                                                           \
    (c, in, s, sw, out, d, dw, i, r, o))                                                        \
  X(Dist_graph_neighbors_count, (MPI_Comm c, int* in, int* out, int* w), (c, in, out, w))       \
  X(Type_vector, (int n, int b, int s, MPI_Datatype t, MPI_Datatype* o), (n, b, s, t, o))       \
  X(Type_create_subarray,                                                                       \
    (int n, const int sz[], const int sub[], const int st[], int order, MPI_Datatype t,         \
     MPI_Datatype* o),                                                                          \
    (n, sz, sub, st, order, t, o))

#endif /* WB_AUDIT_NEIGHBOR_CALLS_H */
