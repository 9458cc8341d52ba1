// The thinmpi collective variants: each is the call a user naturally writes, measured against
// the C variant that does the same thing (its baseline, named in the table at the end):
//
//   bcast/vector                 bcast(vec, 0)
//   allreduce/plus               allreduce(send, recv, std::plus<>{})        (C: MPI_SUM)
//   allreduce/lambda             ... [](int a, int b) { return a + b; }      (C: user fn, not
//                                    declared commutative, as thinmpi's plain lambda)
//   allreduce/lambda_commutative ... thinmpi::commutative(the same lambda)   (C: commutative fn)
//   allreduce/lambda_state       ... commutative([bias](int a, int b) {...}) (C: fn reading a
//                                    global)
//   allgather/vector             allgather(send, recv)
//   allgatherv/counts_given      allgatherv(send, recv, counts, displs)
//   allgatherv/counts_layout     allgatherv(send, recv, layout): a thinmpi::block_layout of the
//                                    counts and displacements, built (and checked) at setup, as
//                                    the C variant computes its arrays at setup
//   allgatherv/counts_exchanged  allgatherv(send, thinmpi::exchange_counts)   (std::vector: zeroed
//                                    when sized, then written by MPI)
//   allgatherv/counts_exchanged_uninit  allgatherv<uninit>(...) into a vector with
//                                    thinmpi::default_init_allocator (not zeroed, as C's malloc)
//   allgatherv/counts_exchanged_reuse  allgatherv(send, kept, thinmpi::exchange_counts) into a
//                                    thinmpi::varying kept from call to call (no allocation)
//   alltoall/vector              alltoall(send, recv)
//   alltoallv/counts_given       alltoallv(send, counts, displs, recv, counts, displs)
//   alltoallv/counts_layout      alltoallv(send, layout, recv, layout), as allgatherv's
//   alltoallv/counts_exchanged   alltoallv(send, counts, thinmpi::exchange_counts)
//   alltoallv/counts_exchanged_uninit  alltoallv<uninit>(...), as allgatherv's
//   alltoallv/counts_exchanged_reuse  alltoallv(send, counts, kept, exchange_counts)
//   reduce_scatter_block/plus    reduce_scatter_block(send, recv, std::plus<>{})
//   scan/plus                    scan(send, recv, std::plus<>{})
//
//
// and the programs of examples/ (sample_sort.hpp, bfs.hpp) as thinmpi/sample_sort/program and
// thinmpi/bfs/program, against bench/programs/*.c.
//
// Built only when this file compiles against the tree's thinmpi (bench/cmake/WbCollectives.cmake
// tries it); each family's variants are in only when the tree has its header (the collectives
// land family by family).
//
// Built a second time with THINMPI_CHECKED_COLLECTIVES=1 and WB_THINMPI_CHECKED (the shared
// library libwb_thinmpi_coll_checked, every symbol hidden but its table's, so that its inline
// thinmpi functions never stand in for the unchecked ones), this file gives the checked mode's
// variants, thinmpi-checked/<op>/<form>, for the calls in `checked_calls` below: the same call,
// which in that mode first agrees on its arguments (one MPI_Allreduce). The unchecked build's
// table lists them after its own, so they run in the same process as the unchecked call and C.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <functional>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "coll_variant.h"
#include "thinmpi/thinmpi.hpp"

#if __has_include("thinmpi/collectives/bcast.hpp")
#define WB_HAS_BCAST 1
#else
#define WB_HAS_BCAST 0
#endif
#if __has_include("thinmpi/collectives/reduce.hpp")
#define WB_HAS_REDUCE 1
#else
#define WB_HAS_REDUCE 0
#endif
#if __has_include("thinmpi/collectives/allgather.hpp")
#define WB_HAS_ALLGATHER 1
#else
#define WB_HAS_ALLGATHER 0
#endif
#if __has_include("thinmpi/collectives/alltoall.hpp")
#define WB_HAS_ALLTOALL 1
#else
#define WB_HAS_ALLTOALL 0
#endif
#if __has_include("thinmpi/collectives/reduce_scatter.hpp")
#define WB_HAS_REDUCE_SCATTER 1
#else
#define WB_HAS_REDUCE_SCATTER 0
#endif
#if __has_include("thinmpi/collectives/scan.hpp")
#define WB_HAS_SCAN 1
#else
#define WB_HAS_SCAN 0
#endif

#if defined(WB_THINMPI_CHECKED)
#if !THINMPI_CHECKED_COLLECTIVES
#error "the checked copy of the thinmpi collective kernels needs THINMPI_CHECKED_COLLECTIVES=1"
#endif
#define WB_API "thinmpi-checked"
#define WB_HAS_PROGRAMS 0  // the checked copy has the single calls only
#else
#define WB_API "thinmpi"
#define WB_HAS_PROGRAMS (WB_HAS_ALLGATHER && WB_HAS_ALLTOALL && WB_HAS_REDUCE)
#endif
#if WB_HAS_PROGRAMS
#include "bfs.hpp"
#include "programs.h"
#include "sample_sort.hpp"
#endif

namespace {

struct state {
  thinmpi::comm_view comm;
  wb_coll_kind kind;
  int rank;
  int size;
  std::size_t count;
  std::vector<int> send;
  std::vector<int> recv;
  std::vector<int, thinmpi::default_init_allocator<int>> grown;  ///< the *_uninit results
  std::vector<int> counts;
  std::vector<int> displs;
  int bias;
  std::optional<thinmpi::block_layout> layout{};  ///< counts and displs, for *_layout variants
  thinmpi::varying<int> kept{};                   ///< the *_reuse variants' result
};

[[noreturn]] void abort_on(const std::exception& error) {
  std::fprintf(stderr, "thinmpi collective kernel failed: %s\n", error.what());
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::terminate();
}

template <wb_coll_kind Kind>
void* setup(MPI_Comm comm, std::size_t count) noexcept {
  try {
    auto* s =
        new state{thinmpi::comm_view(comm), Kind, 0, 0, count, {}, {}, {}, {}, {}, wb_coll_bias};
    s->rank = s->comm.rank();
    s->size = s->comm.size();
    s->send.resize(wb_coll_sent(Kind, s->size, count));
    for (std::size_t i = 0; i < s->send.size(); ++i)
      s->send[i] = wb_coll_value(s->rank, i);
    s->recv.assign(wb_coll_received(Kind, s->size, count), 0);
    if (Kind == WB_COLL_BCAST && s->rank == 0) s->recv.assign(s->send.begin(), s->send.end());
    for (int r = 0; r < s->size; ++r) {
      s->counts.push_back(static_cast<int>(count));
      s->displs.push_back(r * static_cast<int>(count));
    }
#if WB_HAS_ALLGATHER || WB_HAS_ALLTOALL
    s->layout.emplace(s->counts, s->displs);
#endif
    return s;
  } catch (const std::exception&) {
    return nullptr;
  }
}

/// One call of `body` on the state, exceptions ending the job (they cannot cross the C harness).
template <class Body>
void guarded(void* raw, Body body) noexcept {
  try {
    body(*static_cast<state*>(raw));
  } catch (const std::exception& error) {
    abort_on(error);
  }
}

#if WB_HAS_BCAST
void call_bcast(void* p) {
  guarded(p, [](state& s) { s.comm.bcast(s.recv, 0); });
}
#endif
#if WB_HAS_REDUCE
void call_allreduce_plus(void* p) {
  guarded(p, [](state& s) { s.comm.allreduce(s.send, s.recv, std::plus<>{}); });
}
void call_allreduce_lambda(void* p) {
  guarded(p,
          [](state& s) { s.comm.allreduce(s.send, s.recv, [](int a, int b) { return a + b; }); });
}
void call_allreduce_lambda_commutative(void* p) {
  guarded(p, [](state& s) {
    s.comm.allreduce(s.send, s.recv, thinmpi::commutative([](int a, int b) { return a + b; }));
  });
}
void call_allreduce_lambda_state(void* p) {
  guarded(p, [](state& s) {
    const int bias = s.bias;
    s.comm.allreduce(s.send, s.recv,
                     thinmpi::commutative([bias](int a, int b) { return a + b + bias; }));
  });
}
#endif
#if WB_HAS_ALLGATHER
void call_allgather(void* p) {
  guarded(p, [](state& s) { s.comm.allgather(s.send, s.recv); });
}
void call_allgatherv(void* p) {
  guarded(p, [](state& s) { s.comm.allgatherv(s.send, s.recv, s.counts, s.displs); });
}
void call_allgatherv_layout(void* p) {
  guarded(p, [](state& s) { s.comm.allgatherv(s.send, s.recv, *s.layout); });
}
void call_allgatherv_exchanged(void* p) {
  guarded(p, [](state& s) {
    s.recv = std::vector<int>();  // the last result goes before the call, as in C (and in a loop's
                                  // scope)
    s.recv = s.comm.allgatherv(s.send, thinmpi::exchange_counts).data;
  });
}
void call_allgatherv_exchanged_reuse(void* p) {
  guarded(p, [](state& s) { s.comm.allgatherv(s.send, s.kept, thinmpi::exchange_counts); });
}
void call_allgatherv_exchanged_uninit(void* p) {
  guarded(p, [](state& s) {
    s.grown = decltype(s.grown)();
    s.grown = s.comm.allgatherv<decltype(s.grown)>(s.send, thinmpi::exchange_counts).data;
  });
}
#endif
#if WB_HAS_ALLTOALL
void call_alltoall(void* p) {
  guarded(p, [](state& s) { s.comm.alltoall(s.send, s.recv); });
}
void call_alltoallv(void* p) {
  guarded(p, [](state& s) {
    s.comm.alltoallv(s.send, s.counts, s.displs, s.recv, s.counts, s.displs);
  });
}
void call_alltoallv_layout(void* p) {
  guarded(p, [](state& s) { s.comm.alltoallv(s.send, *s.layout, s.recv, *s.layout); });
}
void call_alltoallv_exchanged(void* p) {
  guarded(p, [](state& s) {
    s.recv = std::vector<int>();
    s.recv = s.comm.alltoallv(s.send, s.counts, thinmpi::exchange_counts).data;
  });
}
void call_alltoallv_exchanged_reuse(void* p) {
  guarded(p,
          [](state& s) { s.comm.alltoallv(s.send, s.counts, s.kept, thinmpi::exchange_counts); });
}
void call_alltoallv_exchanged_uninit(void* p) {
  guarded(p, [](state& s) {
    s.grown = decltype(s.grown)();
    s.grown = s.comm.alltoallv<decltype(s.grown)>(s.send, s.counts, thinmpi::exchange_counts).data;
  });
}
#endif
#if WB_HAS_REDUCE_SCATTER
void call_reduce_scatter_block(void* p) {
  guarded(p, [](state& s) { s.comm.reduce_scatter_block(s.send, s.recv, std::plus<>{}); });
}
#endif
#if WB_HAS_SCAN
void call_scan(void* p) {
  guarded(p, [](state& s) { s.comm.scan(s.send, s.recv, std::plus<>{}); });
}

#endif
int verify(void* p) {
  const auto& s = *static_cast<state*>(p);
  const std::span<const int> got = !s.kept.data.empty() ? std::span<const int>(s.kept.data)
                                   : s.grown.empty()    ? std::span<const int>(s.recv)
                                                        : s.grown;
  if (got.size() != wb_coll_received(s.kind, s.size, s.count)) return 1;
  return wb_coll_check(s.kind, s.rank, s.size, s.count, got.data());
}

void teardown(void* p) {
  delete static_cast<state*>(p);
}

#if WB_HAS_PROGRAMS
/// thinmpi/sample_sort/program: examples/sample_sort.hpp on bench/programs' input.
struct sort_state {
  thinmpi::comm_view comm;
  std::vector<int> input;
  std::vector<int> sorted;
};

void* setup_sort(MPI_Comm comm, std::size_t count) noexcept {
  try {
    auto* s = new sort_state{thinmpi::comm_view(comm), std::vector<int>(count), {}};
    for (std::size_t i = 0; i < count; ++i)
      s->input[i] = wb_sort_input(s->comm.rank(), count, i);
    return s;
  } catch (const std::exception&) {
    return nullptr;
  }
}

void call_sort(void* p) {
  try {
    auto& s = *static_cast<sort_state*>(p);
    s.sorted = s.input;
    sample_sort_example::sort(s.comm, s.sorted, 42);
  } catch (const std::exception& error) {
    abort_on(error);
  }
}

/// Sorted here, below the next rank's values, the same count and sum as the input.
int verify_sort(void* p) {
  const auto& s = *static_cast<sort_state*>(p);
  const auto sum = [](const std::vector<int>& v) {
    long long total = 0;
    for (const int x : v)
      total += x;
    return total;
  };
  const std::vector<long long> mine{static_cast<long long>(s.input.size()), sum(s.input),
                                    static_cast<long long>(s.sorted.size()), sum(s.sorted)};
  const auto all = s.comm.allreduce(mine, std::plus<>{});
  const auto lasts = s.comm.allgather(s.sorted.empty() ? -1 : s.sorted.back());
  bool ordered = std::is_sorted(s.sorted.begin(), s.sorted.end());
  for (int r = 0; r < s.comm.rank() && !s.sorted.empty(); ++r)
    ordered = ordered && lasts[static_cast<std::size_t>(r)] <= s.sorted.front();
  return ordered && all[0] == all[2] && all[1] == all[3] ? 0 : 1;
}

void teardown_sort(void* p) {
  delete static_cast<sort_state*>(p);
}

/// thinmpi/bfs/program: examples/bfs.hpp on the generated graph, checked by a sequential BFS.
struct bfs_state {
  bfs_example::partition part;  ///< the distributed graph, made once (setup)
  bfs_example::vertex local_n;
  std::vector<std::vector<bfs_example::vertex>> found;
  std::vector<int> levels;
  std::vector<int> expected;
};

void* setup_bfs(MPI_Comm comm, std::size_t count) noexcept {
  try {
    thinmpi::comm_view view(comm);
    const auto ranks = static_cast<bfs_example::vertex>(view.size());
    auto* s = new bfs_state{bfs_example::make_partition(view, count), count, {}, {}, {}};
    const auto all = bfs_example::sequential_bfs(count * ranks, 0);
    const auto first = all.begin() + static_cast<std::ptrdiff_t>(count) * view.rank();
    s->expected.assign(first, first + static_cast<std::ptrdiff_t>(count));
    return s;
  } catch (const std::exception&) {
    return nullptr;
  }
}

void call_bfs(void* p) {
  try {
    auto& s = *static_cast<bfs_state*>(p);
    s.levels = bfs_example::bfs(s.part, s.local_n, 0, s.found);
  } catch (const std::exception& error) {
    abort_on(error);
  }
}

int verify_bfs(void* p) {
  const auto& s = *static_cast<bfs_state*>(p);
  return s.levels == s.expected ? 0 : 1;
}

void teardown_bfs(void* p) {
  delete static_cast<bfs_state*>(p);
}
#endif

template <wb_coll_kind Kind>
constexpr wb_coll_variant variant(const char* op, const char* form, const char* baseline,
                                  void (*call)(void*)) {
  return wb_coll_variant{WB_API, op, form, baseline, Kind, setup<Kind>, call, verify, teardown};
}

/// Every variant of this build (the unchecked table, or the checked copy's before it keeps only
/// `checked_calls`).
std::span<const wb_coll_variant> own_variants() {
  static const wb_coll_variant variants[] = {
#if WB_HAS_BCAST
    variant<WB_COLL_BCAST>("bcast", "vector", "c/bcast/builtin", call_bcast),
#endif
#if WB_HAS_REDUCE
    variant<WB_COLL_ALLREDUCE>("allreduce", "plus", "c/allreduce/sum", call_allreduce_plus),
#endif
#if WB_HAS_REDUCE
    variant<WB_COLL_ALLREDUCE>("allreduce", "lambda", "c/allreduce/user_fn_noncommute",
                               call_allreduce_lambda),
#endif
#if WB_HAS_REDUCE
    variant<WB_COLL_ALLREDUCE>("allreduce", "lambda_commutative", "c/allreduce/user_fn",
                               call_allreduce_lambda_commutative),
#endif
#if WB_HAS_REDUCE
    variant<WB_COLL_ALLREDUCE>("allreduce", "lambda_state", "c/allreduce/user_fn_state",
                               call_allreduce_lambda_state),
#endif
#if WB_HAS_ALLGATHER
    variant<WB_COLL_ALLGATHER>("allgather", "vector", "c/allgather/builtin", call_allgather),
#endif
#if WB_HAS_ALLGATHER
    variant<WB_COLL_ALLGATHER>("allgatherv", "counts_given", "c/allgatherv/counts_given",
                               call_allgatherv),
    variant<WB_COLL_ALLGATHER>("allgatherv", "counts_layout", "c/allgatherv/counts_given",
                               call_allgatherv_layout),
#endif
#if WB_HAS_ALLGATHER
    variant<WB_COLL_ALLGATHER>("allgatherv", "counts_exchanged", "c/allgatherv/counts_exchanged",
                               call_allgatherv_exchanged),
    variant<WB_COLL_ALLGATHER>("allgatherv", "counts_exchanged_uninit",
                               "c/allgatherv/counts_exchanged", call_allgatherv_exchanged_uninit),
    variant<WB_COLL_ALLGATHER>("allgatherv", "counts_exchanged_reuse",
                               "c/allgatherv/counts_exchanged", call_allgatherv_exchanged_reuse),
#endif
#if WB_HAS_ALLTOALL
    variant<WB_COLL_ALLTOALL>("alltoall", "vector", "c/alltoall/builtin", call_alltoall),
#endif
#if WB_HAS_ALLTOALL
    variant<WB_COLL_ALLTOALL>("alltoallv", "counts_given", "c/alltoallv/counts_given",
                              call_alltoallv),
    variant<WB_COLL_ALLTOALL>("alltoallv", "counts_layout", "c/alltoallv/counts_given",
                              call_alltoallv_layout),
#endif
#if WB_HAS_ALLTOALL
    variant<WB_COLL_ALLTOALL>("alltoallv", "counts_exchanged", "c/alltoallv/counts_exchanged",
                              call_alltoallv_exchanged),
    variant<WB_COLL_ALLTOALL>("alltoallv", "counts_exchanged_uninit",
                              "c/alltoallv/counts_exchanged", call_alltoallv_exchanged_uninit),
    variant<WB_COLL_ALLTOALL>("alltoallv", "counts_exchanged_reuse", "c/alltoallv/counts_exchanged",
                              call_alltoallv_exchanged_reuse),
#endif
#if WB_HAS_REDUCE_SCATTER
    variant<WB_COLL_REDUCE_SCATTER_BLOCK>("reduce_scatter_block", "plus",
                                          "c/reduce_scatter_block/sum", call_reduce_scatter_block),
#endif
#if WB_HAS_SCAN
    variant<WB_COLL_SCAN>("scan", "plus", "c/scan/sum", call_scan),
#endif
#if WB_HAS_PROGRAMS
    {"thinmpi", "sample_sort", "program", "c/sample_sort/program", WB_COLL_PROGRAM, setup_sort,
     call_sort, verify_sort, teardown_sort},
    {"thinmpi", "bfs", "program", "c/bfs/program", WB_COLL_PROGRAM, setup_bfs, call_bfs, verify_bfs,
     teardown_bfs},
#endif
    {nullptr, nullptr, nullptr, nullptr, WB_COLL_PROGRAM, nullptr, nullptr, nullptr, nullptr},
  };
  return std::span(variants).first(std::size(variants) - 1);  // the last keeps it non-empty
}

}  // namespace

#if defined(WB_THINMPI_CHECKED)
namespace {

/// The calls measured in the checked mode (op/form): the rooted and v-collectives of the suite
/// and one reduction, each of which agrees on its arguments first when checked.
constexpr std::string_view checked_calls[] = {"bcast/vector",
                                              "allreduce/plus",
                                              "allgatherv/counts_given",
                                              "allgatherv/counts_exchanged",
                                              "alltoallv/counts_given",
                                              "alltoallv/counts_exchanged"};

bool is_checked_call(const wb_coll_variant& v) {
  const std::string name = std::string(v.op) + "/" + v.form;
  return std::find(std::begin(checked_calls), std::end(checked_calls), name) !=
         std::end(checked_calls);
}

}  // namespace

/// The checked copy's table (libwb_thinmpi_coll_checked: the one symbol it exports).
extern "C" [[gnu::visibility("default")]] size_t wb_thinmpi_checked_coll_variants(
    const wb_coll_variant** table) {
  static const std::vector<wb_coll_variant> checked = [] {
    std::vector<wb_coll_variant> kept;
    for (const wb_coll_variant& v : own_variants())
      if (is_checked_call(v)) kept.push_back(v);
    return kept;
  }();
  *table = checked.data();
  return checked.size();
}
#else
#if defined(WB_HAVE_THINMPI_CHECKED_COLL)
extern "C" size_t wb_thinmpi_checked_coll_variants(const wb_coll_variant** table);
#endif

/// The harness's thinmpi table: this build's variants, then the checked copy's where it is
/// built (the harness lists one thinmpi table).
extern "C" size_t wb_thinmpi_coll_variants(const wb_coll_variant** table) {
  static const std::vector<wb_coll_variant> all = [] {
    const std::span<const wb_coll_variant> own = own_variants();
    std::vector<wb_coll_variant> listed(own.begin(), own.end());
#if defined(WB_HAVE_THINMPI_CHECKED_COLL)
    const wb_coll_variant* checked = nullptr;
    const std::size_t n = wb_thinmpi_checked_coll_variants(&checked);
    listed.insert(listed.end(), checked, checked + n);
#endif
    return listed;
  }();
  *table = all.data();
  return all.size();
}
#endif
