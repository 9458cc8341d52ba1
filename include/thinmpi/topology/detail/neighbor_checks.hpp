#pragma once
/// \file
/// The checks of the neighborhood collectives, made before MPI is called: an array given per
/// neighbor has one entry per in- or out-neighbor (MPI_ERR_ARG naming it), and a buffer of
/// equal blocks splits into one block per neighbor. The counts and displacements themselves
/// go through the v-collectives' checks (collectives/detail/displacements.hpp).
///
/// Every argument of a neighborhood collective is this rank's own: no other rank passes it,
/// and the neighbors are inside the collective already, or will be. So each check is in the
/// classes of collectives/detail/root_checks.hpp: a receive buffer too small for a known layout
/// completes into scratch (blocking forms) and then throws; anything else this rank cannot do
/// its part with ends the job (local_checks); checked (THINMPI_CHECKED_COLLECTIVES=1) every
/// rank of the topology throws together (agree_if_checked before the MPI call).
///
///     const v_layout layout = neighbor_layout(call, in_neighbors(d), counts, nullptr, ...);
///     check_receive_room(call, room, layout.extent, type, "the sum of recvcounts", into);
///     agree_if_checked(call);

#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <string>
#include <vector>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/collectives/detail/v_calls.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi::detail {

/// One side of a neighborhood: how many neighbors, and what they are called in an error.
struct neighbor_side {
  int degree;
  const char* one;   ///< "in-neighbor" or "out-neighbor"
  const char* name;  ///< "in-neighbors" or "out-neighbors"

  /// "1 in-neighbor", "4 in-neighbors"
  [[nodiscard]] std::string counted_degree() const {
    return counted(static_cast<std::size_t>(degree), one, name);
  }
};

/// The in-neighbors a topology receives from, in MPI's order.
[[nodiscard]] inline neighbor_side in_neighbors(int degree) noexcept {
  return {degree, "in-neighbor", "in-neighbors"};
}
/// The out-neighbors a topology sends to, in MPI's order.
[[nodiscard]] inline neighbor_side out_neighbors(int degree) noexcept {
  return {degree, "out-neighbor", "out-neighbors"};
}

/// The error of check_per_neighbor.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_per_neighbor(const collective_call& call,
                                                                      std::size_t entries,
                                                                      neighbor_side side,
                                                                      const char* what) {
  raise_collective(MPI_ERR_ARG, call, std::nullopt, MPI_DATATYPE_NULL,
                   std::string(what) + " has " + counted(entries, "entry", "entries") +
                       "; the topology has " + side.counted_degree());
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
  raise_collective(
      MPI_ERR_COUNT, call, count, type,
      std::string("the ") + which + " of " + describe_elements(count, type) + " is not " +
          counted(static_cast<std::size_t>(side.degree), "equal block", "equal blocks") +
          ", one for each of the topology's " + side.name);
}

/// The block of each neighbor when `count` elements are one equal block per neighbor of
/// `side`. Unless they divide evenly (a rank with no such neighbors must pass none) the job
/// ends: the buffer is this rank's own, and its neighbors would wait for, or be handed, blocks
/// of another size (checked: every rank throws).
[[gnu::always_inline]] inline std::size_t neighbor_block(const collective_call& call,
                                                         std::size_t count, MPI_Datatype type,
                                                         neighbor_side side, const char* which) {
  const auto blocks = static_cast<std::size_t>(side.degree);
  if (blocks == 0 ? count != 0 : count % blocks != 0) [[unlikely]] {
    failed_check(call, [=] { raise_uneven_neighbors(call, count, type, side, which); });
  }
  return blocks == 0 ? 0 : count / blocks;
}

/// Checks one side of a neighborhood v-collective before MPI is called: `counts` (and
/// `displs`, if given) one entry per neighbor of `side`, none negative. Without displacements,
/// writes the blocks laid end to end into `packed` (left empty past INT_MAX: fits_int false).
/// Returns the extent the blocks span. The arrays are this rank's own: a failure ends the job
/// (local_checks; checked: every rank throws).
inline v_layout neighbor_layout(const collective_call& call, neighbor_side side,
                                std::span<const int> counts, const std::span<const int>* displs,
                                const char* counts_name, const char* displs_name,
                                std::vector<int>& packed) {
  v_layout layout;
  local_checks(call, [&] {
    check_per_neighbor(call, counts.size(), side, counts_name);
    if (displs != nullptr) {
      check_per_neighbor(call, displs->size(), side, displs_name);
      layout = given_layout(call, counts, *displs, side.degree, counts_name, displs_name);
    } else {
      layout = packed_displacements(call, counts, side.degree, counts_name, packed);
    }
  });
  return layout;
}

/// This rank's count `count` fits the int a nonblocking or persistent call (or a count
/// exchange) takes; past it the job ends, the neighbors would wait for this rank's part
/// (checked: every rank throws).
[[gnu::always_inline]] inline void neighbor_count_fits(const collective_call& call,
                                                       std::size_t count, MPI_Datatype type) {
  if (!fits_int(count)) [[unlikely]] {
    failed_check(call, [=] { raise_int_count(call, count, type); });
  }
}

/// Packed displacements past INT_MAX with no `_c` call to take them (Open MPI 4.1): checked
/// before MPI is called, and this rank's own, so the job ends (checked: every rank throws).
/// `large_call` names the `_c` call the blocking form would use; nullptr for the nonblocking
/// and persistent forms, which take int counts only.
inline void neighbor_layout_fits(const collective_call& call, const v_layout& layout,
                                 MPI_Datatype type, const char* why, const char* large_call) {
  if (large_call != nullptr) {
    if (!THINMPI_HAS_LARGE_COUNT_CALLS && !layout.fits_int) [[unlikely]] {
      failed_check(call, [=] { raise_past_int(call, layout.extent, type, why, large_call); });
    }
  } else if (!layout.fits_int) [[unlikely]] {
    failed_check(call, [=] { raise_int_count(call, layout.extent, type); });
  }
}

/// Exchanged counts (a neighbor's count, received) whose blocks pass INT_MAX: thinmpi::varying
/// holds int displacements. Found by this rank alone after the count exchange, while its
/// neighbors go on to the data call: the job ends (checked: a second agreement, so every rank
/// throws; agree_if_checked follows on the ranks that pass).
inline void check_exchanged_fit(const collective_call& call, const v_layout& layout,
                                MPI_Datatype type) {
  if (!layout.fits_int) [[unlikely]] {
    failed_check(call, [=] { raise_varying_past_int(layout, call, type); });
  }
  agree_if_checked(call);
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
