#pragma once
/// \file
/// thinmpi::window<T>: a window of elements of T over a caller's contiguous range
/// (MPI_Win_create) or over memory the window allocates and owns (MPI_Win_allocate).
/// Displacements count elements of T. Creating one is collective and costs, besides MPI's own
/// work, one MPI_Allgather of each rank's {size, displacement unit} (16 bytes a rank): with it
/// every origin checks that an operation lies inside its target's window before calling MPI.
///
///     std::vector<int> data(100);
///     const int mine = rank;
///     auto win = thinmpi::window<int>::create(world, std::span(data));
///     {
///       auto epoch = win.lock_all();
///       epoch.put(mine, (world.rank() + 1) % world.size(), 0);
///     }  // the epoch ends: the puts are complete
///     win.free();

#include <cstddef>
#include <memory>
#include <span>
#include <utility>

#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/info.hpp"
#include "thinmpi/rma/detail/window_base.hpp"
#include "thinmpi/rma/detail/window_state.hpp"

namespace thinmpi {

/// A window of elements of T: this rank's part of it is `local()`, every rank's size is known
/// here, operations are members of its epochs (fence(), lock(), lock_all(), start(); post()
/// exposes it). Move-only; freed once, collectively, by free() or the destructor.
template <class T>
class window : public detail::window_base<T, std::size_t> {
  static_assert(has_datatype<T>,
                "thinmpi: a window's elements need an MPI datatype: use an arithmetic type, an "
                "aggregate of them, or specialize thinmpi::datatype_traits");
  using base = detail::window_base<T, std::size_t>;

 public:
  /// No window.
  window() = default;
  /// Takes the window over (its epochs follow it); the moved-from one is null.
  window(window&& other) noexcept
      : base(std::move(other)), local_(std::exchange(other.local_, {})) {}
  /// Frees this window (collective, as free()), then takes `other` over.
  window& operator=(window&& other) noexcept {
    base::operator=(std::move(other));
    local_ = std::exchange(other.local_, {});
    return *this;
  }

  /// A window over `memory` (MPI_Win_create, collective over comm), which must outlive it.
  /// Memory with elements and a null data() (MPI_ERR_BASE), or more bytes than MPI_Aint holds
  /// (MPI_ERR_SIZE), is an error only this rank sees: unchecked the job ends, checked every
  /// rank throws. Windows of element types of different sizes on different ranks throw
  /// MPI_ERR_DISP on every rank.
  /// `hints` go to MPI (MPI_Win_create's info: "no_locks", "accumulate_ordering", ...).
  [[nodiscard]] static window create(comm_view comm, std::span<T> memory, const info& hints = {}) {
    const detail::window_request asked{
        .operation = "MPI_Win_create",
        .count = memory.size(),
        .most = detail::most_elements(sizeof(T), 0),
        .memory_missing = memory.data() == nullptr && !memory.empty()};
    auto state = detail::make_window<T>(comm.native(), asked, [&](MPI_Win* win) {
      return MPI_Win_create(memory.data(), static_cast<MPI_Aint>(memory.size_bytes()),
                            static_cast<int>(sizeof(T)), hints.native(), comm.native(), win);
    });
    return window(std::move(state), asked.operation, comm.native(), memory);
  }

  /// A window of `count` elements that it allocates and owns (MPI_Win_allocate, collective
  /// over comm); `local()` is this rank's, uninitialized: write it in an epoch (or before the
  /// first fence) before any rank reads it (docs/library.md, "Initialising an allocated
  /// window"). A count whose bytes MPI_Aint cannot hold is an error only this rank sees
  /// (MPI_ERR_SIZE), as for create(); an allocation MPI cannot make on one rank ends the job.
  /// `hints` go to MPI as create()'s.
  [[nodiscard]] static window allocate(comm_view comm, std::size_t count, const info& hints = {}) {
    // MPICH 4.0.2 (ch4) places the ranks of a node in one segment with each rank's part aligned
    // to 16 bytes, but locates a target by the unpadded sizes of the ranks before it: when a
    // rank's size is not a multiple of 16, operations on the ranks after it land in the
    // padding, with no error. Asking for a multiple of 16 (at most 15 bytes more, never used:
    // the bounds checks use `count`) keeps every part where MPICH looks for it.
    constexpr std::size_t segment_alignment = 16;
    const detail::window_request asked{
        .operation = "MPI_Win_allocate",
        .count = count,
        .most = detail::most_elements(sizeof(T), segment_alignment - 1),
        .memory_missing = false};
    T* base_ptr = nullptr;
    auto state = detail::make_window<T>(comm.native(), asked, [&](MPI_Win* win) {
      const std::size_t bytes =
          (count * sizeof(T) + segment_alignment - 1) / segment_alignment * segment_alignment;
      return MPI_Win_allocate(static_cast<MPI_Aint>(bytes), static_cast<int>(sizeof(T)),
                              hints.native(), comm.native(), &base_ptr, win);
    });
    return window(std::move(state), asked.operation, comm.native(), std::span<T>(base_ptr, count));
  }

  /// This rank's part of the window (empty once freed).
  [[nodiscard]] std::span<T> local() const noexcept {
    return this->is_null() ? std::span<T>() : local_;
  }
  /// Elements of `rank`'s window (known since creation; no communication).
  [[nodiscard]] std::size_t size_at(int rank) const {
    const detail::window_state& state = this->live("thinmpi::window::size_at");
    state.check_rank("thinmpi::window::size_at", rank);
    if (rank == MPI_PROC_NULL) return 0;
    return state.extents[static_cast<std::size_t>(rank)];
  }

 private:
  window(std::shared_ptr<detail::window_state> state, const char* operation, MPI_Comm comm,
         std::span<T> memory)
      : base(std::move(state)), local_(memory) {
    detail::gather_extents(*this->state_, operation, comm, memory.size_bytes(),
                           static_cast<int>(sizeof(T)));
  }

  std::span<T> local_{};
};

}  // namespace thinmpi
