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
///
/// Every rank of the window is in every fence, so an error only this rank finds in a fence
/// (an epoch already open, an assertion a fence does not take, an epoch that has ended) or in
/// an operation of the epoch (window_state::raise) ends the job; built with
/// THINMPI_CHECKED_COLLECTIVES=1, the ranks agree before each fence instead (one MPI_Allreduce
/// of 5 long longs), so that every rank throws: the one that found the error at once, the others at
/// their next fence, which then leaves the epoch's sequence of fences; the epoch's end (end() or
/// the destructor) still closes it on every rank alike.

#include <memory>
#include <string>
#include <utility>

#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/rma/detail/epoch_base.hpp"
#include "thinmpi/rma/detail/raise_rma.hpp"
#include "thinmpi/rma/detail/window_state.hpp"
#include "thinmpi/rma/modes.hpp"
#include "thinmpi/rma/operations.hpp"

namespace thinmpi {
namespace detail {

/// The assertions MPI_Win_fence takes.
inline constexpr int fence_assertions =
    MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED;

/// end_job's note for a fence of an epoch that has ended, where no other is open on the rank.
inline constexpr const char* ended_note =
    "; this rank has no fence epoch open on the window, so its fences no longer pair with the "
    "other ranks' (which ones they are in, no rank can tell), and this ends the job in the "
    "checked build too";

}  // namespace detail

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
    if (state_->busy() || !takes(mode)) [[unlikely]] {
      refuse_open(mode);
    }
    agree(*state_);
    state_->access = detail::access_kind::fence;
    state_->fence_abandoned = false;
    const int rc = MPI_Win_fence(static_cast<int>(mode), state_->win);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      state_->close_access();
      state_->mpi_failed_inside(rc, "MPI_Win_fence");
    }
    mark_open();
  }
  /// Takes the epoch over; the moved-from one is closed.
  fence_epoch(fence_epoch&&) noexcept = default;
  ~fence_epoch() {
    finish_quietly(
        [this](MPI_Win win) {
          agree_to_close();
          return MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
        },
        [](detail::window_state& state) { state.close_access(); });
  }

  /// Completes every operation issued since the last fence, at origin and target, on every
  /// rank (MPI_Win_fence(mode), collective), and begins the next period of the epoch.
  void fence(rma_mode mode = rma_mode::none) {
    const detail::window_state& state = fence_state(mode, false);
    const int rc = MPI_Win_fence(static_cast<int>(mode), state.win);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      state.mpi_failed_inside(rc, "MPI_Win_fence");
    }
  }
  /// The last fence (MPI_Win_fence(mode | MPI_MODE_NOSUCCEED)): completes every operation and
  /// closes the epoch. Throws thinmpi::mpi_error if MPI fails; the epoch is closed either way.
  void end(rma_mode mode = rma_mode::none) {
    const detail::window_state& state = fence_state(mode, true);
    const int rc = MPI_Win_fence(static_cast<int>(mode | rma_mode::nosucceed), state.win);
    mark_closed();
    state_->close_access();
    if (rc != MPI_SUCCESS) [[unlikely]] {
      state.mpi_failed_inside(rc, "MPI_Win_fence");
    }
  }

  /// For rma_operations: every rank of the window may be accessed while the epoch is open.
  [[gnu::always_inline]] const detail::window_state& permit(const char* operation, int) const {
    return open_state(operation);
  }

 private:
  [[nodiscard, gnu::always_inline]] static bool takes(rma_mode mode) noexcept {
    return (static_cast<int>(mode) & ~detail::fence_assertions) == 0;
  }
  /// The state for a fence inside the epoch (closing: its end), after the checks and, checked,
  /// the agreement. A fence after an agreement found an error (checked) is refused here alone:
  /// every rank has left the epoch's fences, and only its end follows.
  [[gnu::always_inline]] const detail::window_state& fence_state(rma_mode mode,
                                                                 bool closing) const {
    if (!active() || !takes(mode) ||
        (detail::checked_collectives && !closing && state_->fence_abandoned)) [[unlikely]] {
      refuse_fence(mode);
    }
    agree(*state_);
    return *state_;
  }
  /// Checked: the ranks agree before the fence; an error found elsewhere is thrown here, before
  /// MPI_Win_fence, and the epoch stays open for its end.
  static void agree(const detail::window_state& state) {
    if constexpr (detail::checked_collectives) {
      try {
        detail::agree_if_checked(state.call("MPI_Win_fence"));
      } catch (...) {
        state.fence_abandoned = true;
        throw;
      }
    } else {
      static_cast<void>(state);
    }
  }
  /// Checked, the destructor's closing fence: agreements until one finds no error, matching
  /// each failing fence of another rank (which agreed, then threw), then its end.
  void agree_to_close() const noexcept {
    if constexpr (detail::checked_collectives) {
      try {
        while (detail::agree_on_arguments(state_->call("MPI_Win_fence"), 0).error_class != 0) {
        }
      } catch (...) {  // MPI failed: the fence reports it, or nothing more can be done
      }
    }
  }
  [[noreturn, gnu::cold, gnu::noinline]] void refuse_open(rma_mode mode) const {
    detail::rma_site where = state_->site("MPI_Win_fence");
    int code = MPI_ERR_RMA_SYNC;
    if (state_->busy()) {
      where.problem = state_->busy_with("open a fence epoch");
    } else {
      code = MPI_ERR_ASSERT;
      where.problem = refused_bits(mode);
    }
    state_->fail_collectively(code, where);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void refuse_fence(rma_mode mode) const {
    detail::rma_site where = state_->site("MPI_Win_fence");
    if (!active()) {
      where.problem = closed_problem();
      // Freed, the window was freed by every rank (collectively): none waits in its fences.
      if (state_->win == MPI_WIN_NULL) detail::raise_rma(MPI_ERR_RMA_SYNC, where);
      // With no fence epoch open here, this rank's fences no longer pair with the others'
      // (ended early, or moved to an epoch that has ended): no agreement can pair either.
      if (state_->access != detail::access_kind::fence) {
        state_->end_with(MPI_ERR_RMA_SYNC, where, detail::ended_note);
      }
      state_->fail_collectively(MPI_ERR_RMA_SYNC, where);
    }
    if (!takes(mode)) {
      where.problem = refused_bits(mode);
      state_->fail_collectively(MPI_ERR_ASSERT, where);
    }
    where.problem =
        "an earlier fence of this epoch found an error (checked collectives), so every rank has "
        "left its sequence of fences: end the epoch (end() or its destructor)";
    detail::raise_rma(MPI_ERR_RMA_SYNC, where);
  }
  static std::string refused_bits(rma_mode mode) {
    return detail::assertion_refused(static_cast<int>(mode) & ~detail::fence_assertions,
                                     "MPI_Win_fence", "nostore, noput, noprecede and nosucceed");
  }
};

}  // namespace thinmpi
