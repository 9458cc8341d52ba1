/* The collective calls that wb_audit counts (the collectives suite), as an X-macro list:
 * X(name, parameters, arguments), the same shape as WB_CALLS of wb_audit_calls.h. MPI_Alltoall
 * and MPI_Alltoallv are counted with the calls that address other ranks
 * (wb_audit_neighbor_calls.h), which also add up the ranks they reach. */
#ifndef WB_AUDIT_COLL_CALLS_H
#define WB_AUDIT_COLL_CALLS_H

#include <mpi.h>

#define WB_COLL_CALLS(X)                                                                           \
  X(Bcast, (void* b, int n, MPI_Datatype t, int r, MPI_Comm c), (b, n, t, r, c))                   \
  X(Reduce, (const void* s, void* b, int n, MPI_Datatype t, MPI_Op o, int r, MPI_Comm c),          \
    (s, b, n, t, o, r, c))                                                                         \
  X(Allreduce, (const void* s, void* b, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c),              \
    (s, b, n, t, o, c))                                                                            \
  X(Gather,                                                                                        \
    (const void* s, int sn, MPI_Datatype st, void* b, int rn, MPI_Datatype rt, int r, MPI_Comm c), \
    (s, sn, st, b, rn, rt, r, c))                                                                  \
  X(Allgather,                                                                                     \
    (const void* s, int sn, MPI_Datatype st, void* b, int rn, MPI_Datatype rt, MPI_Comm c),        \
    (s, sn, st, b, rn, rt, c))                                                                     \
  X(Allgatherv,                                                                                    \
    (const void* s, int sn, MPI_Datatype st, void* b, const int rn[], const int d[],               \
     MPI_Datatype rt, MPI_Comm c),                                                                 \
    (s, sn, st, b, rn, d, rt, c))                                                                  \
  X(Reduce_scatter_block, (const void* s, void* b, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c),   \
    (s, b, n, t, o, c))                                                                            \
  X(Scan, (const void* s, void* b, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c),                   \
    (s, b, n, t, o, c))                                                                            \
  X(Exscan, (const void* s, void* b, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c),                 \
    (s, b, n, t, o, c))                                                                            \
  X(Op_create, (MPI_User_function * f, int commute, MPI_Op* o), (f, commute, o))                   \
  X(Op_free, (MPI_Op * o), (o))

#endif /* WB_AUDIT_COLL_CALLS_H */
