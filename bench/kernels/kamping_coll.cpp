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
#include <kamping/communicator.hpp>
#include <kamping/mpi_ops.hpp>
#include <kamping/named_parameters.hpp>

#include <cstddef>
#include <cstdio>
#include <exception>
#include <new>
#include <vector>

#include "coll_variant.h"

namespace {

struct state {
  kamping::Communicator<> comm;
  wb_coll_kind kind;
  std::size_t count;
  std::vector<int> send;
  std::vector<int> recv;
  std::vector<int> send_counts;  // alltoallv: count for every destination
};

[[noreturn]] void abort_on(const std::exception& error) {
  std::fprintf(stderr, "KaMPIng collective kernel failed: %s\n", error.what());
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::terminate();
}

template <wb_coll_kind Kind>
void* setup(MPI_Comm comm, std::size_t count) noexcept {
  try {
    // Built in place: copying a kamping::Communicator is an MPI_Comm_dup.
    auto* s = new state{kamping::Communicator<>(comm), Kind, count, {}, {}, {}};
    const int rank = s->comm.rank_signed(), size = s->comm.size_signed();
    s->send.resize(wb_coll_sent(Kind, size, count));
    for (std::size_t i = 0; i < s->send.size(); ++i)
      s->send[i] = wb_coll_value(rank, i);
    s->recv.assign(wb_coll_received(Kind, size, count), 0);
    if (Kind == WB_COLL_BCAST && rank == 0) s->recv = s->send;
    s->send_counts.assign(static_cast<std::size_t>(size), static_cast<int>(count));
    return s;
  } catch (const std::exception&) {
    return nullptr;
  }
}

state& of(void* opaque) {
  return *static_cast<state*>(opaque);
}

/// Runs one call; an exception cannot cross the C harness.
template <class Call>
void guarded(void* opaque, Call call) noexcept {
  try {
    call(of(opaque));
  } catch (const std::exception& error) {
    abort_on(error);
  }
}

void call_bcast(void* p) {
  guarded(p,
          [](state& s) { s.comm.bcast(kamping::send_recv_buf<kamping::resize_to_fit>(s.recv)); });
}
void call_allreduce_plus(void* p) {
  guarded(p, [](state& s) {
    s.comm.allreduce(kamping::send_buf(s.send), kamping::recv_buf(s.recv),
                     kamping::op(kamping::ops::plus<>()));
  });
}
void call_allreduce_lambda(void* p) {
  guarded(p, [](state& s) {
    s.comm.allreduce(kamping::send_buf(s.send), kamping::recv_buf(s.recv),
                     kamping::op([](int a, int b) { return a + b; }, kamping::ops::commutative));
  });
}
void call_allgatherv(void* p) {
  guarded(p, [](state& s) { s.recv = s.comm.allgatherv(kamping::send_buf(s.send)); });
}
void call_alltoallv(void* p) {
  guarded(p, [](state& s) {
    s.recv = s.comm.alltoallv(kamping::send_buf(s.send), kamping::send_counts(s.send_counts));
  });
}

int verify(void* p) {
  auto& s = of(p);
  if (s.recv.size() != wb_coll_received(s.kind, s.comm.size_signed(), s.count)) return 1;
  return wb_coll_check(s.kind, s.comm.rank_signed(), s.comm.size_signed(), s.count, s.recv.data());
}

void teardown(void* p) {
  delete static_cast<state*>(p);
}

template <wb_coll_kind Kind>
constexpr wb_coll_variant variant(const char* op, const char* form, const char* baseline,
                                  void (*call)(void*)) {
  return wb_coll_variant{"kamping", op, form, baseline, Kind, setup<Kind>, call, verify, teardown};
}

}  // namespace

extern "C" size_t wb_kamping_coll_variants(const wb_coll_variant** table) {
  static const wb_coll_variant variants[] = {
      variant<WB_COLL_BCAST>("bcast", "vector", "c/bcast/builtin", call_bcast),
      variant<WB_COLL_ALLREDUCE>("allreduce", "plus", "c/allreduce/sum", call_allreduce_plus),
      variant<WB_COLL_ALLREDUCE>("allreduce", "lambda", "c/allreduce/user_fn",
                                 call_allreduce_lambda),
      variant<WB_COLL_ALLGATHER>("allgatherv", "counts_exchanged", "c/allgatherv/counts_exchanged",
                                 call_allgatherv),
      variant<WB_COLL_ALLTOALL>("alltoallv", "counts_exchanged", "c/alltoallv/counts_exchanged",
                                call_alltoallv),
  };
  *table = variants;
  return sizeof variants / sizeof variants[0];
}
