#pragma once
/// \file
/// Which path each neighborhood alltoall takes on a topology, decided once when its view is
/// made, from the topology's shape and this MPI library's version.
///
/// Where no neighbor repeats, every form is the one MPI call (MPI_Neighbor_alltoall, ...). Where
/// one does (a periodic dimension of 1 or 2 ranks; a graph that names an edge twice), MPI
/// defines the pairing (collectives/detail/routed_exchange.hpp) and these libraries were
/// measured to get it wrong (tests/topology_order_test.cpp checks thinmpi against a reference
/// built from MPI_Cart_shift / the graph's lists and point-to-point; docs/library.md has the C
/// reproducer):
///
/// | library | Cartesian grid where a neighbor repeats | graph naming an edge twice |
/// |---|---|---|
/// | Open MPI 4.1.4 | blocking forms right (coll/basic, one tag per direction); nonblocking and
/// persistent alltoall/v/w wrong (coll/libnbc pairs in list order) | right | | MPICH 4.0.2 |
/// alltoallv/w wrong in every form; alltoall right unless two or more periodic dimensions have 1
/// rank (it receives in the reverse of the whole list) | alltoall wrong in every form (the same
/// reversal); alltoallv/w right |
///
/// So: on a Cartesian grid whose neighbors repeat, every form this library is not known to get
/// right takes the matched exchange (one MPI_Alltoallw, collectives/detail/routed_exchange.hpp); on
/// another MPI library or version, every form does. The shape (dims, periods) is the same on every
/// rank, so every rank takes the same path without a message. A graph's repeats are known to each
/// rank only for its own lists, so no rank could choose alone: on MPICH 4.0, a graph thinmpi makes
/// agrees whether any rank names an edge twice (one MPI_Allreduce when it is made) and then routes
/// every form of its neighbor_alltoall or none; a view of a graph made elsewhere spells the equal
/// blocks out in MPI_Neighbor_alltoallw (right on graphs there). Elsewhere graphs keep MPI's calls.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "thinmpi/collectives/detail/routed_exchange.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi::detail {

/// The neighborhood collectives whose pairing a repeated neighbor decides.
enum class neighbor_family : unsigned { alltoall = 0, alltoallv = 1, alltoallw = 2 };
/// Their forms.
enum class neighbor_form : unsigned { blocking = 0, nonblocking = 1, persistent = 2 };

/// Whether this MPI library pairs the blocks of `family` in `form` as MPI defines on a
/// Cartesian grid whose neighbors repeat, `self_dims` of its periodic dimensions having 1 rank.
[[nodiscard]] constexpr bool mpi_pairs_cartesian_repeats([[maybe_unused]] neighbor_family family,
                                                         [[maybe_unused]] neighbor_form form,
                                                         [[maybe_unused]] int self_dims) noexcept {
#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION == 4 && OMPI_MINOR_VERSION == 1
  return form == neighbor_form::blocking;
#elif defined(MPICH_NUMVERSION) && MPICH_NUMVERSION >= 40000000 && MPICH_NUMVERSION < 40100000
  return family == neighbor_family::alltoall && self_dims <= 1;
#else
  return false;
#endif
}

/// Whether this MPI library pairs neighbor_alltoall's blocks as MPI defines on a graph that
/// names an edge twice (MPICH 4.0 does not: it receives in the reverse of the list).
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION >= 40000000 && MPICH_NUMVERSION < 40100000
inline constexpr bool mpi_pairs_graph_alltoall_repeats = false;
#else
inline constexpr bool mpi_pairs_graph_alltoall_repeats = true;
#endif

/// How a topology's neighborhood alltoalls run: a copy of it lives in every view.
struct neighbor_routes {
  std::uint16_t matched = 0;   ///< bit 3 * family + form: the matched exchange
  bool graph = false;          ///< the pairing comes from the graph's lists (else the grid's)
  bool alltoall_as_v = false;  ///< neighbor_alltoall through MPI_Neighbor_alltoallw (a graph
                               ///< thinmpi did not make, on MPICH 4.0)

  /// Whether `family` in `form` takes the matched exchange.
  [[nodiscard, gnu::always_inline]] bool takes_matched(neighbor_family family,
                                                       neighbor_form form) const noexcept {
    const unsigned bit = 3U * static_cast<unsigned>(family) + static_cast<unsigned>(form);
    return ((matched >> bit) & 1U) != 0;
  }
};

/// The routes of a Cartesian grid of `dims`, periodic where `periods` is non-zero.
[[nodiscard]] inline neighbor_routes cartesian_routes(std::span<const int> dims,
                                                      std::span<const int> periods) {
  bool repeats = false;
  int self_dims = 0;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (periods[d] != 0 && dims[d] <= 2) repeats = true;
    if (periods[d] != 0 && dims[d] == 1) ++self_dims;
  }
  neighbor_routes routes;
  if (!repeats) return routes;
  for (unsigned family = 0; family < 3; ++family) {
    for (unsigned form = 0; form < 3; ++form) {
      if (!mpi_pairs_cartesian_repeats(static_cast<neighbor_family>(family),
                                       static_cast<neighbor_form>(form), self_dims)) {
        routes.matched = static_cast<std::uint16_t>(routes.matched | (1U << (3U * family + form)));
      }
    }
  }
  return routes;
}

/// The routes of a distributed graph thinmpi made, `repeats` agreed by every rank: where a
/// rank names an edge twice on a library that pairs neighbor_alltoall wrongly there, its every
/// form takes the matched exchange.
[[nodiscard]] inline neighbor_routes graph_routes(bool repeats) noexcept {
  neighbor_routes routes;
  routes.graph = true;
  if (repeats && !mpi_pairs_graph_alltoall_repeats) routes.matched = 0b111;  // alltoall's forms
  return routes;
}

/// The routes of a graph thinmpi did not make (a view of a communicator from elsewhere): no
/// rank can know whether another's lists repeat without a message, so where the library pairs
/// neighbor_alltoall wrongly on repeats, every neighbor_alltoall spells its equal blocks out in
/// MPI_Neighbor_alltoallw, which MPICH 4.0 pairs right on graphs.
[[nodiscard]] inline neighbor_routes foreign_graph_routes() noexcept {
  neighbor_routes routes;
  routes.graph = true;
  routes.alltoall_as_v = !mpi_pairs_graph_alltoall_repeats;
  return routes;
}

/// Whether a rank appears twice in `ranks` (MPI_PROC_NULL does not count).
[[nodiscard]] inline bool names_a_rank_twice(std::span<const int> ranks) {
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (ranks[i] == ranks[j] && ranks[i] != MPI_PROC_NULL) return true;
    }
  }
  return false;
}

/// The routes of a graph thinmpi has just made on `comm`, this rank's lists `sources` and
/// `destinations`: on a library that pairs neighbor_alltoall wrongly where an edge repeats
/// (MPICH 4.0), the ranks agree whether any of them names an edge twice (one MPI_Allreduce of
/// one int, part of making the graph there); elsewhere nothing is asked.
[[nodiscard]] inline neighbor_routes agreed_graph_routes(MPI_Comm comm,
                                                         std::span<const int> sources,
                                                         std::span<const int> destinations) {
  if constexpr (mpi_pairs_graph_alltoall_repeats) {
    static_cast<void>(comm);
    static_cast<void>(sources);
    static_cast<void>(destinations);
    return graph_routes(false);
  } else {
    const int mine = names_a_rank_twice(sources) || names_a_rank_twice(destinations) ? 1 : 0;
    int any = 0;
    check(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, comm),
          "MPI_Allreduce (whether a rank of the graph names an edge twice)", comm);
    return graph_routes(any != 0);
  }
}

/// The neighbors of the graph on `comm` in MPI's order (MPI_Dist_graph_neighbors) and how blocks
/// to the same rank pair up: the k-th edge to a rank meets the k-th edge from it.
[[nodiscard]] inline neighbor_pairing graph_pairing(MPI_Comm comm, int in_degree, int out_degree) {
  const auto in = static_cast<std::size_t>(in_degree);
  const auto out = static_cast<std::size_t>(out_degree);
  // One more entry each: a list of no elements still has an address; weights are read (a
  // weighted graph's may not be MPI_UNWEIGHTED) and dropped.
  neighbor_pairing pairing{std::vector<int>(in + 1), std::vector<int>(out + 1),
                           std::vector<int>(in), std::vector<int>(out)};
  std::vector<int> in_weights(in + 1);
  std::vector<int> out_weights(out + 1);
  check(MPI_Dist_graph_neighbors(comm, in_degree, pairing.sources.data(), in_weights.data(),
                                 out_degree, pairing.destinations.data(), out_weights.data()),
        "MPI_Dist_graph_neighbors", comm);
  pairing.sources.pop_back();
  pairing.destinations.pop_back();
  const auto occurrences = [](const std::vector<int>& ranks, std::vector<int>& keys) {
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      int earlier = 0;
      for (std::size_t j = 0; j < i; ++j)
        earlier += ranks[j] == ranks[i] ? 1 : 0;
      keys[i] = earlier;
    }
  };
  occurrences(pairing.sources, pairing.source_keys);
  occurrences(pairing.destinations, pairing.destination_keys);
  return pairing;
}

/// The neighbors of the Cartesian grid on `comm` and how blocks to the same rank pair up: per
/// dimension the rank below then the rank above (MPI_Cart_shift by +1), the block in slot s
/// meeting the neighbor's slot s ^ 1.
[[nodiscard]] inline neighbor_pairing cartesian_pairing(MPI_Comm comm, int ndims) {
  const auto slots = 2 * static_cast<std::size_t>(ndims);
  neighbor_pairing pairing{std::vector<int>(slots), std::vector<int>(slots),
                           std::vector<int>(slots), std::vector<int>(slots)};
  for (int d = 0; d < ndims; ++d) {
    const auto below = 2 * static_cast<std::size_t>(d);
    check(MPI_Cart_shift(comm, d, 1, &pairing.sources[below], &pairing.sources[below + 1]),
          "MPI_Cart_shift", comm);
  }
  pairing.destinations = pairing.sources;
  for (std::size_t s = 0; s < slots; ++s) {
    pairing.destination_keys[s] = static_cast<int>(s);
    pairing.source_keys[s] = static_cast<int>(s ^ 1U);
  }
  return pairing;
}

/// The routed exchange of `sent` (offsets from `send`) into `received` on a topology whose `family`
/// in this form takes one (neighbor_routes::takes_matched, or alltoall_as_v for neighbor_alltoall
/// on a graph): out of line, off the path of the topologies that keep MPI's call.
[[nodiscard, gnu::cold, gnu::noinline]] inline std::unique_ptr<routed_exchange> route(
    MPI_Comm comm, const neighbor_routes& routes, neighbor_family family, int in_degree,
    const void* send, std::span<const exchange_block> sent,
    std::span<const exchange_block> received) {
  if (family == neighbor_family::alltoall && routes.alltoall_as_v) {
    return std::make_unique<routed_exchange>(comm, send, sent, received);
  }
  const neighbor_pairing pairing =
      routes.graph ? graph_pairing(comm, in_degree, static_cast<int>(sent.size()))
                   : cartesian_pairing(comm, in_degree / 2);
  return std::make_unique<routed_exchange>(comm, pairing, send, sent, received);
}

/// Whether neighbor_alltoall in `form` is routed on a topology of `routes`.
[[nodiscard, gnu::always_inline]] inline bool alltoall_routed(const neighbor_routes& routes,
                                                              neighbor_form form) noexcept {
  return routes.alltoall_as_v || routes.takes_matched(neighbor_family::alltoall, form);
}

}  // namespace thinmpi::detail
