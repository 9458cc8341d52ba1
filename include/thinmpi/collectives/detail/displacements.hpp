#pragma once
/// \file
/// The counts and displacements of the v-collectives (allgatherv, alltoallv, gatherv,
/// scatterv), checked before MPI is called: one entry per rank, none negative, and the extent
/// the blocks span, summed in 64 bits so that a displacement past INT_MAX is seen (and sent to
/// the `_c` call, or reported with its size) instead of wrapping around.
///
///     std::vector<int> displs;
///     const v_layout layout = packed_displacements(call, counts, size, "recvcounts", displs);
///     check_room(call, room, layout.extent, type, "the sum of recvcounts");

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/narrow.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi::detail {

/// The counts and displacements of both sides of a v-collective, as MPI reads them (a side a
/// call does not read is empty: allgatherv sends one count and has no send displacements).
struct v_spans {
  std::span<const int> send_counts;
  std::span<const int> send_displs;
  std::span<const int> recv_counts;
  std::span<const int> recv_displs;
};

/// The same arrays, owned where a request needs them until completion.
struct v_arrays {
  std::vector<int> send_counts{};
  std::vector<int> send_displs{};
  std::vector<int> recv_counts{};
  std::vector<int> recv_displs{};

  [[nodiscard]] v_spans spans() const noexcept {
    return {send_counts, send_displs, recv_counts, recv_displs};
  }
};

/// How far a v-collective's blocks reach in a buffer.
struct v_layout {
  std::size_t extent = 0;  ///< elements the buffer must hold: the largest displacement + count
  bool fits_int = true;    ///< every displacement fits an int (else only a `_c` call can do it)
};

/// The error of check_per_rank.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_per_rank(const collective_call& call,
                                                                  std::size_t entries, int ranks,
                                                                  const char* what) {
  raise_collective(MPI_ERR_ARG, call, std::nullopt, MPI_DATATYPE_NULL,
                   std::string(what) + " has " + counted(entries, "entry", "entries") +
                       "; the communicator has " +
                       counted(static_cast<std::size_t>(ranks), "rank", "ranks"));
}

/// Throws MPI_ERR_ARG, before MPI is called, unless a per-rank array has one entry per rank.
/// `what` names the array as MPI does ("recvcounts", "sdispls").
[[gnu::always_inline]] inline void check_per_rank(const collective_call& call, std::size_t entries,
                                                  int ranks, const char* what) {
  if (entries != static_cast<std::size_t>(ranks)) [[unlikely]] {
    raise_per_rank(call, entries, ranks, what);
  }
}

/// Throws MPI_ERR_ARG naming the rank whose count or displacement is negative.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_negative(const collective_call& call,
                                                                  const char* what,
                                                                  std::size_t rank, int value) {
  raise_collective(MPI_ERR_ARG, call, std::nullopt, MPI_DATATYPE_NULL,
                   std::string(what) + "[" + std::to_string(rank) + "] is " +
                       std::to_string(value) + "; it must not be negative");
}

/// The error of a buffer, checked before MPI is called, with room for fewer than `needed`
/// elements of `type`: "the receive buffer of 4 x MPI_INT = 16 bytes is too small for
/// 6 x MPI_INT = 24 bytes (the sum of recvcounts)".
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_room(const collective_call& call,
                                                              std::size_t room, std::size_t needed,
                                                              MPI_Datatype type, const char* which,
                                                              const char* why) {
  raise_collective(MPI_ERR_COUNT, call, room, type,
                   std::string("the ") + which + " of " + describe_elements(room, type) +
                       " is too small for " + describe_elements(needed, type) + " (" + why + ")");
}

/// Throws MPI_ERR_COUNT (raise_room) unless room >= needed: one comparison on the hot path.
[[gnu::always_inline]] inline void check_room(const collective_call& call, std::size_t room,
                                              std::size_t needed, MPI_Datatype type,
                                              const char* which, const char* why) {
  if (room < needed) [[unlikely]] {
    raise_room(call, room, needed, type, which, why);
  }
}

/// Checks `counts` (one per rank, none negative) and returns their sum, added in 64 bits: the
/// extent of the blocks laid end to end.
inline std::size_t counts_total(const collective_call& call, std::span<const int> counts, int ranks,
                                const char* what) {
  check_per_rank(call, counts.size(), ranks, what);
  std::int64_t total = 0;
  for (std::size_t rank = 0; rank < counts.size(); ++rank) {
    if (counts[rank] < 0) [[unlikely]] {
      raise_negative(call, what, rank, counts[rank]);
    }
    total += counts[rank];
  }
  return static_cast<std::size_t>(total);
}

/// resize_to's other size: a new container (no storage yet) is built at its size, which costs
/// less than growing it (std::vector::resize from empty: its growth path, out of line).
template <class Container>
[[gnu::noinline]] void resize_other(Container& container, std::size_t count) {
  if constexpr (std::is_constructible_v<Container, std::size_t> &&
                requires { container.capacity(); }) {
    if (container.capacity() == 0) {
      container = Container(count);
      return;
    }
  }
  container.resize(count);
}

/// Resizes `container` to `count` unless it has that size: a reused one (the same shape
/// again) costs one comparison, inline; any other size is resize_other's, out of line (so the
/// caller saves no registers for it).
template <class Container>
[[gnu::always_inline]] inline void resize_to(Container& container, std::size_t count) {
  if (std::ranges::size(container) == count) [[likely]] {
    return;
  }
  resize_other(container, count);
}

/// Sizes a container an exchanging v-call fills. `Fresh`: the returning forms' new container,
/// empty, is built at its size in place (no call, no size comparison: some 30 instructions
/// less a container than resize_other's out-of-line path); else a kept one, resize_to.
template <bool Fresh, class Container>
[[gnu::always_inline]] inline void size_for(Container& container, std::size_t count) {
  if constexpr (Fresh) {
    container = Container(count);
  } else {
    resize_to(container, count);
  }
}

/// Checks `counts` (one per rank, none negative) and writes their exclusive prefix sum (blocks
/// laid end to end in rank order) into `displs`, which holds one per rank. When a displacement
/// passes INT_MAX, fits_int is false and `displs` holds nothing to read: only a `_c` call can
/// say it.
inline v_layout packed_displacements(const collective_call& call, std::span<const int> counts,
                                     int ranks, const char* what, std::span<int> displs) {
  check_per_rank(call, counts.size(), ranks, what);
  std::int64_t next = 0;
  bool fits = true;
  for (std::size_t rank = 0; rank < counts.size(); ++rank) {
    if (counts[rank] < 0) [[unlikely]] {
      raise_negative(call, what, rank, counts[rank]);
    }
    fits = fits && next <= INT_MAX;
    if (fits) displs[rank] = static_cast<int>(next);
    next += counts[rank];
  }
  return {static_cast<std::size_t>(next), fits};
}
/// The same into a vector, resized to one per rank (left empty past INT_MAX).
inline v_layout packed_displacements(const collective_call& call, std::span<const int> counts,
                                     int ranks, const char* what, std::vector<int>& displs) {
  check_per_rank(call, counts.size(), ranks, what);
  resize_to(displs, counts.size());
  const v_layout layout = packed_displacements(call, counts, ranks, what, std::span<int>(displs));
  if (!layout.fits_int) displs.clear();
  return layout;
}

/// Checks `counts` and the caller's `displs` (one per rank each, none negative) and returns the
/// extent they span. Given displacements are ints, so they always fit a classic call.
inline v_layout given_layout(const collective_call& call, std::span<const int> counts,
                             std::span<const int> displs, int ranks, const char* counts_name,
                             const char* displs_name) {
  check_per_rank(call, counts.size(), ranks, counts_name);
  check_per_rank(call, displs.size(), ranks, displs_name);
  std::int64_t extent = 0;
  for (std::size_t rank = 0; rank < counts.size(); ++rank) {
    if (counts[rank] < 0) [[unlikely]] {
      raise_negative(call, counts_name, rank, counts[rank]);
    }
    if (displs[rank] < 0) [[unlikely]] {
      raise_negative(call, displs_name, rank, displs[rank]);
    }
    if (counts[rank] > 0) {
      extent = std::max(extent, std::int64_t{displs[rank]} + counts[rank]);
    }
  }
  return {static_cast<std::size_t>(extent), true};
}

/// What given counts and displacements span, from a pass that throws nothing: the hot path of
/// the counts-given v-calls (given_layout's loop, without its throw sites: each of those keeps
/// a try block's worth of state live around the loop). `negative` is true where an entry of
/// either array is below zero; the failing branch then redoes given_layout for its error.
struct given_scan {
  std::size_t extent = 0;
  bool negative = false;
};

/// One pass over `counts` and `displs`, which hold the same number of entries (the caller
/// checked both against the communicator's size): the extent of the blocks with a positive
/// count, and whether any entry is negative (the sign bits of all entries, or'ed).
[[gnu::always_inline]] inline given_scan scan_given(std::span<const int> counts,
                                                    std::span<const int> displs) noexcept {
  std::int64_t extent = 0;
  int signs = 0;
  for (std::size_t rank = 0; rank < counts.size(); ++rank) {
    const int count = counts[rank];
    const int displ = displs[rank];
    signs |= count | displ;
    if (count > 0) extent = std::max(extent, std::int64_t{displ} + count);
  }
  return {static_cast<std::size_t>(extent), signs < 0};
}

/// What packed_displacements finds, from a pass that throws nothing: the hot path of the
/// counts-exchanged v-calls. Where `negative` (or a displacement past INT_MAX matters), the
/// failing branch redoes packed_displacements for its error.
struct packed_scan {
  v_layout layout{};      ///< the extent, and whether every displacement fits an int
  bool negative = false;  ///< some count is below zero
};

/// Writes the exclusive prefix sum of `counts` into `displs` (as many entries; truncated past
/// INT_MAX, where layout.fits_int is false and they are not to be read) and returns what
/// packed_displacements would, but throws nothing: one pass, the counts' sign bits or'ed.
[[gnu::always_inline]] inline packed_scan scan_packed(std::span<const int> counts,
                                                      std::span<int> displs) noexcept {
  std::int64_t next = 0;
  std::int64_t last = 0;
  int signs = 0;
  for (std::size_t rank = 0; rank < counts.size(); ++rank) {
    last = next;
    displs[rank] = static_cast<int>(next);
    signs |= counts[rank];
    next += counts[rank];
  }
  return {{static_cast<std::size_t>(next), last <= INT_MAX}, signs < 0};
}

/// Whether per-rank arrays have one entry per rank each: one comparison per array.
[[gnu::always_inline]] inline bool per_rank(int ranks, std::span<const int> first,
                                            std::span<const int> second) noexcept {
  const auto n = static_cast<std::size_t>(ranks);
  return first.size() == n && second.size() == n;
}

}  // namespace thinmpi::detail
