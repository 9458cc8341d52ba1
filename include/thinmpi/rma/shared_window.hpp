#pragma once
/// \file
/// thinmpi::shared_window<T>: a window whose memory every rank of a shared-memory communicator
/// (comm.split_shared()) can load and store directly (MPI_Win_allocate_shared), with the
/// peers' segments as spans (MPI_Win_shared_query), plus every epoch of a window. The sizes
/// for the bounds checks come from MPI_Win_shared_query, so creating one costs no allgather.
///
///     auto node = world.split_shared();
///     auto win = thinmpi::shared_window<double>::allocate(node, 1000);
///     std::span<double> left = win.shared_query((node.rank() + node.size() - 1) % node.size());
///     {
///       auto epoch = win.lock_all();
///       win.local()[0] = 1.0;
///       epoch.sync();   // MPI_Win_sync, then a barrier, before a peer reads it
///     }

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/info.hpp"
#include "thinmpi/rma/detail/raise_rma.hpp"
#include "thinmpi/rma/detail/window_base.hpp"
#include "thinmpi/rma/detail/window_state.hpp"

namespace thinmpi {

/// A window of elements of T in memory shared by the ranks of one node. Move-only; freed
/// once, collectively, by free() or the destructor (the memory with it).
template <class T>
class shared_window : public detail::window_base<T, std::size_t> {
  static_assert(has_datatype<T>,
                "thinmpi: a window's elements need an MPI datatype: use an arithmetic type, an "
                "aggregate of them, or specialize thinmpi::datatype_traits");
  using base = detail::window_base<T, std::size_t>;

 public:
  /// No window.
  shared_window() = default;

  /// `count` elements of shared memory on this rank (MPI_Win_allocate_shared, collective over
  /// comm, whose ranks must share memory: comm.split_shared() gives such a communicator). A
  /// count whose bytes MPI_Aint cannot hold is an error only this rank sees (MPI_ERR_SIZE:
  /// unchecked the job ends, checked every rank throws); a communicator whose ranks do not
  /// share memory is MPI's MPI_ERR_RMA_SHARED, and an allocation MPI cannot make on one rank
  /// ends the job. The segment is uninitialized, as window::allocate's.
  /// `hints` go to MPI (MPI_Win_allocate_shared's info: "alloc_shared_noncontig", ...). Open
  /// MPI 4.1.4 reports a segment allocated with "alloc_shared_noncontig" as its page-rounded
  /// size (MPI_Win_shared_query: 1024 ints for 2): with that hint on Open MPI the ranks tell
  /// each other their counts (one MPI_Allgather of two MPI_Aint), so that every segment is the
  /// count its rank asked for.
  [[nodiscard]] static shared_window allocate(comm_view comm, std::size_t count,
                                              const info& hints = {}) {
    const detail::window_request asked{.operation = "MPI_Win_allocate_shared",
                                       .count = count,
                                       .most = detail::most_elements(sizeof(T), 0),
                                       .memory_missing = false};
    auto state = detail::make_window<T>(comm.native(), asked, [&](MPI_Win* win) {
      T* base_ptr = nullptr;
      return MPI_Win_allocate_shared(static_cast<MPI_Aint>(count * sizeof(T)),
                                     static_cast<int>(sizeof(T)), hints.native(), comm.native(),
                                     &base_ptr, win);
    });
    bool padded = false;
#ifdef OMPI_MAJOR_VERSION
    padded = hints.get("alloc_shared_noncontig") == std::optional<std::string>("true");
#endif
    return shared_window(std::move(state), padded, count, comm.native());
  }

  /// This rank's segment.
  [[nodiscard]] std::span<T> local() const {
    return this->is_null() ? std::span<T>() : shared_query(this->state_->rank);
  }
  /// `rank`'s segment, which this rank may load and store directly (MPI_Win_shared_query).
  [[nodiscard]] std::span<T> shared_query(int rank) const {
    const detail::window_state& state = this->live("MPI_Win_shared_query");
    state.check_rank("MPI_Win_shared_query", rank);
    const std::span<T> segment = query(state, rank).segment;
    return segment.first(std::min(segment.size(), state.extents[static_cast<std::size_t>(rank)]));
  }
  /// Elements of `rank`'s segment.
  [[nodiscard]] std::size_t size_at(int rank) const {
    const detail::window_state& state = this->live("thinmpi::shared_window::size_at");
    state.check_rank("thinmpi::shared_window::size_at", rank);
    return rank == MPI_PROC_NULL ? 0 : state.extents[static_cast<std::size_t>(rank)];
  }

 private:
  shared_window(std::shared_ptr<detail::window_state> state, bool padded, std::size_t count,
                MPI_Comm comm)
      : base(std::move(state)) {
    detail::window_state& made = *this->state_;
    if (padded) {
      detail::gather_extents(made, "MPI_Win_allocate_shared", comm, count * sizeof(T),
                             static_cast<int>(sizeof(T)));
      return;
    }
    const auto ranks = static_cast<std::size_t>(made.size);
    std::vector<MPI_Aint> units(ranks);
    made.extents.resize(ranks);
    for (std::size_t r = 0; r < ranks; ++r) {
      const queried found = query(made, static_cast<int>(r));
      units[r] = found.unit;
      made.extents[r] = found.segment.size();
    }
    detail::require_same_units(made, "MPI_Win_allocate_shared", units);
  }

  struct queried {
    std::span<T> segment;
    MPI_Aint unit;  ///< the rank's displacement unit
  };
  /// `rank`'s segment and unit (MPI_Win_shared_query).
  static queried query(const detail::window_state& state, int rank) {
    MPI_Aint bytes = 0;
    int unit = 0;
    T* segment = nullptr;
    const int rc = MPI_Win_shared_query(state.win, rank, &bytes, &unit, &segment);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::rma_site where = state.site("MPI_Win_shared_query");
      where.target = rank;
      detail::raise_rma(rc, where);
    }
    return {{segment, static_cast<std::size_t>(bytes) / sizeof(T)}, unit};
  }
};

}  // namespace thinmpi
