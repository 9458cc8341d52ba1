/* The MPI calls that wb_audit counts, as X-macro lists: X(name, parameters, arguments).
 * SEND lists also name the count and datatype arguments, so the bytes sent can be added up. */
#ifndef WB_AUDIT_CALLS_H
#define WB_AUDIT_CALLS_H

#include <mpi.h>

/* The send calls with counts of `count_type`, as X(<call><suffix>, ...): once with int, once as
 * the MPI-4 _c forms with MPI_Count (WB_SEND_CALLS_C). */
#define WB_SEND_CALLS_OF(X, suffix, count_type)                                              \
  X(Send##suffix, (const void* b, count_type n, MPI_Datatype t, int d, int g, MPI_Comm c),   \
    (b, n, t, d, g, c), n, t)                                                                \
  X(Ssend##suffix, (const void* b, count_type n, MPI_Datatype t, int d, int g, MPI_Comm c),  \
    (b, n, t, d, g, c), n, t)                                                                \
  X(Isend##suffix,                                                                           \
    (const void* b, count_type n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request* r), \
    (b, n, t, d, g, c, r), n, t)

#define WB_SEND_CALLS(X)                                                                      \
  WB_SEND_CALLS_OF(X, , int)                                                                  \
  X(Issend, (const void* b, int n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request* r), \
    (b, n, t, d, g, c, r), n, t)

/* The calls with counts of `count_type`, as X(<call><suffix>, ...): once with int (in WB_CALLS),
 * once as the MPI-4 _c forms with MPI_Count (WB_CALLS_C). */
#define WB_COUNT_CALLS_OF(X, suffix, count_type)                                                 \
  X(Recv##suffix,                                                                                \
    (void* b, count_type n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Status* st),           \
    (b, n, t, s, g, c, st))                                                                      \
  X(Irecv##suffix,                                                                               \
    (void* b, count_type n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request* r),           \
    (b, n, t, s, g, c, r))                                                                       \
  X(Mrecv##suffix, (void* b, count_type n, MPI_Datatype t, MPI_Message* m, MPI_Status* st),      \
    (b, n, t, m, st))                                                                            \
  X(Imrecv##suffix, (void* b, count_type n, MPI_Datatype t, MPI_Message* m, MPI_Request* r),     \
    (b, n, t, m, r))                                                                             \
  X(Get_count##suffix, (const MPI_Status* st, MPI_Datatype t, count_type* n), (st, t, n))        \
  X(Get_elements##suffix, (const MPI_Status* st, MPI_Datatype t, count_type* n), (st, t, n))     \
  X(Pack##suffix,                                                                                \
    (const void* i, count_type n, MPI_Datatype t, void* o, count_type s, count_type* p,          \
     MPI_Comm c),                                                                                \
    (i, n, t, o, s, p, c))                                                                       \
  X(Unpack##suffix,                                                                              \
    (const void* i, count_type s, count_type* p, void* o, count_type n, MPI_Datatype t,          \
     MPI_Comm c),                                                                                \
    (i, s, p, o, n, t, c))                                                                       \
  X(Pack_size##suffix, (count_type n, MPI_Datatype t, MPI_Comm c, count_type * s), (n, t, c, s)) \
  X(Type_contiguous##suffix, (count_type n, MPI_Datatype t, MPI_Datatype * o), (n, t, o))        \
  X(Type_size##suffix, (MPI_Datatype t, count_type * s), (t, s))

#define WB_CALLS(X)                                                                                \
  WB_COUNT_CALLS_OF(X, , int)                                                                      \
  X(Sendrecv,                                                                                      \
    (const void* sb, int sn, MPI_Datatype st, int d, int sg, void* rb, int rn, MPI_Datatype rt,    \
     int s, int rg, MPI_Comm c, MPI_Status* status),                                               \
    (sb, sn, st, d, sg, rb, rn, rt, s, rg, c, status))                                             \
  X(Probe, (int s, int g, MPI_Comm c, MPI_Status* st), (s, g, c, st))                              \
  X(Iprobe, (int s, int g, MPI_Comm c, int* f, MPI_Status* st), (s, g, c, f, st))                  \
  X(Mprobe, (int s, int g, MPI_Comm c, MPI_Message* m, MPI_Status* st), (s, g, c, m, st))          \
  X(Improbe, (int s, int g, MPI_Comm c, int* f, MPI_Message* m, MPI_Status* st),                   \
    (s, g, c, f, m, st))                                                                           \
  X(Get_elements_x, (const MPI_Status* st, MPI_Datatype t, MPI_Count* n), (st, t, n))              \
  X(Wait, (MPI_Request * r, MPI_Status * st), (r, st))                                             \
  X(Waitall, (int n, MPI_Request r[], MPI_Status st[]), (n, r, st))                                \
  X(Waitany, (int n, MPI_Request r[], int* i, MPI_Status* st), (n, r, i, st))                      \
  X(Waitsome, (int n, MPI_Request r[], int* o, int i[], MPI_Status st[]), (n, r, o, i, st))        \
  X(Test, (MPI_Request * r, int* f, MPI_Status* st), (r, f, st))                                   \
  X(Testall, (int n, MPI_Request r[], int* f, MPI_Status st[]), (n, r, f, st))                     \
  X(Testany, (int n, MPI_Request r[], int* i, int* f, MPI_Status* st), (n, r, i, f, st))           \
  X(Testsome, (int n, MPI_Request r[], int* o, int i[], MPI_Status st[]), (n, r, o, i, st))        \
  X(Alloc_mem, (MPI_Aint s, MPI_Info i, void* p), (s, i, p))                                       \
  X(Free_mem, (void* p), (p))                                                                      \
  X(Type_create_struct,                                                                            \
    (int n, const int l[], const MPI_Aint d[], const MPI_Datatype t[], MPI_Datatype* o),           \
    (n, l, d, t, o))                                                                               \
  X(Type_indexed, (int n, const int l[], const int d[], MPI_Datatype t, MPI_Datatype* o),          \
    (n, l, d, t, o))                                                                               \
  X(Type_create_hindexed,                                                                          \
    (int n, const int l[], const MPI_Aint d[], MPI_Datatype t, MPI_Datatype* o), (n, l, d, t, o))  \
  X(Type_create_resized, (MPI_Datatype t, MPI_Aint l, MPI_Aint e, MPI_Datatype * o), (t, l, e, o)) \
  X(Type_commit, (MPI_Datatype * t), (t))                                                          \
  X(Type_free, (MPI_Datatype * t), (t))                                                            \
  X(Type_get_extent, (MPI_Datatype t, MPI_Aint * l, MPI_Aint * e), (t, l, e))                      \
  X(Comm_rank, (MPI_Comm c, int* r), (c, r))                                                       \
  X(Comm_size, (MPI_Comm c, int* s), (c, s))                                                       \
  X(Comm_dup, (MPI_Comm c, MPI_Comm * o), (c, o))                                                  \
  X(Comm_free, (MPI_Comm * c), (c))                                                                \
  X(Comm_set_errhandler, (MPI_Comm c, MPI_Errhandler e), (c, e))                                   \
  X(Finalized, (int* f), (f))                                                                      \
  X(Barrier, (MPI_Comm c), (c))

/* Persistent point-to-point set-up: X(name, parameters, arguments, count, datatype, peer, sends).
 * wb_audit.c remembers each request's bytes, so that every MPI_Start of a send counts them. */
#define WB_PERSISTENT_INIT_CALLS_OF(X, suffix, count_type)                                   \
  X(Send_init##suffix,                                                                       \
    (const void* b, count_type n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request* r), \
    (b, n, t, d, g, c, r), n, t, d, 1)                                                       \
  X(Ssend_init##suffix,                                                                      \
    (const void* b, count_type n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request* r), \
    (b, n, t, d, g, c, r), n, t, d, 1)                                                       \
  X(Recv_init##suffix,                                                                       \
    (void* b, count_type n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request* r),       \
    (b, n, t, s, g, c, r), n, t, s, 0)
#define WB_PERSISTENT_INIT_CALLS(X) WB_PERSISTENT_INIT_CALLS_OF(X, , int)

/* The calls on persistent requests (wb_audit.c wraps each itself): a start counts the bytes of
 * the sends it starts, a freed request is forgotten. */
#define WB_REQUEST_CALLS(X)                     \
  X(Start, (MPI_Request * r), (r))              \
  X(Startall, (int n, MPI_Request r[]), (n, r)) \
  X(Request_free, (MPI_Request * r), (r))

/* The MPI-4 large-count calls, where the MPI has them (MPICH 4.0 does, OpenMPI 4.1 does not). */
#if MPI_VERSION >= 4
#define WB_SEND_CALLS_C(X) WB_SEND_CALLS_OF(X, _c, MPI_Count)
#define WB_CALLS_C(X) WB_COUNT_CALLS_OF(X, _c, MPI_Count)
#define WB_PERSISTENT_INIT_CALLS_C(X) WB_PERSISTENT_INIT_CALLS_OF(X, _c, MPI_Count)
/* MPI-4 partitioned point-to-point: its set-up as WB_PERSISTENT_INIT_CALLS (a send's bytes are
 * all its partitions', counted at each MPI_Start of it), and the calls on partitions. Not
 * MPI_Pready_list: the constness of its array differs between MPICH releases, and no kernel
 * calls it. */
#define WB_PARTITIONED_ELEMENTS(partitions, count) ((MPI_Count)(partitions) * (count))
#define WB_PARTITIONED_INIT_CALLS(X)                                                          \
  X(Psend_init,                                                                               \
    (const void* b, int p, MPI_Count n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Info i, \
     MPI_Request* r),                                                                         \
    (b, p, n, t, d, g, c, i, r), WB_PARTITIONED_ELEMENTS(p, n), t, d, 1)                      \
  X(Precv_init,                                                                               \
    (void* b, int p, MPI_Count n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Info i,       \
     MPI_Request* r),                                                                         \
    (b, p, n, t, s, g, c, i, r), WB_PARTITIONED_ELEMENTS(p, n), t, s, 0)
#define WB_PARTITION_CALLS(X)                               \
  X(Pready, (int p, MPI_Request r), (p, r))                 \
  X(Pready_range, (int l, int h, MPI_Request r), (l, h, r)) \
  X(Parrived, (MPI_Request r, int p, int* f), (r, p, f))
#else
#define WB_SEND_CALLS_C(X)
#define WB_CALLS_C(X)
#define WB_PERSISTENT_INIT_CALLS_C(X)
#define WB_PARTITIONED_INIT_CALLS(X)
#define WB_PARTITION_CALLS(X)
#endif

#endif /* WB_AUDIT_CALLS_H */
