// The profiling side of support/pmpi_audit.hpp (MPI-4.1 chapter 15): each function below
// counts itself where an audit records on this thread, then calls the library's PMPI_ one.
// The list is what the audits of the communicator, topology, group, intercommunicator,
// dynamic-process, session, persistent and partitioned families count; a call outside it is
// not seen.

#include "support/pmpi_audit.hpp"

#include <mpi.h>

namespace thinmpi_test::detail {

call_counts*& active_audit() noexcept {
  thread_local call_counts* active = nullptr;
  return active;
}

namespace {
void count(const char* name) {
  if (call_counts* counts = active_audit()) ++(*counts)[name];
}
}  // namespace

}  // namespace thinmpi_test::detail

// NAME(PARAMETERS) counts NAME, then returns PMPI_NAME(ARGUMENTS).
#define THINMPI_AUDITED(name, parameters, arguments) \
  int name parameters {                              \
    thinmpi_test::detail::count(#name);              \
    return P##name arguments;                        \
  }

extern "C" {
// Communicators and groups.
THINMPI_AUDITED(MPI_Comm_rank, (MPI_Comm c, int* r), (c, r))
THINMPI_AUDITED(MPI_Comm_size, (MPI_Comm c, int* n), (c, n))
THINMPI_AUDITED(MPI_Comm_remote_size, (MPI_Comm c, int* n), (c, n))
THINMPI_AUDITED(MPI_Comm_test_inter, (MPI_Comm c, int* flag), (c, flag))
THINMPI_AUDITED(MPI_Comm_dup, (MPI_Comm c, MPI_Comm* out), (c, out))
THINMPI_AUDITED(MPI_Comm_idup, (MPI_Comm c, MPI_Comm* out, MPI_Request* q), (c, out, q))
THINMPI_AUDITED(MPI_Comm_split, (MPI_Comm c, int color, int key, MPI_Comm* out),
                (c, color, key, out))
THINMPI_AUDITED(MPI_Comm_split_type, (MPI_Comm c, int kind, int key, MPI_Info hints, MPI_Comm* out),
                (c, kind, key, hints, out))
THINMPI_AUDITED(MPI_Comm_free, (MPI_Comm * c), (c))
THINMPI_AUDITED(MPI_Comm_group, (MPI_Comm c, MPI_Group* g), (c, g))
THINMPI_AUDITED(MPI_Comm_remote_group, (MPI_Comm c, MPI_Group* g), (c, g))
THINMPI_AUDITED(MPI_Comm_create, (MPI_Comm c, MPI_Group g, MPI_Comm* out), (c, g, out))
THINMPI_AUDITED(MPI_Comm_create_group, (MPI_Comm c, MPI_Group g, int tag, MPI_Comm* out),
                (c, g, tag, out))
THINMPI_AUDITED(MPI_Comm_set_errhandler, (MPI_Comm c, MPI_Errhandler handler), (c, handler))
THINMPI_AUDITED(MPI_Comm_set_name, (MPI_Comm c, const char* name), (c, name))
THINMPI_AUDITED(MPI_Comm_get_name, (MPI_Comm c, char* name, int* length), (c, name, length))
THINMPI_AUDITED(MPI_Intercomm_create,
                (MPI_Comm local, int local_leader, MPI_Comm bridge, int remote_leader, int tag,
                 MPI_Comm* out),
                (local, local_leader, bridge, remote_leader, tag, out))
THINMPI_AUDITED(MPI_Intercomm_merge, (MPI_Comm c, int high, MPI_Comm* out), (c, high, out))
// Topologies.
THINMPI_AUDITED(MPI_Cart_create,
                (MPI_Comm c, int ndims, const int dims[], const int periods[], int reorder,
                 MPI_Comm* out),
                (c, ndims, dims, periods, reorder, out))
THINMPI_AUDITED(MPI_Cart_get, (MPI_Comm c, int ndims, int dims[], int periods[], int coords[]),
                (c, ndims, dims, periods, coords))
THINMPI_AUDITED(MPI_Dist_graph_create_adjacent,
                (MPI_Comm c, int indegree, const int sources[], const int source_weights[],
                 int outdegree, const int destinations[], const int destination_weights[],
                 MPI_Info hints, int reorder, MPI_Comm* out),
                (c, indegree, sources, source_weights, outdegree, destinations, destination_weights,
                 hints, reorder, out))
THINMPI_AUDITED(MPI_Dist_graph_neighbors_count,
                (MPI_Comm c, int* indegree, int* outdegree, int* weighted),
                (c, indegree, outdegree, weighted))
THINMPI_AUDITED(MPI_Topo_test, (MPI_Comm c, int* kind), (c, kind))
THINMPI_AUDITED(MPI_Group_size, (MPI_Group g, int* n), (g, n))
THINMPI_AUDITED(MPI_Group_rank, (MPI_Group g, int* r), (g, r))
THINMPI_AUDITED(MPI_Group_free, (MPI_Group * g), (g))
THINMPI_AUDITED(MPI_Group_incl, (MPI_Group g, int n, const int ranks[], MPI_Group* out),
                (g, n, ranks, out))
THINMPI_AUDITED(MPI_Group_excl, (MPI_Group g, int n, const int ranks[], MPI_Group* out),
                (g, n, ranks, out))
THINMPI_AUDITED(MPI_Group_union, (MPI_Group a, MPI_Group b, MPI_Group* out), (a, b, out))
THINMPI_AUDITED(MPI_Group_intersection, (MPI_Group a, MPI_Group b, MPI_Group* out), (a, b, out))
THINMPI_AUDITED(MPI_Group_difference, (MPI_Group a, MPI_Group b, MPI_Group* out), (a, b, out))
THINMPI_AUDITED(MPI_Group_translate_ranks,
                (MPI_Group a, int n, const int ranks[], MPI_Group b, int out[]),
                (a, n, ranks, b, out))
THINMPI_AUDITED(MPI_Group_compare, (MPI_Group a, MPI_Group b, int* result), (a, b, result))
// Collectives (those an intercommunicator has).
THINMPI_AUDITED(MPI_Barrier, (MPI_Comm c), (c))
THINMPI_AUDITED(MPI_Bcast, (void* b, int n, MPI_Datatype t, int root, MPI_Comm c),
                (b, n, t, root, c))
THINMPI_AUDITED(MPI_Gather,
                (const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root,
                 MPI_Comm c),
                (s, sn, st, r, rn, rt, root, c))
THINMPI_AUDITED(MPI_Scatter,
                (const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root,
                 MPI_Comm c),
                (s, sn, st, r, rn, rt, root, c))
THINMPI_AUDITED(MPI_Reduce,
                (const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c),
                (s, r, n, t, op, root, c))
THINMPI_AUDITED(MPI_Allgather,
                (const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                 MPI_Comm c),
                (s, sn, st, r, rn, rt, c))
THINMPI_AUDITED(MPI_Alltoall,
                (const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                 MPI_Comm c),
                (s, sn, st, r, rn, rt, c))
THINMPI_AUDITED(MPI_Gatherv,
                (const void* s, int sn, MPI_Datatype st, void* r, const int rn[], const int rd[],
                 MPI_Datatype rt, int root, MPI_Comm c),
                (s, sn, st, r, rn, rd, rt, root, c))
THINMPI_AUDITED(MPI_Allgatherv,
                (const void* s, int sn, MPI_Datatype st, void* r, const int rn[], const int rd[],
                 MPI_Datatype rt, MPI_Comm c),
                (s, sn, st, r, rn, rd, rt, c))
THINMPI_AUDITED(MPI_Allreduce,
                (const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c),
                (s, r, n, t, op, c))
// Point-to-point and requests.
THINMPI_AUDITED(MPI_Send, (const void* b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c),
                (b, n, t, dest, tag, c))
THINMPI_AUDITED(MPI_Recv,
                (void* b, int n, MPI_Datatype t, int source, int tag, MPI_Comm c, MPI_Status* st),
                (b, n, t, source, tag, c, st))
THINMPI_AUDITED(MPI_Probe, (int source, int tag, MPI_Comm c, MPI_Status* st), (source, tag, c, st))
THINMPI_AUDITED(MPI_Send_init,
                (const void* b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c,
                 MPI_Request* q),
                (b, n, t, dest, tag, c, q))
THINMPI_AUDITED(MPI_Ssend_init,
                (const void* b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c,
                 MPI_Request* q),
                (b, n, t, dest, tag, c, q))
THINMPI_AUDITED(MPI_Bsend_init,
                (const void* b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c,
                 MPI_Request* q),
                (b, n, t, dest, tag, c, q))
THINMPI_AUDITED(MPI_Recv_init,
                (void* b, int n, MPI_Datatype t, int source, int tag, MPI_Comm c, MPI_Request* q),
                (b, n, t, source, tag, c, q))
THINMPI_AUDITED(MPI_Start, (MPI_Request * q), (q))
THINMPI_AUDITED(MPI_Wait, (MPI_Request * q, MPI_Status* st), (q, st))
THINMPI_AUDITED(MPI_Test, (MPI_Request * q, int* flag, MPI_Status* st), (q, flag, st))
THINMPI_AUDITED(MPI_Waitall, (int n, MPI_Request q[], MPI_Status st[]), (n, q, st))
THINMPI_AUDITED(MPI_Request_free, (MPI_Request * q), (q))
// Dynamic processes.
THINMPI_AUDITED(MPI_Comm_spawn,
                (const char* command, char* argv[], int n, MPI_Info hints, int root, MPI_Comm c,
                 MPI_Comm* out, int errors[]),
                (command, argv, n, hints, root, c, out, errors))
THINMPI_AUDITED(MPI_Comm_get_parent, (MPI_Comm * out), (out))
#if MPI_VERSION >= 4
// Partitioned point-to-point and sessions (MPI-4).
THINMPI_AUDITED(MPI_Psend_init,
                (const void* b, int partitions, MPI_Count n, MPI_Datatype t, int dest, int tag,
                 MPI_Comm c, MPI_Info hints, MPI_Request* q),
                (b, partitions, n, t, dest, tag, c, hints, q))
THINMPI_AUDITED(MPI_Precv_init,
                (void* b, int partitions, MPI_Count n, MPI_Datatype t, int source, int tag,
                 MPI_Comm c, MPI_Info hints, MPI_Request* q),
                (b, partitions, n, t, source, tag, c, hints, q))
THINMPI_AUDITED(MPI_Pready, (int partition, MPI_Request q), (partition, q))
THINMPI_AUDITED(MPI_Parrived, (MPI_Request q, int partition, int* flag), (q, partition, flag))
THINMPI_AUDITED(MPI_Session_init, (MPI_Info hints, MPI_Errhandler e, MPI_Session* s), (hints, e, s))
THINMPI_AUDITED(MPI_Session_finalize, (MPI_Session * s), (s))
THINMPI_AUDITED(MPI_Session_get_num_psets, (MPI_Session s, MPI_Info hints, int* n), (s, hints, n))
THINMPI_AUDITED(MPI_Group_from_session_pset, (MPI_Session s, const char* pset, MPI_Group* g),
                (s, pset, g))
THINMPI_AUDITED(MPI_Comm_create_from_group,
                (MPI_Group g, const char* tag, MPI_Info hints, MPI_Errhandler e, MPI_Comm* out),
                (g, tag, hints, e, out))
#endif
}
