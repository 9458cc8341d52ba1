// The KaMPIng collective variants, written as KaMPIng's README and examples/usage write them:
//
//   kamping/bcast/vector              bcast(send_recv_buf<resize_to_fit>(v)): no count given, so
//                                     KaMPIng broadcasts the count first   vs c/bcast/builtin
//   kamping/allreduce/plus            allreduce(send_buf, recv_buf, op(ops::plus<>())): MPI_SUM
//                                                                          vs c/allreduce/sum
//   kamping/allreduce/lambda          op([](int a, int b) {...}, ops::commutative)
//                                                                          vs c/allreduce/user_fn
//   kamping/allgatherv/counts_exchanged  v = allgatherv(send_buf(v)): the counts by MPI_Allgather
//                                                          vs c/allgatherv/counts_exchanged
//   kamping/alltoallv/counts_exchanged   v = alltoallv(send_buf(v), send_counts(c)): the receive
//                                     counts by MPI_Alltoall   vs c/alltoallv/counts_exchanged
#include <kamping/collectives/allgather.hpp>
#include <kamping/collectives/allreduce.hpp>
#include <kamping/collectives/alltoall.hpp>
#include <kamping/collectives/bcast.hpp>
#include <kamping/mpi_ops.hpp>

#include "kamping_adapter.hpp"

namespace {

using wb_kamping::coll_state;

/// The calls of wb_cxx::publish_peer_calls' table.
struct calls {
  static constexpr const char* bcast_form = "vector";
  static constexpr bool commutative_lambda = true;

  static void bcast(coll_state& s) {
    s.comm.bcast(kamping::send_recv_buf<kamping::resize_to_fit>(s.recv));
  }
  static void allreduce_plus(coll_state& s) {
    s.comm.allreduce(kamping::send_buf(s.send), kamping::recv_buf(s.recv),
                     kamping::op(kamping::ops::plus<>()));
  }
  static void allreduce_lambda(coll_state& s) {
    s.comm.allreduce(kamping::send_buf(s.send), kamping::recv_buf(s.recv),
                     kamping::op([](int a, int b) { return a + b; }, kamping::ops::commutative));
  }
  static void allgatherv(coll_state& s) { s.recv = s.comm.allgatherv(kamping::send_buf(s.send)); }
  static void alltoallv(coll_state& s) {
    s.recv = s.comm.alltoallv(kamping::send_buf(s.send), kamping::send_counts(s.kept.send_counts));
  }
};

}  // namespace

extern "C" size_t wb_kamping_coll_variants(const wb_coll_variant** table) {
  return wb_cxx::publish_peer_calls<wb_kamping::adapter, calls>(table);
}
