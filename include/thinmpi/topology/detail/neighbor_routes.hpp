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
/// rank only for its own lists, so no rank could choose alone: on MPICH 4.0, neighbor_alltoall on
/// any graph goes through MPI_Neighbor_alltoallv (right on graphs there), with equal blocks;
/// elsewhere graphs keep MPI's calls.

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

/// Whether neighbor_alltoall on a graph goes through MPI_Neighbor_alltoallv (MPICH 4.0).
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION >= 40000000 && MPICH_NUMVERSION < 40100000
inline constexpr bool graph_alltoall_as_alltoallv = true;
#else
inline constexpr bool graph_alltoall_as_alltoallv = false;
#endif

/// How a topology's neighborhood alltoalls run: a copy of it lives in every view.
struct neighbor_routes {
  std::uint16_t matched = 0;   ///< bit 3 * family + form: the matched exchange (Cartesian)
  bool alltoall_as_v = false;  ///< neighbor_alltoall through MPI_Neighbor_alltoallv (graphs)

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

/// The routes of a distributed graph.
[[nodiscard]] inline neighbor_routes graph_routes() noexcept {
  neighbor_routes routes;
  routes.alltoall_as_v = graph_alltoall_as_alltoallv;
  return routes;
}

/// The neighbors of the Cartesian grid on `comm` and how blocks to the same rank pair up: per
/// dimension the rank below then the rank above (MPI_Cart_shift by +1), the block in slot s
/// meeting the neighbor's slot s ^ 1 (a graph never takes the matched exchange: see above).
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
  return std::make_unique<routed_exchange>(comm, cartesian_pairing(comm, in_degree / 2), send, sent,
                                           received);
}

/// Whether neighbor_alltoall in `form` is routed on a topology of `routes`.
[[nodiscard, gnu::always_inline]] inline bool alltoall_routed(const neighbor_routes& routes,
                                                              neighbor_form form) noexcept {
  return routes.alltoall_as_v || routes.takes_matched(neighbor_family::alltoall, form);
}

}  // namespace thinmpi::detail
