// The Boost.MPI collective variants, written the way a Boost.MPI user writes them for a
// std::vector<int> (pointer + count overloads, which map to one MPI call for MPI datatypes):
//
//   boost/bcast/broadcast            broadcast(comm, data, n, 0)          vs c/bcast/builtin
//   boost/allreduce/plus             all_reduce(..., std::plus<int>())    vs c/allreduce/sum
//   boost/allreduce/lambda           all_reduce(..., [](int a, int b) {}) vs .../user_fn_noncommute
//                                    (Boost.MPI declares an op commutative only through a trait)
//   boost/allgather/all_gather       all_gather(comm, in, n, out)         vs c/allgather/builtin
//   boost/alltoall/all_to_all        all_to_all(comm, in, n, out)         vs c/alltoall/builtin
//   boost/scan/plus                  scan(..., std::plus<int>())          vs c/scan/sum
//
// Boost.MPI 1.74 has no allgatherv, alltoallv or reduce_scatter_block.
#include <boost/mpi/collectives.hpp>
#include <functional>

#include "boost_adapter.hpp"

namespace {

using wb_boost::coll;
using wb_boost::coll_state;

int count_of(const coll_state& s) {
  return static_cast<int>(s.count);
}

void broadcast(coll_state& s) {
  boost::mpi::broadcast(s.comm, s.recv.data(), count_of(s), 0);
}
void all_reduce_plus(coll_state& s) {
  boost::mpi::all_reduce(s.comm, s.send.data(), count_of(s), s.recv.data(), std::plus<int>());
}
void all_reduce_lambda(coll_state& s) {
  boost::mpi::all_reduce(s.comm, s.send.data(), count_of(s), s.recv.data(),
                         [](int a, int b) { return a + b; });
}
void all_gather(coll_state& s) {
  boost::mpi::all_gather(s.comm, s.send.data(), count_of(s), s.recv.data());
}
void all_to_all(coll_state& s) {
  boost::mpi::all_to_all(s.comm, s.send.data(), count_of(s), s.recv.data());
}
void scan_plus(coll_state& s) {
  boost::mpi::scan(s.comm, s.send.data(), count_of(s), s.recv.data(), std::plus<int>());
}

}  // namespace

extern "C" size_t wb_boost_coll_variants(const wb_coll_variant** table) {
  static const wb_coll_variant variants[] = {
      coll::of<WB_COLL_BCAST, broadcast>("bcast", "broadcast", "c/bcast/builtin"),
      coll::of<WB_COLL_ALLREDUCE, all_reduce_plus>("allreduce", "plus", "c/allreduce/sum"),
      coll::of<WB_COLL_ALLREDUCE, all_reduce_lambda>("allreduce", "lambda",
                                                     "c/allreduce/user_fn_noncommute"),
      coll::of<WB_COLL_ALLGATHER, all_gather>("allgather", "all_gather", "c/allgather/builtin"),
      coll::of<WB_COLL_ALLTOALL, all_to_all>("alltoall", "all_to_all", "c/alltoall/builtin"),
      coll::of<WB_COLL_SCAN, scan_plus>("scan", "plus", "c/scan/sum"),
  };
  return wb_cxx::publish(table, variants);
}
