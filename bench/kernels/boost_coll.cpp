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
#include <boost/mpi/communicator.hpp>
#include <cstddef>
#include <functional>
#include <new>
#include <vector>

#include "coll_variant.h"

namespace {

struct state {
  boost::mpi::communicator comm;
  wb_coll_kind kind;
  int count;
  std::vector<int> send;
  std::vector<int> recv;
};

template <wb_coll_kind Kind>
void* setup(MPI_Comm comm, std::size_t count) {
  boost::mpi::communicator attached(comm, boost::mpi::comm_attach);
  const int rank = attached.rank(), size = attached.size();
  auto* s = new (std::nothrow) state{attached, Kind, static_cast<int>(count), {}, {}};
  if (!s) return nullptr;
  s->send.resize(wb_coll_sent(Kind, size, count));
  for (std::size_t i = 0; i < s->send.size(); ++i)
    s->send[i] = wb_coll_value(rank, i);
  s->recv.assign(wb_coll_received(Kind, size, count), 0);
  if (Kind == WB_COLL_BCAST && rank == 0) s->recv.assign(s->send.begin(), s->send.end());
  return s;
}

state& of(void* opaque) {
  return *static_cast<state*>(opaque);
}

void call_broadcast(void* p) {
  auto& s = of(p);
  boost::mpi::broadcast(s.comm, s.recv.data(), s.count, 0);
}
void call_all_reduce_plus(void* p) {
  auto& s = of(p);
  boost::mpi::all_reduce(s.comm, s.send.data(), s.count, s.recv.data(), std::plus<int>());
}
void call_all_reduce_lambda(void* p) {
  auto& s = of(p);
  boost::mpi::all_reduce(s.comm, s.send.data(), s.count, s.recv.data(),
                         [](int a, int b) { return a + b; });
}
void call_all_gather(void* p) {
  auto& s = of(p);
  boost::mpi::all_gather(s.comm, s.send.data(), s.count, s.recv.data());
}
void call_all_to_all(void* p) {
  auto& s = of(p);
  boost::mpi::all_to_all(s.comm, s.send.data(), s.count, s.recv.data());
}
void call_scan_plus(void* p) {
  auto& s = of(p);
  boost::mpi::scan(s.comm, s.send.data(), s.count, s.recv.data(), std::plus<int>());
}

int verify(void* p) {
  auto& s = of(p);
  return wb_coll_check(s.kind, s.comm.rank(), s.comm.size(), static_cast<std::size_t>(s.count),
                       s.recv.data());
}

void teardown(void* p) {
  delete static_cast<state*>(p);
}

template <wb_coll_kind Kind>
constexpr wb_coll_variant variant(const char* op, const char* form, const char* baseline,
                                  void (*call)(void*)) {
  return wb_coll_variant{"boost", op, form, baseline, Kind, setup<Kind>, call, verify, teardown};
}

}  // namespace

extern "C" size_t wb_boost_coll_variants(const wb_coll_variant** table) {
  static const wb_coll_variant variants[] = {
      variant<WB_COLL_BCAST>("bcast", "broadcast", "c/bcast/builtin", call_broadcast),
      variant<WB_COLL_ALLREDUCE>("allreduce", "plus", "c/allreduce/sum", call_all_reduce_plus),
      variant<WB_COLL_ALLREDUCE>("allreduce", "lambda", "c/allreduce/user_fn_noncommute",
                                 call_all_reduce_lambda),
      variant<WB_COLL_ALLGATHER>("allgather", "all_gather", "c/allgather/builtin", call_all_gather),
      variant<WB_COLL_ALLTOALL>("alltoall", "all_to_all", "c/alltoall/builtin", call_all_to_all),
      variant<WB_COLL_SCAN>("scan", "plus", "c/scan/sum", call_scan_plus),
  };
  *table = variants;
  return sizeof variants / sizeof variants[0];
}
