// The MPL collective variants, written as MPL's examples write them (collective.cc,
// gatherv.cc, parallel_sort_mpl.cc), on layouts:
//
//   mpl/bcast/layout                bcast(0, v.data(), contiguous_layout<int>(n))
//                                                                        vs c/bcast/builtin
//   mpl/allreduce/plus              allreduce(mpl::plus<int>(), ...): MPL makes every functor,
//                                   mpl::plus too, a user-defined MPI_Op (mpl/operator.hpp)
//                                                                        vs c/allreduce/sum
//   mpl/allreduce/lambda            allreduce([](int a, int b) {...}, ...): not commutative
//                                   unless op_traits says so     vs c/allreduce/user_fn_noncommute
//   mpl/allgatherv/counts_exchanged allgather of the counts, then allgatherv with
//                                   contiguous_layouts and byte displacements
//                                                          vs c/allgatherv/counts_exchanged
//   mpl/alltoallv/counts_exchanged  alltoall of the counts, then alltoallv with
//                                   contiguous_layouts       vs c/alltoallv/counts_exchanged
#include <cstddef>
#include <mpl/mpl.hpp>
#include <vector>

#include "mpl_adapter.hpp"

namespace {

using wb_mpl::coll_state;

/// Element offsets of blocks of `counts` ints, as MPL's byte displacements.
mpl::displacements byte_displacements(const std::vector<int>& counts) {
  mpl::displacements displs(counts.size());
  std::size_t offset = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    displs[i] = static_cast<MPI_Aint>(offset * sizeof(int));
    offset += static_cast<std::size_t>(counts[i]);
  }
  return displs;
}

mpl::contiguous_layouts<int> layouts_of(const std::vector<int>& counts) {
  mpl::contiguous_layouts<int> layouts;
  for (int n : counts)
    layouts.push_back(mpl::contiguous_layout<int>(static_cast<std::size_t>(n)));
  return layouts;
}

std::size_t total_of(const std::vector<int>& counts) {
  std::size_t total = 0;
  for (int n : counts)
    total += static_cast<std::size_t>(n);
  return total;
}

/// The calls of wb_cxx::publish_peer_calls' table.
struct calls {
  static constexpr const char* bcast_form = "layout";
  static constexpr bool commutative_lambda = false;

  static void bcast(coll_state& s) { s.comm.bcast(0, s.recv.data(), s.kept.layout); }
  static void allreduce_plus(coll_state& s) {
    s.comm.allreduce(mpl::plus<int>(), s.send.data(), s.recv.data(), s.kept.layout);
  }
  static void allreduce_lambda(coll_state& s) {
    s.comm.allreduce([](int a, int b) { return a + b; }, s.send.data(), s.recv.data(),
                     s.kept.layout);
  }
  static void allgatherv(coll_state& s) {
    const int mine = static_cast<int>(s.send.size());
    std::vector<int> counts(static_cast<std::size_t>(s.comm.size()));
    s.comm.allgather(mine, counts.data());
    std::vector<int> gathered(total_of(counts));
    s.comm.allgatherv(s.send.data(), mpl::contiguous_layout<int>(s.send.size()), gathered.data(),
                      layouts_of(counts), byte_displacements(counts));
    s.recv = std::move(gathered);
  }
  static void alltoallv(coll_state& s) {
    const std::size_t ranks = static_cast<std::size_t>(s.comm.size());
    const std::vector<int> send_counts(ranks, static_cast<int>(s.count));
    std::vector<int> recv_counts(ranks);
    s.comm.alltoall(send_counts.data(), recv_counts.data());
    std::vector<int> received(total_of(recv_counts));
    s.comm.alltoallv(s.send.data(), layouts_of(send_counts), byte_displacements(send_counts),
                     received.data(), layouts_of(recv_counts), byte_displacements(recv_counts));
    s.recv = std::move(received);
  }
};

}  // namespace

// MPL 0.4 keeps each reduction's MPI_Op in a function-local static (mpl/operator.hpp, get_op)
// whose destructor calls MPI_Op_free. An MPL program lets MPL's environment finalize MPI after
// those statics die; the C harness calls MPI_Finalize in main, before them, and Open MPI 4.1
// aborts an MPI_Op_free after MPI_Finalize. So wb_coll's MPI_Op_free is a no-op once MPI is
// finalized (the process is ending; nothing is left to free) and PMPI_Op_free before.
extern "C" int MPI_Op_free(MPI_Op* op) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) {
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
  }
  return PMPI_Op_free(op);
}

extern "C" size_t wb_mpl_coll_variants(const wb_coll_variant** table) {
  return wb_cxx::publish_peer_calls<wb_mpl::adapter, calls>(table);
}
