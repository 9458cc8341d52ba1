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

#include <cstddef>
#include <span>
#include <utility>

#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
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
  /// comm, whose ranks must share memory: comm.split_shared() gives such a communicator).
  [[nodiscard]] static shared_window allocate(comm_view comm, std::size_t count) {
    MPI_Win win = MPI_WIN_NULL;
    T* base_ptr = nullptr;
    detail::check(MPI_Win_allocate_shared(static_cast<MPI_Aint>(count * sizeof(T)),
                                          static_cast<int>(sizeof(T)), MPI_INFO_NULL, comm.native(),
                                          &base_ptr, &win),
                  "MPI_Win_allocate_shared", comm.native());
    return shared_window(win, comm.native());
  }

  /// This rank's segment.
  [[nodiscard]] std::span<T> local() const {
    return this->is_null() ? std::span<T>() : shared_query(this->state_->rank);
  }
  /// `rank`'s segment, which this rank may load and store directly (MPI_Win_shared_query).
  [[nodiscard]] std::span<T> shared_query(int rank) const {
    const detail::window_state& state = this->live("MPI_Win_shared_query");
    state.check_rank("MPI_Win_shared_query", rank);
    MPI_Aint bytes = 0;
    int unit = 0;
    T* segment = nullptr;
    const int rc = MPI_Win_shared_query(state.win, rank, &bytes, &unit, &segment);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::rma_site where = state.site("MPI_Win_shared_query");
      where.target = rank;
      detail::raise_rma(rc, where);
    }
    return {segment, static_cast<std::size_t>(bytes) / sizeof(T)};
  }
  /// Elements of `rank`'s segment.
  [[nodiscard]] std::size_t size_at(int rank) const {
    const detail::window_state& state = this->live("thinmpi::shared_window::size_at");
    state.check_rank("thinmpi::shared_window::size_at", rank);
    return rank == MPI_PROC_NULL ? 0 : state.extents[static_cast<std::size_t>(rank)];
  }

 private:
  shared_window(MPI_Win win, MPI_Comm comm)
      : base(detail::adopt_window<T>(win, comm, "MPI_Win_allocate_shared")) {
    auto& extents = this->state_->extents;
    extents.resize(static_cast<std::size_t>(this->state_->size));
    for (int r = 0; r < this->state_->size; ++r)
      extents[static_cast<std::size_t>(r)] = shared_query(r).size();
  }
};

}  // namespace thinmpi
