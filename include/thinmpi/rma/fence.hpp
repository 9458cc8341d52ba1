#pragma once
/// \file
/// fence_epoch: active-target synchronization by MPI_Win_fence, collective over the window's
/// group. win.fence() opens it; each fence() inside completes what was issued since the last
/// one, at origin and target, and begins the next; end() is the last fence.
///
///     auto win = thinmpi::window<int>::allocate(world, 4);
///     const std::vector<int> mine{1, 2, 3, 4};
///     std::vector<int> theirs(4);
///     auto epoch = win.fence(thinmpi::rma_mode::noprecede);
///     epoch.put(mine, right, 0);
///     epoch.fence();             // every rank's put has landed
///     epoch.get(theirs, left, 0);
///     epoch.end();               // MPI_Win_fence(MPI_MODE_NOSUCCEED): theirs is filled

#include <memory>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/rma/detail/epoch_base.hpp"
#include "thinmpi/rma/detail/window_state.hpp"
#include "thinmpi/rma/modes.hpp"
#include "thinmpi/rma/operations.hpp"

namespace thinmpi {

/// A fence epoch on a window of T (displacements Disp): the operations of rma_operations, to
/// any rank of the window. Move-only. Destroyed while open, it ends with
/// MPI_Win_fence(MPI_MODE_NOSUCCEED), collective as every fence (so every rank must reach it,
/// as it must reach a collective), and drops an error it reports; call end() to hear it.
template <class T, class Disp>
class [[nodiscard]] fence_epoch : public detail::epoch_base,
                                  public rma_operations<fence_epoch<T, Disp>, T, Disp>,
                                  public detail::no_request_operations {
 public:
  /// Opens the epoch (MPI_Win_fence(mode)); for window::fence().
  fence_epoch(std::shared_ptr<detail::window_state> state, rma_mode mode) : epoch_base(state) {
    state_->open_fence("MPI_Win_fence");
    const int rc = MPI_Win_fence(static_cast<int>(mode), state_->win);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      state_->close_access();
      check_sync(rc, "MPI_Win_fence");
    }
    mark_open();
  }
  /// Takes over the open epoch; the moved-from one is closed and ends nothing.
  /// Takes the epoch over; the moved-from one is closed.
  fence_epoch(fence_epoch&&) noexcept = default;
  ~fence_epoch() {
    finish_quietly([](MPI_Win win) { return MPI_Win_fence(MPI_MODE_NOSUCCEED, win); },
                   [](detail::window_state& state) { state.close_access(); });
  }

  /// Completes every operation issued since the last fence, at origin and target, on every
  /// rank (MPI_Win_fence(mode), collective), and begins the next period of the epoch.
  void fence(rma_mode mode = rma_mode::none) {
    const detail::window_state& state = open_state("MPI_Win_fence");
    check_sync(MPI_Win_fence(static_cast<int>(mode), state.win), "MPI_Win_fence");
  }
  /// The last fence (MPI_Win_fence(mode | MPI_MODE_NOSUCCEED)): completes every operation and
  /// closes the epoch. Throws thinmpi::mpi_error if MPI fails; the epoch is closed either way.
  void end(rma_mode mode = rma_mode::none) {
    const int assert_bits = static_cast<int>(mode | rma_mode::nosucceed);
    finish(
        "MPI_Win_fence", [assert_bits](MPI_Win win) { return MPI_Win_fence(assert_bits, win); },
        [](detail::window_state& state) { state.close_access(); });
  }

  /// For rma_operations: every rank of the window may be accessed while the epoch is open.
  [[gnu::always_inline]] const detail::window_state& permit(const char* operation, int) const {
    return open_state(operation);
  }
};

}  // namespace thinmpi
