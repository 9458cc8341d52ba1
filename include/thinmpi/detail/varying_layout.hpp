#pragma once
/// \file
/// Counts and displacements of rooted collectives checked before MPI is called: a count that
/// does not fit MPI's int, a buffer that is not whole blocks, per-rank arrays of the wrong
/// length, negative entries, blocks that reach past the buffer, displacements past INT_MAX.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "thinmpi/detail/collective_call.hpp"
#include "thinmpi/detail/mpi.hpp"
#include "thinmpi/detail/narrow.hpp"

namespace thinmpi::detail {

/// Throws MPI_ERR_COUNT unless `count` fits the int count of the classic call.
inline void require_int_count(const collective_call& call, std::size_t count, MPI_Datatype type) {
  if (fits_int(count)) [[likely]] {
    return;
  }
  raise_collective(MPI_ERR_COUNT, call, count, type,
                   "a count of " + std::to_string(count) +
                       " elements does not fit MPI's int count, and this call has no "
                       "large-count form in thinmpi");
}

/// Throws MPI_ERR_COUNT unless a buffer of `count` elements is `ranks` equal blocks.
inline void require_blocks(const collective_call& call, std::size_t count, std::size_t ranks,
                           MPI_Datatype type) {
  if (count % ranks == 0) [[likely]] {
    return;
  }
  raise_collective(MPI_ERR_COUNT, call, count, type,
                   "a buffer of " + std::to_string(count) + " elements is not " +
                       std::to_string(ranks) + " equal blocks, one per rank");
}

/// Checks per-rank counts and displacements against a buffer of `room` elements; returns the
/// extent the blocks cover (the largest displacement + count).
inline std::size_t check_layout(const collective_call& call, std::span<const int> counts,
                                std::span<const int> displs, int ranks, std::size_t room,
                                MPI_Datatype type) {
  require_per_rank(call, counts.size(), ranks, "the counts array");
  require_per_rank(call, displs.size(), ranks, "the displacements array");
  std::size_t extent = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] < 0 || displs[i] < 0) [[unlikely]] {
      raise_collective(MPI_ERR_ARG, call, std::nullopt, type,
                       "rank " + std::to_string(i) + " has count " + std::to_string(counts[i]) +
                           " and displacement " + std::to_string(displs[i]) +
                           "; neither may be negative");
    }
    const std::size_t end = static_cast<std::size_t>(displs[i]) + static_cast<std::size_t>(counts[i]);
    if (end > extent) extent = end;
  }
  require_room(call, room, extent, type, "the blocks at the displacements given");
  return extent;
}

/// The sum of the counts, in elements.
inline std::size_t packed_extent(const collective_call& call, std::span<const int> counts,
                                 MPI_Datatype type) {
  std::size_t total = 0;
  for (const int count : counts) {
    if (count < 0) [[unlikely]] {
      raise_collective(MPI_ERR_ARG, call, std::nullopt, type, "a count is negative");
    }
    total += static_cast<std::size_t>(count);
  }
  return total;
}

/// The displacements of blocks packed in rank order (the exclusive prefix sum of counts).
/// Throws MPI_ERR_COUNT when one passes INT_MAX, though every count fits: MPI's classic
/// v-calls take int displacements.
inline std::vector<int> packed_displs(std::span<const int> counts,
                                      const collective_call& call = {"thinmpi::packed_displs",
                                                                     MPI_COMM_NULL}) {
  std::vector<int> displs(counts.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (!fits_int(next)) [[unlikely]] {
      raise_collective(MPI_ERR_COUNT, call, next, MPI_DATATYPE_NULL,
                       "the displacement of rank " + std::to_string(i) + " would be " +
                           std::to_string(next) +
                           " elements, past the int displacements of MPI's classic v-calls");
    }
    displs[i] = static_cast<int>(next);
    next += static_cast<std::size_t>(counts[i] < 0 ? 0 : counts[i]);
  }
  return displs;
}

}  // namespace thinmpi::detail
