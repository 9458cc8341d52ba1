#pragma once
/// \file
/// The checks of the neighborhood collectives, made before MPI is called: an array given per
/// neighbor has one entry per in- or out-neighbor (MPI_ERR_ARG naming it), and a buffer of
/// equal blocks splits into one block per neighbor. The counts and displacements themselves
/// go through the v-collectives' checks (collectives/detail/displacements.hpp).
///
///     check_per_neighbor(call, recvcounts.size(), in_neighbors(degrees), "recvcounts");

#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <string>
#include <vector>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi::detail {

/// One side of a neighborhood: how many neighbors, and what they are called in an error.
struct neighbor_side {
  int degree;
  const char* name;  ///< "in-neighbors" or "out-neighbors"
};

/// The in-neighbors a topology receives from, in MPI's order.
[[nodiscard]] inline neighbor_side in_neighbors(int degree) noexcept {
  return {degree, "in-neighbors"};
}
/// The out-neighbors a topology sends to, in MPI's order.
[[nodiscard]] inline neighbor_side out_neighbors(int degree) noexcept {
  return {degree, "out-neighbors"};
}

/// The error of check_per_neighbor.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_per_neighbor(const collective_call& call,
                                                                      std::size_t entries,
                                                                      neighbor_side side,
                                                                      const char* what) {
  raise_collective(MPI_ERR_ARG, call, std::nullopt, MPI_DATATYPE_NULL,
                   std::string(what) + " has " + std::to_string(entries) +
                       " entries; the topology has " + std::to_string(side.degree) + " " +
                       side.name);
}

/// Throws MPI_ERR_ARG, before MPI is called, unless an array given per neighbor (`what`, as
/// MPI names it: "recvcounts", "sdispls", "sendtypes") has one entry per neighbor of `side`.
[[gnu::always_inline]] inline void check_per_neighbor(const collective_call& call,
                                                      std::size_t entries, neighbor_side side,
                                                      const char* what) {
  if (entries != static_cast<std::size_t>(side.degree)) [[unlikely]] {
    raise_per_neighbor(call, entries, side, what);
  }
}

/// The error of neighbor_block.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_uneven_neighbors(
    const collective_call& call, std::size_t count, MPI_Datatype type, neighbor_side side,
    const char* which) {
  raise_collective(MPI_ERR_COUNT, call, count, type,
                   std::string("the ") + which + " of " + describe_elements(count, type) +
                       " is not " + std::to_string(side.degree) +
                       " equal blocks, one for each of the topology's " + side.name);
}

/// The block of each neighbor when `count` elements are one equal block per neighbor of
/// `side`; throws unless they divide evenly (a rank with no such neighbors must pass none).
[[gnu::always_inline]] inline std::size_t neighbor_block(const collective_call& call,
                                                         std::size_t count, MPI_Datatype type,
                                                         neighbor_side side, const char* which) {
  const auto blocks = static_cast<std::size_t>(side.degree);
  if (blocks == 0 ? count != 0 : count % blocks != 0) [[unlikely]] {
    raise_uneven_neighbors(call, count, type, side, which);
  }
  return blocks == 0 ? 0 : count / blocks;
}

/// Checks one side of a neighborhood v-collective before MPI is called: `counts` (and
/// `displs`, if given) one entry per neighbor of `side`, none negative. Without displacements,
/// writes the blocks laid end to end into `packed` (left empty past INT_MAX: fits_int false).
/// Returns the extent the blocks span.
inline v_layout neighbor_layout(const collective_call& call, neighbor_side side,
                                std::span<const int> counts, const std::span<const int>* displs,
                                const char* counts_name, const char* displs_name,
                                std::vector<int>& packed) {
  check_per_neighbor(call, counts.size(), side, counts_name);
  if (displs != nullptr) {
    check_per_neighbor(call, displs->size(), side, displs_name);
    return given_layout(call, counts, *displs, side.degree, counts_name, displs_name);
  }
  return packed_displacements(call, counts, side.degree, counts_name, packed);
}

/// A buffer of a neighborhood call as MPI gets it: never a null pointer, even with nothing in
/// it (MPICH 4.0.2 rejects a null buffer with MPI_ERR_BUFFER on a rank with no neighbors on
/// that side, where the block count is not 0).
template <class T>
[[nodiscard]] T* never_null(T* pointer) noexcept {
  alignas(std::max_align_t) static unsigned char nothing[sizeof(std::max_align_t)];
  return pointer != nullptr ? pointer : reinterpret_cast<T*>(nothing);
}
/// never_null of a buffer's address.
template <class Buffer>
requires requires(Buffer b) {
  b.data;
}
[[nodiscard]] Buffer never_null(Buffer buffer) noexcept {
  buffer.data = never_null(buffer.data);
  return buffer;
}

/// An array of a neighborhood call as MPI gets it: never a null pointer, even on a rank with no
/// neighbors on that side (Open MPI 4.1 rejects a null recvcounts or displs there with
/// MPI_ERR_BUFFER; MPICH 4.0.2's MPI_Neighbor_alltoallw reads through a null one and crashes).
template <class Array>
[[nodiscard]] auto array_of(const Array& array) noexcept {
  using element = std::ranges::range_value_t<Array>;
  static const element none{};
  return std::ranges::empty(array) ? &none : std::ranges::data(array);
}
/// The four arrays of a v-call, none of them a null pointer (array_of).
[[nodiscard]] inline v_spans arrays_of(const v_spans& given) noexcept {
  return {{array_of(given.send_counts), given.send_counts.size()},
          {array_of(given.send_displs), given.send_displs.size()},
          {array_of(given.recv_counts), given.recv_counts.size()},
          {array_of(given.recv_displs), given.recv_displs.size()}};
}

}  // namespace thinmpi::detail
