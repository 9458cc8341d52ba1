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

#include "rma_counter.hpp"
#include "rma_histogram.hpp"
#include "rma_kernels.h"
#include "thinmpi/collectives/ops.hpp"
#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/rma/window.hpp"

namespace {

[[noreturn]] void abort_on(const std::exception& error) {
  std::fprintf(stderr, "thinmpi rma kernel failed: %s\n", error.what());
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::terminate();
}

/// Runs `body`, exceptions ending the job in a call (they cannot cross the C harness) and
/// failing a setup.
template <class Body>
auto guarded(bool in_setup, Body body) noexcept -> decltype(body()) {
  try {
    return body();
  } catch (const std::exception& error) {
    if (!in_setup) abort_on(error);
    if constexpr (!std::is_void_v<decltype(body())>) return {};
  }
}

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
  return guarded(true, [&]() -> void* {
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
  guarded(false, [p] {
    auto& s = *static_cast<rma_state*>(p);
    if (s.rank != 0) return;
    Op::issue(*s.lock, s);
    s.lock->flush();
    ++s.calls;
  });
}

template <class Op>
void call_fence(void* p) {
  guarded(false, [p] {
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
  guarded(false, [p] {
    auto& s = *static_cast<rma_state*>(p);
    if (s.rank != 0) return;
    for (int k = 0; k < WB_RMA_BANDWIDTH_OPS; ++k)
      Op::issue(*s.lock, s);
    s.lock->flush();
    s.calls += WB_RMA_BANDWIDTH_OPS;
  });
}

void call_fetch_and_op(void* p) {
  guarded(false, [p] {
    auto& s = *static_cast<rma_state*>(p);
    if (s.rank != 0) return;
    s.lock->fetch_and_op(s.one, s.fetched, 1, 0, std::plus<>{});
    s.lock->flush();
    ++s.calls;
  });
}

void call_compare_and_swap(void* p) {
  guarded(false, [p] {
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
  return guarded(false, [p]() -> int {
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
  guarded(false, [s] {
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
};

void* setup_program(MPI_Comm comm, std::size_t) noexcept {
  return guarded(true, [comm]() -> void* {
    return new program_state{thinmpi::comm_view(comm), false};
  });
}

void call_counter(void* p) {
  guarded(false, [p] {
    auto& s = *static_cast<program_state*>(p);
    s.ok = rma_counter_example::draw(s.comm, WB_RMA_COUNTER_TICKETS).ok();
  });
}

void call_histogram(void* p) {
  guarded(false, [p] {
    auto& s = *static_cast<program_state*>(p);
    s.ok = rma_histogram_example::count(s.comm, WB_RMA_HISTOGRAM_VALUES, WB_RMA_HISTOGRAM_BINS);
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

constexpr wb_coll_variant program_variant(const char* op, const char* baseline,
                                          void (*call)(void*)) {
  return {"thinmpi",     op,   "program",      baseline,        WB_COLL_PROGRAM,
          setup_program, call, verify_program, teardown_program};
}

}  // namespace

extern "C" size_t wb_thinmpi_rma_variants(const wb_coll_variant** table) {
  static const wb_coll_variant variants[] = {
      rma_variant("put", "lock_flush", "c/put/lock_flush", setup_lock, call_lock<put_op>,
                  verify_op<WB_RMA_PUT>),
      rma_variant("put", "fence", "c/put/fence", setup_fence, call_fence<put_op>,
                  verify_op<WB_RMA_PUT>),
      rma_variant("put", "bandwidth", "c/put/bandwidth", setup_lock, call_bandwidth<put_op>,
                  verify_op<WB_RMA_PUT>),
      rma_variant("get", "lock_flush", "c/get/lock_flush", setup_lock, call_lock<get_op>,
                  verify_op<WB_RMA_GET>),
      rma_variant("get", "fence", "c/get/fence", setup_fence, call_fence<get_op>,
                  verify_op<WB_RMA_GET>),
      rma_variant("get", "bandwidth", "c/get/bandwidth", setup_lock, call_bandwidth<get_op>,
                  verify_op<WB_RMA_GET>),
      rma_variant("accumulate", "lock_flush", "c/accumulate/lock_flush", setup_lock,
                  call_lock<accumulate_op>, verify_op<WB_RMA_ACCUMULATE>),
      rma_variant("accumulate", "fence", "c/accumulate/fence", setup_fence,
                  call_fence<accumulate_op>, verify_op<WB_RMA_ACCUMULATE>),
      rma_variant("accumulate", "bandwidth", "c/accumulate/bandwidth", setup_lock,
                  call_bandwidth<accumulate_op>, verify_op<WB_RMA_ACCUMULATE>),
      rma_variant("fetch_and_op", "lock_flush", "c/fetch_and_op/lock_flush", setup_lock,
                  call_fetch_and_op, verify_op<WB_RMA_FETCH_AND_OP>),
      rma_variant("compare_and_swap", "lock_flush", "c/compare_and_swap/lock_flush", setup_lock,
                  call_compare_and_swap, verify_op<WB_RMA_COMPARE_AND_SWAP>),
      program_variant("rma_counter", "c/rma_counter/program", call_counter),
      program_variant("rma_histogram", "c/rma_histogram/program", call_histogram),
  };
  *table = variants;
  return sizeof variants / sizeof variants[0];
}
