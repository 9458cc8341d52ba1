#pragma once
/// \file
/// thinmpi::block_layout: the counts and displacements of a v-collective's blocks (one per
/// rank), checked once when it is built, so that a call given one checks only what can change
/// between calls (the communicator's size, the buffers' room) and makes the MPI call, as C code
/// that computed its displacements once does.
///
///     std::vector<int> counts(world.size(), n), mine(n), all(n * world.size());
///     const thinmpi::block_layout blocks(counts);  // displacements: the prefix sum, checked once
///     for (int step = 0; step < steps; ++step) world.allgatherv(mine, all, blocks);

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/v_calls.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi {

namespace detail {
struct layout_access;
}  // namespace detail

/// The blocks of a v-collective, one per rank: rank r's block holds counts()[r] elements at
/// displs()[r] of the buffer, which must hold extent() elements. Built once and reused by
/// allgatherv and alltoallv (blocking forms), whose calls then check only the communicator's
/// size (one comparison), this rank's own count and the buffers' room (one comparison each;
/// where every block has the same count, the layout keeps it, and the own count is compared
/// with it without asking MPI for this rank).
/// The constructor throws an mpi_error for a negative count or displacement (MPI_ERR_ARG),
/// arrays of different lengths (MPI_ERR_ARG), or packed displacements past INT_MAX on an MPI
/// library without the MPI-4 large-count calls (MPI_ERR_COUNT; Open MPI 4.1). It copies the
/// arrays into one allocation.
///
///     std::vector<int> counts(world.size(), n), displs(world.size());
///     thinmpi::block_layout blocks(counts);          // laid end to end in rank order
///     thinmpi::block_layout placed(counts, displs);  // at the given displacements
class block_layout {
 public:
  /// Blocks of `counts` elements laid end to end in rank order: the displacements are the
  /// exclusive prefix sum of the counts, summed in 64 bits (past INT_MAX only the MPI-4 `_c`
  /// calls can take them: MPICH 4.0 does; elsewhere this throws).
  explicit block_layout(std::span<const int> counts) : ranks_(checked_ranks(counts, "counts")) {
    arrays_.resize(2 * counts.size());
    std::int64_t next = 0;
    for (std::size_t rank = 0; rank < counts.size(); ++rank) {
      if (counts[rank] < 0) [[unlikely]] {
        detail::raise_negative(context(), "counts", rank, counts[rank]);
      }
      fits_int_ = fits_int_ && next <= INT_MAX;
      arrays_[rank] = counts[rank];
      arrays_[counts.size() + rank] = fits_int_ ? static_cast<int>(next) : 0;
      next += counts[rank];
    }
    extent_ = static_cast<std::size_t>(next);
    uniform_ = uniform_count(counts);
    if (!fits_int_) widen();
  }
  /// Blocks of `counts` elements at `displs` (one each per rank, none negative).
  block_layout(std::span<const int> counts, std::span<const int> displs)
      : ranks_(checked_ranks(counts, "counts")) {
    if (displs.size() != counts.size()) [[unlikely]] {
      raise_lengths(counts.size(), displs.size());
    }
    arrays_.resize(2 * counts.size());
    std::int64_t extent = 0;
    for (std::size_t rank = 0; rank < counts.size(); ++rank) {
      if (counts[rank] < 0) [[unlikely]] {
        detail::raise_negative(context(), "counts", rank, counts[rank]);
      }
      if (displs[rank] < 0) [[unlikely]] {
        detail::raise_negative(context(), "displs", rank, displs[rank]);
      }
      arrays_[rank] = counts[rank];
      arrays_[counts.size() + rank] = displs[rank];
      if (counts[rank] > 0) extent = std::max(extent, std::int64_t{displs[rank]} + counts[rank]);
    }
    extent_ = static_cast<std::size_t>(extent);
    uniform_ = uniform_count(counts);
  }

  /// The number of blocks: the size of the communicator a call on this layout needs.
  [[nodiscard]] int ranks() const noexcept { return ranks_; }
  /// Each rank's count, in elements.
  [[nodiscard]] std::span<const int> counts() const noexcept {
    return {arrays_.data(), static_cast<std::size_t>(ranks_)};
  }
  /// Each rank's displacement, in elements (zeros where they pass INT_MAX: see fits_int()).
  [[nodiscard]] std::span<const int> displs() const noexcept {
    return {arrays_.data() + ranks_, static_cast<std::size_t>(ranks_)};
  }
  /// The elements a buffer must hold: the largest displacement plus its count.
  [[nodiscard]] std::size_t extent() const noexcept { return extent_; }
  /// Whether every displacement fits an int (else the calls take MPI-4's `_c` forms).
  [[nodiscard]] bool fits_int() const noexcept { return fits_int_; }

 private:
  friend struct detail::layout_access;

  [[nodiscard]] static detail::collective_call context() noexcept {
    return {"thinmpi::block_layout", MPI_COMM_NULL};
  }
  /// The count of blocks, as an int (an MPI rank count).
  [[nodiscard]] static int checked_ranks(std::span<const int> counts, const char* what) {
    if (counts.size() > static_cast<std::size_t>(INT_MAX)) [[unlikely]] {
      detail::raise_collective(MPI_ERR_ARG, context(), std::nullopt, MPI_DATATYPE_NULL,
                               std::string(what) + " has more entries than an int counts");
    }
    return static_cast<int>(counts.size());
  }
  [[noreturn, gnu::cold, gnu::noinline]] static void raise_lengths(std::size_t counts,
                                                                   std::size_t displs) {
    detail::raise_collective(MPI_ERR_ARG, context(), std::nullopt, MPI_DATATYPE_NULL,
                             "displs has " + detail::counted(displs, "entry", "entries") +
                                 " but counts has " + detail::counted(counts, "entry", "entries"));
  }
  /// The count every block has, or -1 where they differ (or there are none): a call whose
  /// blocks are all alike checks this rank's own count without asking MPI for its rank.
  [[nodiscard]] static int uniform_count(std::span<const int> counts) noexcept {
    if (counts.empty()) return -1;
    const bool alike = std::all_of(counts.begin(), counts.end(),
                                   [first = counts.front()](int count) { return count == first; });
    return alike ? counts.front() : -1;
  }
  /// Packed displacements past INT_MAX: the `_c` calls' arrays, or the error where there are
  /// none (decided here, once, not on every call).
  void widen() {
    if constexpr (THINMPI_HAS_LARGE_COUNT_CALLS) {
      wide_ = detail::wide_packed(counts());
    } else {
      detail::raise_collective(MPI_ERR_COUNT, context(), std::nullopt, MPI_DATATYPE_NULL,
                               "the counts add up to " + std::to_string(extent_) +
                                   " elements; displacements past INT_MAX need the MPI-4 "
                                   "large-count calls (MPI_Allgatherv_c, MPI_Alltoallv_c), "
                                   "which this MPI library lacks");
    }
  }

  std::vector<int> arrays_{};  ///< the counts, then the displacements: one allocation
  int ranks_ = 0;
  std::size_t extent_ = 0;
  bool fits_int_ = true;
  int uniform_ = -1;  ///< uniform_count(counts): the count of every block where they are alike
  detail::wide_layout wide_{};  ///< filled only where !fits_int_ (the `_c` calls' arrays)
};

namespace detail {
/// What the v-collectives read of a block_layout beyond its public face.
struct layout_access {
  [[nodiscard]] static const wide_layout& wide(const block_layout& layout) noexcept {
    return layout.wide_;
  }
  /// The count of every block where they are all alike, else -1.
  [[nodiscard]] static int uniform(const block_layout& layout) noexcept { return layout.uniform_; }
};
}  // namespace detail

}  // namespace thinmpi
