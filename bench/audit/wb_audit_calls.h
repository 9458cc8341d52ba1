/* The MPI calls that wb_audit counts, as X-macro lists: X(name, parameters, arguments).
 * SEND lists also name the count and datatype arguments, so the bytes sent can be added up. */
#ifndef WB_AUDIT_CALLS_H
#define WB_AUDIT_CALLS_H

#include <mpi.h>

#define WB_SEND_CALLS(X)                                                                           \
  X(Send, (const void* b, int n, MPI_Datatype t, int d, int g, MPI_Comm c), (b, n, t, d, g, c), n, \
    t)                                                                                             \
  X(Ssend, (const void* b, int n, MPI_Datatype t, int d, int g, MPI_Comm c), (b, n, t, d, g, c),   \
    n, t)                                                                                          \
  X(Isend, (const void* b, int n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request* r),       \
    (b, n, t, d, g, c, r), n, t)                                                                   \
  X(Issend, (const void* b, int n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request* r),      \
    (b, n, t, d, g, c, r), n, t)

#define WB_CALLS(X)                                                                                \
  X(Recv, (void* b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Status* st),              \
    (b, n, t, s, g, c, st))                                                                        \
  X(Irecv, (void* b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request* r),             \
    (b, n, t, s, g, c, r))                                                                         \
  X(Sendrecv,                                                                                      \
    (const void* sb, int sn, MPI_Datatype st, int d, int sg, void* rb, int rn, MPI_Datatype rt,    \
     int s, int rg, MPI_Comm c, MPI_Status* status),                                               \
    (sb, sn, st, d, sg, rb, rn, rt, s, rg, c, status))                                             \
  X(Probe, (int s, int g, MPI_Comm c, MPI_Status* st), (s, g, c, st))                              \
  X(Iprobe, (int s, int g, MPI_Comm c, int* f, MPI_Status* st), (s, g, c, f, st))                  \
  X(Mprobe, (int s, int g, MPI_Comm c, MPI_Message* m, MPI_Status* st), (s, g, c, m, st))          \
  X(Improbe, (int s, int g, MPI_Comm c, int* f, MPI_Message* m, MPI_Status* st),                   \
    (s, g, c, f, m, st))                                                                           \
  X(Mrecv, (void* b, int n, MPI_Datatype t, MPI_Message* m, MPI_Status* st), (b, n, t, m, st))     \
  X(Imrecv, (void* b, int n, MPI_Datatype t, MPI_Message* m, MPI_Request* r), (b, n, t, m, r))     \
  X(Get_count, (const MPI_Status* st, MPI_Datatype t, int* n), (st, t, n))                         \
  X(Get_elements, (const MPI_Status* st, MPI_Datatype t, int* n), (st, t, n))                      \
  X(Get_elements_x, (const MPI_Status* st, MPI_Datatype t, MPI_Count* n), (st, t, n))              \
  X(Wait, (MPI_Request * r, MPI_Status * st), (r, st))                                             \
  X(Waitall, (int n, MPI_Request r[], MPI_Status st[]), (n, r, st))                                \
  X(Waitany, (int n, MPI_Request r[], int* i, MPI_Status* st), (n, r, i, st))                      \
  X(Waitsome, (int n, MPI_Request r[], int* o, int i[], MPI_Status st[]), (n, r, o, i, st))        \
  X(Test, (MPI_Request * r, int* f, MPI_Status* st), (r, f, st))                                   \
  X(Testall, (int n, MPI_Request r[], int* f, MPI_Status st[]), (n, r, f, st))                     \
  X(Testany, (int n, MPI_Request r[], int* i, int* f, MPI_Status* st), (n, r, i, f, st))           \
  X(Testsome, (int n, MPI_Request r[], int* o, int i[], MPI_Status st[]), (n, r, o, i, st))        \
  X(Pack, (const void* i, int n, MPI_Datatype t, void* o, int s, int* p, MPI_Comm c),              \
    (i, n, t, o, s, p, c))                                                                         \
  X(Unpack, (const void* i, int s, int* p, void* o, int n, MPI_Datatype t, MPI_Comm c),            \
    (i, s, p, o, n, t, c))                                                                         \
  X(Pack_size, (int n, MPI_Datatype t, MPI_Comm c, int* s), (n, t, c, s))                          \
  X(Alloc_mem, (MPI_Aint s, MPI_Info i, void* p), (s, i, p))                                       \
  X(Free_mem, (void* p), (p))                                                                      \
  X(Type_contiguous, (int n, MPI_Datatype t, MPI_Datatype* o), (n, t, o))                          \
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
  X(Type_size, (MPI_Datatype t, int* s), (t, s))                                                   \
  X(Type_get_extent, (MPI_Datatype t, MPI_Aint * l, MPI_Aint * e), (t, l, e))                      \
  X(Comm_rank, (MPI_Comm c, int* r), (c, r))                                                       \
  X(Comm_size, (MPI_Comm c, int* s), (c, s))                                                       \
  X(Comm_dup, (MPI_Comm c, MPI_Comm * o), (c, o))                                                  \
  X(Comm_free, (MPI_Comm * c), (c))                                                                \
  X(Barrier, (MPI_Comm c), (c))

/* Persistent point-to-point set-up: X(name, parameters, arguments, count, datatype, peer, sends).
 * wb_audit.c remembers each request's bytes, so that every MPI_Start of a send counts them. */
#define WB_PERSISTENT_INIT_CALLS(X)                                                               \
  X(Send_init, (const void* b, int n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request* r),  \
    (b, n, t, d, g, c, r), n, t, d, 1)                                                            \
  X(Ssend_init, (const void* b, int n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request* r), \
    (b, n, t, d, g, c, r), n, t, d, 1)                                                            \
  X(Recv_init, (void* b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request* r),        \
    (b, n, t, s, g, c, r), n, t, s, 0)

/* The calls on persistent requests (wb_audit.c wraps each itself): a start counts the bytes of
 * the sends it starts, a freed request is forgotten. */
#define WB_REQUEST_CALLS(X)                     \
  X(Start, (MPI_Request * r), (r))              \
  X(Startall, (int n, MPI_Request r[]), (n, r)) \
  X(Request_free, (MPI_Request * r), (r))

/* The MPI-4 large-count calls, where the MPI has them (MPICH 4.0 does, OpenMPI 4.1 does not). */
#if MPI_VERSION >= 4
#define WB_SEND_CALLS_C(X)                                                                  \
  X(Send_c, (const void* b, MPI_Count n, MPI_Datatype t, int d, int g, MPI_Comm c),         \
    (b, n, t, d, g, c), n, t)                                                               \
  X(Ssend_c, (const void* b, MPI_Count n, MPI_Datatype t, int d, int g, MPI_Comm c),        \
    (b, n, t, d, g, c), n, t)                                                               \
  X(Isend_c,                                                                                \
    (const void* b, MPI_Count n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request* r), \
    (b, n, t, d, g, c, r), n, t)
#define WB_CALLS_C(X)                                                                             \
  X(Recv_c, (void* b, MPI_Count n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Status* st),     \
    (b, n, t, s, g, c, st))                                                                       \
  X(Irecv_c, (void* b, MPI_Count n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request* r),    \
    (b, n, t, s, g, c, r))                                                                        \
  X(Mrecv_c, (void* b, MPI_Count n, MPI_Datatype t, MPI_Message* m, MPI_Status* st),              \
    (b, n, t, m, st))                                                                             \
  X(Imrecv_c, (void* b, MPI_Count n, MPI_Datatype t, MPI_Message* m, MPI_Request* r),             \
    (b, n, t, m, r))                                                                              \
  X(Get_count_c, (const MPI_Status* st, MPI_Datatype t, MPI_Count* n), (st, t, n))                \
  X(Get_elements_c, (const MPI_Status* st, MPI_Datatype t, MPI_Count* n), (st, t, n))             \
  X(Pack_c,                                                                                       \
    (const void* i, MPI_Count n, MPI_Datatype t, void* o, MPI_Count s, MPI_Count* p, MPI_Comm c), \
    (i, n, t, o, s, p, c))                                                                        \
  X(Unpack_c,                                                                                     \
    (const void* i, MPI_Count s, MPI_Count* p, void* o, MPI_Count n, MPI_Datatype t, MPI_Comm c), \
    (i, s, p, o, n, t, c))                                                                        \
  X(Pack_size_c, (MPI_Count n, MPI_Datatype t, MPI_Comm c, MPI_Count * s), (n, t, c, s))          \
  X(Type_contiguous_c, (MPI_Count n, MPI_Datatype t, MPI_Datatype * o), (n, t, o))                \
  X(Type_size_c, (MPI_Datatype t, MPI_Count * s), (t, s))
#define WB_PERSISTENT_INIT_CALLS_C(X)                                                              \
  X(Send_init_c,                                                                                   \
    (const void* b, MPI_Count n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request* r),        \
    (b, n, t, d, g, c, r), n, t, d, 1)                                                             \
  X(Ssend_init_c,                                                                                  \
    (const void* b, MPI_Count n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request* r),        \
    (b, n, t, d, g, c, r), n, t, d, 1)                                                             \
  X(Recv_init_c, (void* b, MPI_Count n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request* r), \
    (b, n, t, s, g, c, r), n, t, s, 0)
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
