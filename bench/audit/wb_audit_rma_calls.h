/* The one-sided calls that wb_audit counts (the rma suite), as X-macro lists:
 * X(name, parameters, arguments), counted like WB_CALLS of wb_audit_calls.h. With them every
 * ratio of the rma suite is explained by the calls behind it: a thinmpi operation on an epoch
 * should be exactly the C calls (MPI_Put + MPI_Win_flush, three MPI_Win_fence, ...).
 * WB_RMA_CALLS_C: the MPI-4 large-count forms, where mpi.h declares them (MPICH 4). */
#ifndef WB_AUDIT_RMA_CALLS_H
#define WB_AUDIT_RMA_CALLS_H

#include <mpi.h>

#define WB_RMA_CALLS(X)                                                                        \
  X(Put,                                                                                       \
    (const void* o, int on, MPI_Datatype ot, int r, MPI_Aint d, int tn, MPI_Datatype tt,       \
     MPI_Win w),                                                                               \
    (o, on, ot, r, d, tn, tt, w))                                                              \
  X(Get,                                                                                       \
    (void* o, int on, MPI_Datatype ot, int r, MPI_Aint d, int tn, MPI_Datatype tt, MPI_Win w), \
    (o, on, ot, r, d, tn, tt, w))                                                              \
  X(Accumulate,                                                                                \
    (const void* o, int on, MPI_Datatype ot, int r, MPI_Aint d, int tn, MPI_Datatype tt,       \
     MPI_Op op, MPI_Win w),                                                                    \
    (o, on, ot, r, d, tn, tt, op, w))                                                          \
  X(Get_accumulate,                                                                            \
    (const void* o, int on, MPI_Datatype ot, void* res, int rn, MPI_Datatype rt, int r,        \
     MPI_Aint d, int tn, MPI_Datatype tt, MPI_Op op, MPI_Win w),                               \
    (o, on, ot, res, rn, rt, r, d, tn, tt, op, w))                                             \
  X(Fetch_and_op,                                                                              \
    (const void* o, void* res, MPI_Datatype t, int r, MPI_Aint d, MPI_Op op, MPI_Win w),       \
    (o, res, t, r, d, op, w))                                                                  \
  X(Compare_and_swap,                                                                          \
    (const void* o, const void* c, void* res, MPI_Datatype t, int r, MPI_Aint d, MPI_Win w),   \
    (o, c, res, t, r, d, w))                                                                   \
  X(Rput,                                                                                      \
    (const void* o, int on, MPI_Datatype ot, int r, MPI_Aint d, int tn, MPI_Datatype tt,       \
     MPI_Win w, MPI_Request* q),                                                               \
    (o, on, ot, r, d, tn, tt, w, q))                                                           \
  X(Rget,                                                                                      \
    (void* o, int on, MPI_Datatype ot, int r, MPI_Aint d, int tn, MPI_Datatype tt, MPI_Win w,  \
     MPI_Request* q),                                                                          \
    (o, on, ot, r, d, tn, tt, w, q))                                                           \
  X(Win_lock, (int type, int r, int a, MPI_Win w), (type, r, a, w))                            \
  X(Win_unlock, (int r, MPI_Win w), (r, w))                                                    \
  X(Win_lock_all, (int a, MPI_Win w), (a, w))                                                  \
  X(Win_unlock_all, (MPI_Win w), (w))                                                          \
  X(Win_flush, (int r, MPI_Win w), (r, w))                                                     \
  X(Win_flush_local, (int r, MPI_Win w), (r, w))                                               \
  X(Win_flush_all, (MPI_Win w), (w))                                                           \
  X(Win_flush_local_all, (MPI_Win w), (w))                                                     \
  X(Win_fence, (int a, MPI_Win w), (a, w))                                                     \
  X(Win_sync, (MPI_Win w), (w))                                                                \
  X(Win_allocate, (MPI_Aint s, int u, MPI_Info i, MPI_Comm c, void* b, MPI_Win* w),            \
    (s, u, i, c, b, w))                                                                        \
  X(Win_create, (void* b, MPI_Aint s, int u, MPI_Info i, MPI_Comm c, MPI_Win* w),              \
    (b, s, u, i, c, w))                                                                        \
  X(Win_free, (MPI_Win * w), (w))

#if MPI_VERSION >= 4
#define WB_RMA_CALLS_C(X)                                                                      \
  X(Put_c,                                                                                     \
    (const void* o, MPI_Count on, MPI_Datatype ot, int r, MPI_Aint d, MPI_Count tn,            \
     MPI_Datatype tt, MPI_Win w),                                                              \
    (o, on, ot, r, d, tn, tt, w))                                                              \
  X(Get_c,                                                                                     \
    (void* o, MPI_Count on, MPI_Datatype ot, int r, MPI_Aint d, MPI_Count tn, MPI_Datatype tt, \
     MPI_Win w),                                                                               \
    (o, on, ot, r, d, tn, tt, w))                                                              \
  X(Accumulate_c,                                                                              \
    (const void* o, MPI_Count on, MPI_Datatype ot, int r, MPI_Aint d, MPI_Count tn,            \
     MPI_Datatype tt, MPI_Op op, MPI_Win w),                                                   \
    (o, on, ot, r, d, tn, tt, op, w))
#else
#define WB_RMA_CALLS_C(X)
#endif

#endif /* WB_AUDIT_RMA_CALLS_H */
