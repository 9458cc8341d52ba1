// The thinmpi variants of the neighbors suite: each is the call a user naturally writes,
// measured against the C variant that does the same thing (bench/kernels/c/c_neighbors.c; the
// topologies and the data are those of neighbors.h):
//
//   neighbor_alltoall/ring        graph_communicator ring(comm, {left, right}, {left, right});
//                                 ring.neighbor_alltoall(send, recv)
//   neighbor_alltoall/torus       cartesian_communicator torus(comm, dims_create(p, 2),
//                                 {true, true}); torus.neighbor_alltoall(send, recv)
//   neighbor_alltoallv/ring       neighbor_alltoallv(send, counts, displs, recv, counts, displs)
//   neighbor_alltoallv/torus
//   cart_create/torus             a cartesian_communicator of dims_create(p, 2), destroyed
//   sparse_exchange/nbx           comm.sparse_exchange_into(messages, tag, place): each message
//                                 received where place(source, count) says, the end of one
//                                 reused buffer, as the C version receives (no copy)
//   sparse_exchange/nbx_pairs     comm.sparse_exchange(messages, tag): a new vector of
//                                 (source, std::vector<int>) sorted by source per call
//   sparse_exchange/alltoallv     comm.alltoallv(send, counts, kept, exchange_counts) into a
//                                 thinmpi::varying whose counts and displacements are kept
//                                 from call to call and whose data (not zeroed) is dropped
//                                 before each call, as C keeps its count arrays and mallocs
//                                 the received data each call (C: MPI_Alltoall of the counts,
//                                 MPI_Alltoallv into fresh memory)
//
// and the program thinmpi/halo_2d/program (examples/halo_2d.hpp) against
// bench/programs/halo_2d.c. Built only when this file compiles against the tree's thinmpi
// (bench/cmake/WbNeighbors.cmake tries it).
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "coll_variant.h"
#include "cxx_variant.hpp"
#include "halo_2d.hpp"
#include "neighbors.h"
#include "programs.h"
#include "thinmpi/thinmpi.hpp"

namespace {

/// Names this suite's kernels when a call fails (wb_cxx::in_call; wb_cxx::in_setup fails a
/// setup).
constexpr const char* api = "thinmpi neighbors";

/// A neighborhood collective on the ring or the torus (Topology: graph_communicator or
/// cartesian_communicator).
template <class Topology>
struct topology_state {
  Topology comm;
  std::vector<int> neighbors;  ///< the rank of each slot (for the check)
  int count;
  int size;  ///< the ranks, read once at setup as the C variants keep them
  std::vector<int> send, recv, counts, displs;
};

thinmpi::graph_communicator make_ring(thinmpi::comm_view comm, std::vector<int>& neighbors) {
  neighbors.resize(2);
  wb_ring_neighbors(comm.rank(), comm.size(), neighbors.data());
  return thinmpi::graph_communicator(comm, {neighbors[0], neighbors[1]},
                                     {neighbors[0], neighbors[1]});
}

thinmpi::cartesian_communicator make_torus(thinmpi::comm_view comm, std::vector<int>& neighbors) {
  thinmpi::cartesian_communicator torus(comm, thinmpi::dims_create(comm.size(), 2), {true, true});
  for (int d = 0; d < 2; ++d) {
    const auto [source, dest] = torus.shift(d, 1);
    neighbors.push_back(source);
    neighbors.push_back(dest);
  }
  return torus;
}

template <class Topology>
void* setup_topology(MPI_Comm raw, std::size_t count) noexcept {
  return wb_cxx::in_setup([&]() -> void* {
    const thinmpi::comm_view comm(raw);
    std::vector<int> neighbors;
    Topology topology;
    if constexpr (std::is_same_v<Topology, thinmpi::graph_communicator>) {
      topology = make_ring(comm, neighbors);
    } else {
      topology = make_torus(comm, neighbors);
    }
    const auto degree = neighbors.size();
    auto* s = new topology_state<Topology>{std::move(topology),
                                           neighbors,
                                           static_cast<int>(count),
                                           comm.size(),
                                           std::vector<int>(degree * count),
                                           std::vector<int>(degree * count),
                                           {},
                                           {}};
    wb_neighbor_fill(comm.rank(), static_cast<int>(degree), count, s->send.data());
    for (std::size_t k = 0; k < degree; ++k) {
      s->counts.push_back(s->count);
      s->displs.push_back(static_cast<int>(k) * s->count);
    }
    return s;
  });
}

template <class Topology>
void call_alltoall(void* p) {
  wb_cxx::in_call(api, [p] {
    auto& s = *static_cast<topology_state<Topology>*>(p);
    s.comm.neighbor_alltoall(s.send, s.recv);
  });
}

template <class Topology>
void call_alltoallv(void* p) {
  wb_cxx::in_call(api, [p] {
    auto& s = *static_cast<topology_state<Topology>*>(p);
    s.comm.neighbor_alltoallv(s.send, s.counts, s.displs, s.recv, s.counts, s.displs);
  });
}

/// A new torus per call, freed at once: what making the topology costs.
void call_cart_create(void* p) {
  wb_cxx::in_call(api, [p] {
    auto& s = *static_cast<topology_state<thinmpi::cartesian_communicator>*>(p);
    const thinmpi::cartesian_communicator torus(s.comm, thinmpi::dims_create(s.size, 2),
                                                {true, true});
  });
}

template <class Topology>
int verify_topology(void* p) {
  const auto& s = *static_cast<topology_state<Topology>*>(p);
  return wb_neighbor_check(s.neighbors.data(), static_cast<int>(s.neighbors.size()),
                           static_cast<std::size_t>(s.count), s.recv.data());
}

int verify_nothing(void*) {
  return 0;
}

template <class Topology>
void teardown_topology(void* p) {
  delete static_cast<topology_state<Topology>*>(p);
}

/// The sparse exchange's send and receive buffers: page-aligned memory from wb_sparse_buffer,
/// as C's (neighbors.h says why), left uninitialized by resize as C's malloc'd memory is.
template <class T>
struct sparse_allocator {
  using value_type = T;
  sparse_allocator() = default;
  template <class U>
  explicit sparse_allocator(const sparse_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    void* room = wb_sparse_buffer((n * sizeof(T) + sizeof(int) - 1) / sizeof(int));
    if (room == nullptr) throw std::bad_alloc();
    return static_cast<T*>(room);
  }
  void deallocate(T* room, std::size_t) noexcept { std::free(room); }
  template <class U, class... Args>
  void construct(U* at, Args&&... args) {
    if constexpr (sizeof...(Args) == 0) {
      ::new (static_cast<void*>(at)) U;  // default-initialized: no zeroing
    } else {
      ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
    }
  }
  bool operator==(const sparse_allocator&) const noexcept = default;
};
using sparse_buffer = std::vector<int, sparse_allocator<int>>;

/// The sparse exchange: the messages (spans into `send`), and what the last call received.
struct sparse_state {
  thinmpi::comm_view comm;
  int count;
  sparse_buffer send;
  std::vector<std::pair<int, std::span<const int>>> messages;  ///< the NBX forms' input
  std::vector<int> sendcounts;                                 ///< the dense form's, per rank
  std::vector<int> sources;                                    ///< per message received
  sparse_buffer received;                                      ///< room for 2 from setup on
  /// The dense form's result: counts and displacements kept, data new each call (as C's).
  thinmpi::varying<int, std::vector<int, thinmpi::default_init_allocator<int>>> dense;
  int round = 0;  ///< which of the two tags the next call uses
};

void* setup_sparse(MPI_Comm raw, std::size_t count) noexcept {
  return wb_cxx::in_setup([&]() -> void* {
    const thinmpi::comm_view comm(raw);
    const int rank = comm.rank(), size = comm.size();
    int destinations[2];
    const int n = wb_sparse_destinations(rank, size, destinations);
    if (n == 2 && destinations[1] < destinations[0]) std::swap(destinations[0], destinations[1]);
    auto* s = new sparse_state{comm, static_cast<int>(count), {}, {}, {}, {}, {}, {}, {}};
    s->send.reserve(2 * count);
    s->received.reserve(2 * count);  // what a rank receives: 2 messages at most
    s->sendcounts.assign(static_cast<std::size_t>(size), 0);
    for (int k = 0; k < n; ++k) {
      const int d = destinations[k];
      for (std::size_t i = 0; i < count; ++i)
        s->send.push_back(wb_coll_value(rank, static_cast<std::size_t>(d) * count + i));
      s->sendcounts[static_cast<std::size_t>(d)] = s->count;
    }
    for (int k = 0; k < n; ++k)
      s->messages.emplace_back(destinations[k], std::span<const int>(s->send).subspan(
                                                    static_cast<std::size_t>(k) * count, count));
    return s;
  });
}

int next_tag(sparse_state& s) {
  const int tag = WB_SPARSE_TAG + s.round;
  s.round ^= 1;
  return tag;
}

void call_nbx(void* p) {
  wb_cxx::in_call(api, [p] {
    auto& s = *static_cast<sparse_state*>(p);
    s.sources.clear();
    s.received.clear();
    s.comm.sparse_exchange_into(s.messages, next_tag(s), [&s](int source, std::size_t count) {
      s.sources.push_back(source);
      s.received.resize(s.received.size() + count);
      return std::span<int>(s.received).last(count);
    });
  });
}

void call_nbx_pairs(void* p) {
  wb_cxx::in_call(api, [p] {
    auto& s = *static_cast<sparse_state*>(p);
    const auto got = s.comm.sparse_exchange(s.messages, next_tag(s));
    s.sources.clear();
    s.received.clear();
    for (const auto& [source, data] : got) {
      s.sources.push_back(source);
      s.received.insert(s.received.end(), data.begin(), data.end());
    }
  });
}

void call_dense(void* p) {
  wb_cxx::in_call(api, [p] {
    auto& s = *static_cast<sparse_state*>(p);
    s.dense.data = decltype(s.dense.data)();  // the last result freed before the call, as in C
    s.comm.alltoallv(s.send, s.sendcounts, s.dense, thinmpi::exchange_counts);
  });
}

/// The messages in increasing source order (the callback form gets them in arrival order).
int verify_sparse(void* p) {
  auto& s = *static_cast<sparse_state*>(p);
  const auto count = static_cast<std::size_t>(s.count);
  std::vector<int> sources, received;
  if (!s.dense.counts.empty()) {
    for (std::size_t r = 0; r < s.dense.counts.size(); ++r)
      if (s.dense.counts[r] > 0) sources.push_back(static_cast<int>(r));
    received.assign(s.dense.data.begin(), s.dense.data.end());
  } else {
    std::vector<std::size_t> order(s.sources.size());
    for (std::size_t m = 0; m < order.size(); ++m)
      order[m] = m;
    std::sort(order.begin(), order.end(),
              [&s](std::size_t a, std::size_t b) { return s.sources[a] < s.sources[b]; });
    for (const std::size_t m : order) {
      sources.push_back(s.sources[m]);
      const auto first = s.received.begin() + static_cast<std::ptrdiff_t>(m * count);
      received.insert(received.end(), first, first + static_cast<std::ptrdiff_t>(count));
    }
  }
  if (received.size() != sources.size() * count) return 1;
  return wb_sparse_check(s.comm.rank(), s.comm.size(), count, sources.data(),
                         static_cast<int>(sources.size()), received.data());
}

void teardown_sparse(void* p) {
  delete static_cast<sparse_state*>(p);
}

/// thinmpi/halo_2d/program: examples/halo_2d.hpp, checked by a sequential computation.
struct halo_state {
  halo_example::grid grid;
  int n;
  std::vector<int> dims, coords;
  std::vector<double> u, next, expected;
  int sweeps = 0;
};

void* setup_halo(MPI_Comm raw, std::size_t count) noexcept {
  return wb_cxx::in_setup([&]() -> void* {
    if (count == 0 || count > 4096) return nullptr;
    auto* s = new halo_state{
        halo_example::grid(thinmpi::comm_view(raw)), static_cast<int>(count), {}, {}, {}, {}, {}};
    s->dims = s->grid.comm.dims();
    s->coords = s->grid.comm.coords();
    s->expected = halo_example::sequential_block(s->dims, s->coords, s->n, WB_HALO_STEPS);
    return s;
  });
}

void call_halo(void* p) {
  wb_cxx::in_call(api, [p] {
    auto& s = *static_cast<halo_state*>(p);
    const int n = s.n;
    halo_example::fill(s.u, n, n, s.coords[0] * n, s.coords[1] * n, s.dims[0] * n, s.dims[1] * n);
    s.sweeps = halo_example::solve(s.grid, s.u, s.next, n, WB_HALO_STEPS, WB_HALO_TOLERANCE);
  });
}

int verify_halo(void* p) {
  const auto& s = *static_cast<halo_state*>(p);
  return s.sweeps == WB_HALO_STEPS && halo_example::interior(s.u, s.n) == s.expected ? 0 : 1;
}

void teardown_halo(void* p) {
  delete static_cast<halo_state*>(p);
}

using ring = thinmpi::graph_communicator;
using torus = thinmpi::cartesian_communicator;

template <class Topology>
constexpr wb_coll_variant topology_variant(const char* op, const char* form, const char* baseline,
                                           void (*call)(void*), int (*verify)(void*)) {
  return {"thinmpi",
          op,
          form,
          baseline,
          WB_COLL_SELF_CHECKED,
          setup_topology<Topology>,
          call,
          verify,
          teardown_topology<Topology>};
}

constexpr wb_coll_variant sparse_variant(const char* form, const char* baseline,
                                         void (*call)(void*)) {
  return {"thinmpi", "sparse_exchange",    form,
          baseline,  WB_COLL_SELF_CHECKED, setup_sparse,
          call,      verify_sparse,        teardown_sparse};
}

}  // namespace

extern "C" size_t wb_thinmpi_neighbor_variants(const wb_coll_variant** table) {
  static const wb_coll_variant variants[] = {
      topology_variant<ring>("neighbor_alltoall", "ring", "c/neighbor_alltoall/ring",
                             call_alltoall<ring>, verify_topology<ring>),
      topology_variant<torus>("neighbor_alltoall", "torus", "c/neighbor_alltoall/torus",
                              call_alltoall<torus>, verify_topology<torus>),
      topology_variant<ring>("neighbor_alltoallv", "ring", "c/neighbor_alltoallv/ring",
                             call_alltoallv<ring>, verify_topology<ring>),
      topology_variant<torus>("neighbor_alltoallv", "torus", "c/neighbor_alltoallv/torus",
                              call_alltoallv<torus>, verify_topology<torus>),
      topology_variant<torus>("cart_create", "torus", "c/cart_create/torus", call_cart_create,
                              verify_nothing),
      sparse_variant("nbx", "c/sparse_exchange/nbx", call_nbx),
      sparse_variant("nbx_pairs", "c/sparse_exchange/nbx", call_nbx_pairs),
      sparse_variant("alltoallv", "c/sparse_exchange/alltoallv", call_dense),
      {"thinmpi", "halo_2d", "program", "c/halo_2d/program", WB_COLL_PROGRAM, setup_halo, call_halo,
       verify_halo, teardown_halo},
  };
  *table = variants;
  return sizeof variants / sizeof variants[0];
}
