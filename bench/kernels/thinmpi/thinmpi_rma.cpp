// The thinmpi variants of the rma suite: each is what a user naturally writes with thinmpi's
// windows and epochs, measured against the C variant that makes the same MPI calls
// (bench/kernels/c/c_rma.c; rma_kernels.h has the layout):
//
//   <op>/lock_flush   auto win = thinmpi::window<int>::allocate(comm, count);
//                     auto epoch = win.lock(1, thinmpi::lock_type::shared);   (at setup)
//                     epoch.put(origin, 1, 0); epoch.flush();                 (one call)
//   <op>/fence        auto epoch = win.fence();                               (at setup)
//                     epoch.fence(); rank 0: epoch.put(origin, 1, 0); epoch.fence();
//                     rank 1: epoch.put(origin, 0, 0); epoch.fence();        (one call)
//   <op>/bandwidth    64 x epoch.put(origin, 1, 0), then epoch.flush()
//
// for put, get (epoch.get(result, 1, 0)) and accumulate (epoch.accumulate(origin, 1, 0,
// std::plus<>{})); fetch_and_op/lock_flush (epoch.fetch_and_op(one, fetched, 1, 0,
// std::plus<>{})) and compare_and_swap/lock_flush (epoch.compare_and_swap(expected, next,
// fetched, 1, 0)); and the programs thinmpi/rma_counter/program and
// thinmpi/rma_histogram/program: the examples' own functions (examples/rma_counter.hpp and
// examples/rma_histogram.hpp, which examples/rma_*.cpp run and check). Built only
// when this file compiles against the tree's thinmpi (bench/cmake/WbRma.cmake tries it).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <numeric>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "cxx_variant.hpp"
#include "rma_counter.hpp"
#include "rma_histogram.hpp"
#include "rma_kernels.h"
#include "thinmpi/collectives/ops.hpp"
#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/rma/window.hpp"

namespace {

/// Names this suite's kernels when a call fails (wb_cxx::in_call; wb_cxx::in_setup fails a
/// setup).
constexpr const char* api = "thinmpi rma";

using lock_epoch = thinmpi::lock_epoch<int, std::size_t>;
using fence_epoch = thinmpi::fence_epoch<int, std::size_t>;

struct rma_state {
  thinmpi::comm_view comm;
  int rank;
  int peer;
  bool is_fence;
  std::size_t count;
  thinmpi::window<int> win;
  std::vector<int> origin;
  std::vector<int> result;
  std::optional<lock_epoch> lock;
  std::optional<fence_epoch> fence;
  long calls = 0;
  int one = 1, fetched = 0, expected = 0, next = 0;
  bool chain_ok = true;
};

/// The window, its initial values and the origin; then the epoch of the form.
void* setup_window(MPI_Comm raw, std::size_t count, bool fence) {
  return wb_cxx::in_setup([&]() -> void* {
    const thinmpi::comm_view comm(raw);
    if (comm.size() < 2 || count == 0 || count > (std::size_t{1} << 28)) return nullptr;
    const int rank = comm.rank();
    auto* s = new rma_state{comm,
                            rank,
                            rank < 2 ? 1 - rank : MPI_PROC_NULL,
                            fence,
                            count,
                            thinmpi::window<int>::allocate(comm, wb_rma_window_ints(count)),
                            std::vector<int>(count),
                            std::vector<int>(count),
                            {},
                            {}};
    const std::span<int> window = s->win.local();
    for (std::size_t i = 0; i < window.size(); ++i)
      window[i] = wb_coll_value(rank, i);
    for (std::size_t i = 0; i < count; ++i)
      s->origin[i] = wb_coll_value(rank, i);
    s->expected = wb_coll_value(1, 0);
    s->next = s->expected + 1;
    comm.barrier();  // every window is filled before any rank accesses it
    if (fence) {
      s->fence.emplace(s->win.fence());
    } else if (rank == 0) {
      s->lock.emplace(s->win.lock(1, thinmpi::lock_type::shared));
    }
    return s;
  });
}

void* setup_lock(MPI_Comm comm, std::size_t count) noexcept {
  return setup_window(comm, count, false);
}

void* setup_fence(MPI_Comm comm, std::size_t count) noexcept {
  return setup_window(comm, count, true);
}

struct put_op {
  template <class Epoch>
  static void issue(const Epoch& epoch, rma_state& s) {
    epoch.put(s.origin, s.peer, 0);
  }
};

struct get_op {
  template <class Epoch>
  static void issue(const Epoch& epoch, rma_state& s) {
    epoch.get(s.result, s.peer, 0);
  }
};

struct accumulate_op {
  template <class Epoch>
  static void issue(const Epoch& epoch, rma_state& s) {
    epoch.accumulate(s.origin, s.peer, 0, std::plus<>{});
  }
};

template <class Op>
void call_lock(void* p) {
  wb_cxx::in_call(api, [p] {
    auto& s = *static_cast<rma_state*>(p);
    if (s.rank != 0) return;
    Op::issue(*s.lock, s);
    s.lock->flush();
    ++s.calls;
  });
}

template <class Op>
void call_fence(void* p) {
  wb_cxx::in_call(api, [p] {
    auto& s = *static_cast<rma_state*>(p);
    fence_epoch& epoch = *s.fence;
    epoch.fence();
    if (s.rank == 0) Op::issue(epoch, s);
    epoch.fence();
    if (s.rank == 1) Op::issue(epoch, s);
    epoch.fence();
    ++s.calls;
  });
}

template <class Op>
void call_bandwidth(void* p) {
  wb_cxx::in_call(api, [p] {
    auto& s = *static_cast<rma_state*>(p);
    if (s.rank != 0) return;
    for (int k = 0; k < WB_RMA_BANDWIDTH_OPS; ++k)
      Op::issue(*s.lock, s);
    s.lock->flush();
    s.calls += WB_RMA_BANDWIDTH_OPS;
  });
}

void call_fetch_and_op(void* p) {
  wb_cxx::in_call(api, [p] {
    auto& s = *static_cast<rma_state*>(p);
    if (s.rank != 0) return;
    s.lock->fetch_and_op(s.one, s.fetched, 1, 0, std::plus<>{});
    s.lock->flush();
    ++s.calls;
  });
}

void call_compare_and_swap(void* p) {
  wb_cxx::in_call(api, [p] {
    auto& s = *static_cast<rma_state*>(p);
    if (s.rank != 0) return;
    s.lock->compare_and_swap(s.expected, s.next, s.fetched, 1, 0);
    s.lock->flush();
    s.chain_ok = s.chain_ok && s.fetched == s.expected;
    s.expected = s.next++;
    ++s.calls;
  });
}

/// Ends the epoch, then checks this rank's window (read under a lock of itself) and results.
template <wb_rma_op Op>
int verify_op(void* p) {
  return wb_cxx::in_call(api, [p]() -> int {
    auto& s = *static_cast<rma_state*>(p);
    if (s.fence) s.fence->end();
    if (s.lock) s.lock->unlock();
    s.fence.reset();
    s.lock.reset();
    long calls = 0;
    s.comm.allreduce(s.calls, calls, thinmpi::max);
    auto self = s.win.lock(s.rank, thinmpi::lock_type::shared);
    if (Op == WB_RMA_FETCH_AND_OP || Op == WB_RMA_COMPARE_AND_SWAP) s.result[0] = s.fetched;
    const wb_rma_seen seen{Op,    s.is_fence ? 1 : 0,   s.rank,          s.count,
                           calls, s.win.local().data(), s.result.data(), s.chain_ok ? 1 : 0};
    return wb_rma_check(&seen);
  });
}

void teardown_rma(void* p) {
  auto* s = static_cast<rma_state*>(p);
  wb_cxx::in_call(api, [s] {
    s->fence.reset();  // ends an epoch a skipped verify left open
    s->lock.reset();
    s->win.free();
  });
  delete s;
}

}  // namespace

// The examples' programs (examples/rma_counter.hpp, examples/rma_histogram.hpp), called as the
// examples' main() call them.
namespace {

struct program_state {
  thinmpi::comm_view comm;
  bool ok;
  std::size_t values, bins;  ///< the histogram's input sizes, read at each call as C's are
};

void* setup_program(MPI_Comm comm, std::size_t) noexcept {
  return wb_cxx::in_setup([comm]() -> void* {
    return new program_state{thinmpi::comm_view(comm), false, WB_RMA_HISTOGRAM_VALUES,
                             WB_RMA_HISTOGRAM_BINS};
  });
}

void call_counter(void* p) {
  wb_cxx::in_call(api, [p] {
    auto& s = *static_cast<program_state*>(p);
    s.ok = rma_counter_example::draw(s.comm, WB_RMA_COUNTER_TICKETS).ok();
  });
}

void call_histogram(void* p) {
  wb_cxx::in_call(api, [p] {
    auto& s = *static_cast<program_state*>(p);
    s.ok = rma_histogram_example::count(s.comm, s.values, s.bins);
  });
}

int verify_program(void* p) {
  return static_cast<program_state*>(p)->ok ? 0 : 1;
}

void teardown_program(void* p) {
  delete static_cast<program_state*>(p);
}

constexpr wb_coll_variant rma_variant(const char* op, const char* form, const char* baseline,
                                      void* (*setup)(MPI_Comm, std::size_t), void (*call)(void*),
                                      int (*verify)(void*)) {
  return {"thinmpi", op, form, baseline, WB_COLL_ONE_SIDED, setup, call, verify, teardown_rma};
}

/// Op (put, get or accumulate) in the three forms, lock_flush, fence and bandwidth, each against
/// its C baseline.
template <class Op, wb_rma_op Kind>
void add_forms(std::vector<wb_coll_variant>& table, const char* op,
               const char* const (&baselines)[3]) {
  table.push_back(
      rma_variant(op, "lock_flush", baselines[0], setup_lock, call_lock<Op>, verify_op<Kind>));
  table.push_back(
      rma_variant(op, "fence", baselines[1], setup_fence, call_fence<Op>, verify_op<Kind>));
  table.push_back(
      rma_variant(op, "bandwidth", baselines[2], setup_lock, call_bandwidth<Op>, verify_op<Kind>));
}

constexpr wb_coll_variant program_variant(const char* op, const char* baseline,
                                          void (*call)(void*)) {
  return {"thinmpi",     op,   "program",      baseline,        WB_COLL_PROGRAM,
          setup_program, call, verify_program, teardown_program};
}

}  // namespace

extern "C" size_t wb_thinmpi_rma_variants(const wb_coll_variant** table) {
  static const std::vector<wb_coll_variant> variants = [] {
    std::vector<wb_coll_variant> all;
    add_forms<put_op, WB_RMA_PUT>(all, "put",
                                  {"c/put/lock_flush", "c/put/fence", "c/put/bandwidth"});
    add_forms<get_op, WB_RMA_GET>(all, "get",
                                  {"c/get/lock_flush", "c/get/fence", "c/get/bandwidth"});
    add_forms<accumulate_op, WB_RMA_ACCUMULATE>(
        all, "accumulate",
        {"c/accumulate/lock_flush", "c/accumulate/fence", "c/accumulate/bandwidth"});
    all.push_back(rma_variant("fetch_and_op", "lock_flush", "c/fetch_and_op/lock_flush", setup_lock,
                              call_fetch_and_op, verify_op<WB_RMA_FETCH_AND_OP>));
    all.push_back(rma_variant("compare_and_swap", "lock_flush", "c/compare_and_swap/lock_flush",
                              setup_lock, call_compare_and_swap,
                              verify_op<WB_RMA_COMPARE_AND_SWAP>));
    all.push_back(program_variant("rma_counter", "c/rma_counter/program", call_counter));
    all.push_back(program_variant("rma_histogram", "c/rma_histogram/program", call_histogram));
    return all;
  }();
  *table = variants.data();
  return variants.size();
}
