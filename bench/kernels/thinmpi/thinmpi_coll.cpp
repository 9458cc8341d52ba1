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
//                                    thinmpi::varying kept from call to call (no allocation),
//                                    vs c/allgatherv/counts_exchanged_reuse (C keeping its arrays)
//   alltoall/vector              alltoall(send, recv)
//   alltoallv/counts_given       alltoallv(send, counts, displs, recv, counts, displs)
//   alltoallv/counts_layout      alltoallv(send, layout, recv, layout), as allgatherv's
//   alltoallv/counts_exchanged   alltoallv(send, counts, thinmpi::exchange_counts)
//   alltoallv/counts_exchanged_uninit  alltoallv<uninit>(...), as allgatherv's
//   alltoallv/counts_exchanged_reuse  alltoallv(send, counts, kept, exchange_counts), vs
//                                    c/alltoallv/counts_exchanged_reuse
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
#include <cstdint>
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
#include "cxx_coll_variant.hpp"
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

/// thinmpi's adapter to the collectives harness (cxx_coll_variant.hpp): a comm_view on the
/// harness's communicator; what the v-collectives, the *_uninit, *_layout and *_reuse variants
/// and the stateful lambda keep between calls.
struct adapter {
  static constexpr const char* api = WB_API;
  static constexpr bool reports_by_exception = true;
  using communicator = thinmpi::comm_view;
  static communicator attach(MPI_Comm comm) { return thinmpi::comm_view(comm); }

  struct coll_kept {
    std::vector<int, thinmpi::default_init_allocator<int>> grown;  ///< the *_uninit results
    std::vector<int> counts;
    std::vector<int> displs;
    int bias = wb_coll_bias;
    std::optional<thinmpi::block_layout> layout{};  ///< counts and displs, for *_layout variants
    thinmpi::varying<int> result{};                 ///< the *_reuse variants' result
  };
  static coll_kept make_coll_kept(std::size_t count, int size) {
    coll_kept kept;
    for (int r = 0; r < size; ++r) {
      kept.counts.push_back(static_cast<int>(count));
      kept.displs.push_back(r * static_cast<int>(count));
    }
#if WB_HAS_ALLGATHER || WB_HAS_ALLTOALL
    kept.layout.emplace(kept.counts, kept.displs);
#endif
    return kept;
  }
};

using state = wb_cxx::coll_state<adapter>;

#if WB_HAS_BCAST
void call_bcast(state& s) {
  s.comm.bcast(s.recv, 0);
}
#endif
#if WB_HAS_REDUCE
void call_allreduce_plus(state& s) {
  s.comm.allreduce(s.send, s.recv, std::plus<>{});
}
void call_allreduce_lambda(state& s) {
  s.comm.allreduce(s.send, s.recv, [](int a, int b) { return a + b; });
}
void call_allreduce_lambda_commutative(state& s) {
  s.comm.allreduce(s.send, s.recv, thinmpi::commutative([](int a, int b) { return a + b; }));
}
void call_allreduce_lambda_state(state& s) {
  const int bias = s.kept.bias;
  s.comm.allreduce(s.send, s.recv,
                   thinmpi::commutative([bias](int a, int b) { return a + b + bias; }));
}
#endif

/// The names of a family measured in the same six forms, allgather/allgatherv's and
/// alltoall/alltoallv's: the plain call (vector), and the v-call with the counts given
/// (counts_given), in a block_layout (counts_layout), exchanged into a new vector
/// (counts_exchanged), into an uninitialized one (counts_exchanged_uninit) or into one kept
/// (counts_exchanged_reuse); each against its C baseline (the kept form against C that keeps
/// its arrays too: `exchanged` + "_reuse").
struct family_names {
  const char* op;               ///< the plain call's op (allgather)
  const char* v_op;             ///< the v-call's (allgatherv)
  const char* builtin;          ///< the plain call's baseline
  const char* given;            ///< counts_given's and counts_layout's
  const char* exchanged;        ///< counts_exchanged's and counts_exchanged_uninit's
  const char* exchanged_reuse;  ///< counts_exchanged_reuse's
};

#if WB_HAS_ALLGATHER
struct allgather_calls {
  static void plain(state& s) { s.comm.allgather(s.send, s.recv); }
  static void given(state& s) { s.comm.allgatherv(s.send, s.recv, s.kept.counts, s.kept.displs); }
  static void layout(state& s) { s.comm.allgatherv(s.send, s.recv, *s.kept.layout); }
  static void exchanged(state& s) {
    // The last result goes before the call, as in C (and in a loop's scope).
    s.recv = std::vector<int>();
    s.recv = s.comm.allgatherv(s.send, thinmpi::exchange_counts).data;
  }
  static void exchanged_uninit(state& s) {
    s.kept.grown = decltype(s.kept.grown)();
    s.kept.grown = s.comm.allgatherv<decltype(s.kept.grown)>(s.send, thinmpi::exchange_counts).data;
  }
  static void exchanged_reuse(state& s) {
    s.comm.allgatherv(s.send, s.kept.result, thinmpi::exchange_counts);
  }
};
#endif
#if WB_HAS_ALLTOALL
struct alltoall_calls {
  static void plain(state& s) { s.comm.alltoall(s.send, s.recv); }
  static void given(state& s) {
    s.comm.alltoallv(s.send, s.kept.counts, s.kept.displs, s.recv, s.kept.counts, s.kept.displs);
  }
  static void layout(state& s) { s.comm.alltoallv(s.send, *s.kept.layout, s.recv, *s.kept.layout); }
  static void exchanged(state& s) {
    s.recv = std::vector<int>();
    s.recv = s.comm.alltoallv(s.send, s.kept.counts, thinmpi::exchange_counts).data;
  }
  static void exchanged_uninit(state& s) {
    s.kept.grown = decltype(s.kept.grown)();
    s.kept.grown =
        s.comm.alltoallv<decltype(s.kept.grown)>(s.send, s.kept.counts, thinmpi::exchange_counts)
            .data;
  }
  static void exchanged_reuse(state& s) {
    s.comm.alltoallv(s.send, s.kept.counts, s.kept.result, thinmpi::exchange_counts);
  }
};
#endif
#if WB_HAS_REDUCE_SCATTER
void call_reduce_scatter_block(state& s) {
  s.comm.reduce_scatter_block(s.send, s.recv, std::plus<>{});
}
#endif
#if WB_HAS_SCAN
void call_scan(state& s) {
  s.comm.scan(s.send, s.recv, std::plus<>{});
}

#endif
int verify(void* p) {
  const auto& s = *static_cast<const state*>(p);
  const std::span<const int> got = !s.kept.result.data.empty()
                                       ? std::span<const int>(s.kept.result.data)
                                   : s.kept.grown.empty() ? std::span<const int>(s.recv)
                                                          : s.kept.grown;
  if (got.size() != wb_coll_received(s.kind, s.size, s.count)) return 1;
  return wb_coll_check(s.kind, s.rank, s.size, s.count, got.data());
}

#if WB_HAS_PROGRAMS
/// thinmpi/sample_sort/program: examples/sample_sort.hpp on bench/programs' input.
struct sort_state {
  thinmpi::comm_view comm;
  std::vector<int> input;
  std::vector<int> sorted;
  std::uint64_t calls = 0;
};

void* setup_sort(MPI_Comm comm, std::size_t count) noexcept {
  return wb_cxx::in_setup([&]() -> void* {
    auto* s = new sort_state{thinmpi::comm_view(comm), std::vector<int>(count), {}};
    for (std::size_t i = 0; i < count; ++i)
      s->input[i] = wb_sort_input(s->comm.rank(), count, i);
    return s;
  });
}

void call_sort(void* p) {
  wb_cxx::in_call("thinmpi collective", [p] {
    auto& s = *static_cast<sort_state*>(p);
    wb_sort_next_input(s.sorted, s.input, s.calls);
    sample_sort_example::sort(s.comm, s.sorted, 42);
  });
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
  bfs_example::vertex vertices;  ///< of the whole graph: local_n per rank
  std::vector<std::vector<bfs_example::vertex>> found;
  std::vector<int> levels;
  std::uint64_t calls = 0;  ///< calls made
  std::uint64_t root = 0;   ///< the last call's root (wb_bfs_root)
};

void* setup_bfs(MPI_Comm comm, std::size_t count) noexcept {
  return wb_cxx::in_setup([&]() -> void* {
    const thinmpi::comm_view view(comm);
    return new bfs_state{bfs_example::make_partition(view, count),
                         count,
                         count * static_cast<bfs_example::vertex>(view.size()),
                         {},
                         {}};
  });
}

void call_bfs(void* p) {
  wb_cxx::in_call("thinmpi collective", [p] {
    auto& s = *static_cast<bfs_state*>(p);
    s.root = wb_bfs_root(s.vertices, s.calls++);
    s.levels = bfs_example::bfs(s.part, s.local_n, s.root, s.found);
  });
}

int verify_bfs(void* p) {
  const auto& s = *static_cast<bfs_state*>(p);
  const auto all = bfs_example::sequential_bfs(s.vertices, s.root);
  const auto first = all.begin() + static_cast<std::ptrdiff_t>(s.local_n) * s.part.graph.rank();
  return std::equal(s.levels.begin(), s.levels.end(), first,
                    first + static_cast<std::ptrdiff_t>(s.local_n))
             ? 0
             : 1;
}

void teardown_bfs(void* p) {
  delete static_cast<bfs_state*>(p);
}
#endif

/// A table entry: wb_cxx's, with this file's verify, which reads the result where the variant
/// left it (recv, the *_uninit vector or the *_reuse one).
template <wb_coll_kind Kind, void (*Call)(state&)>
constexpr wb_coll_variant variant(const char* op, const char* form, const char* baseline) {
  return wb_cxx::coll_variants<adapter>::of<Kind, Call, verify>(op, form, baseline);
}

/// The six forms of a family (family_names) in that order, Calls' calls.
template <wb_coll_kind Kind, class Calls>
void add_family(std::vector<wb_coll_variant>& table, const family_names& n) {
  table.push_back(variant<Kind, Calls::plain>(n.op, "vector", n.builtin));
  table.push_back(variant<Kind, Calls::given>(n.v_op, "counts_given", n.given));
  table.push_back(variant<Kind, Calls::layout>(n.v_op, "counts_layout", n.given));
  table.push_back(variant<Kind, Calls::exchanged>(n.v_op, "counts_exchanged", n.exchanged));
  table.push_back(
      variant<Kind, Calls::exchanged_uninit>(n.v_op, "counts_exchanged_uninit", n.exchanged));
  table.push_back(
      variant<Kind, Calls::exchanged_reuse>(n.v_op, "counts_exchanged_reuse", n.exchanged_reuse));
}

/// Every variant of this build (the unchecked table, or the checked copy's before it keeps only
/// `checked_calls`).
std::span<const wb_coll_variant> own_variants() {
  static const std::vector<wb_coll_variant> variants = [] {
    std::vector<wb_coll_variant> table;
#if WB_HAS_BCAST
    table.push_back(variant<WB_COLL_BCAST, call_bcast>("bcast", "vector", "c/bcast/builtin"));
#endif
#if WB_HAS_REDUCE
    table.push_back(
        variant<WB_COLL_ALLREDUCE, call_allreduce_plus>("allreduce", "plus", "c/allreduce/sum"));
    table.push_back(variant<WB_COLL_ALLREDUCE, call_allreduce_lambda>(
        "allreduce", "lambda", "c/allreduce/user_fn_noncommute"));
    table.push_back(variant<WB_COLL_ALLREDUCE, call_allreduce_lambda_commutative>(
        "allreduce", "lambda_commutative", "c/allreduce/user_fn"));
    table.push_back(variant<WB_COLL_ALLREDUCE, call_allreduce_lambda_state>(
        "allreduce", "lambda_state", "c/allreduce/user_fn_state"));
#endif
#if WB_HAS_ALLGATHER
    add_family<WB_COLL_ALLGATHER, allgather_calls>(
        table, {"allgather", "allgatherv", "c/allgather/builtin", "c/allgatherv/counts_given",
                "c/allgatherv/counts_exchanged", "c/allgatherv/counts_exchanged_reuse"});
#endif
#if WB_HAS_ALLTOALL
    add_family<WB_COLL_ALLTOALL, alltoall_calls>(
        table, {"alltoall", "alltoallv", "c/alltoall/builtin", "c/alltoallv/counts_given",
                "c/alltoallv/counts_exchanged", "c/alltoallv/counts_exchanged_reuse"});
#endif
#if WB_HAS_REDUCE_SCATTER
    table.push_back(variant<WB_COLL_REDUCE_SCATTER_BLOCK, call_reduce_scatter_block>(
        "reduce_scatter_block", "plus", "c/reduce_scatter_block/sum"));
#endif
#if WB_HAS_SCAN
    table.push_back(variant<WB_COLL_SCAN, call_scan>("scan", "plus", "c/scan/sum"));
#endif
#if WB_HAS_PROGRAMS
    table.push_back({"thinmpi", "sample_sort", "program", "c/sample_sort/program", WB_COLL_PROGRAM,
                     setup_sort, call_sort, verify_sort, teardown_sort});
    table.push_back({"thinmpi", "bfs", "program", "c/bfs/program", WB_COLL_PROGRAM, setup_bfs,
                     call_bfs, verify_bfs, teardown_bfs});
#endif
    return table;
  }();
  return variants;
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
