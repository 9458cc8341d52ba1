#pragma once
/// \file
/// The passive-target epochs: lock_epoch locks one rank (MPI_Win_lock, shared or exclusive)
/// and may access only it; lock_all_epoch locks every rank shared (MPI_Win_lock_all). Both
/// have every operation of rma_operations, the request-based ones (rma_request_operations),
/// the flushes that complete operations before the epoch ends, and sync() (MPI_Win_sync).
///
///     auto counter = thinmpi::window<long>::allocate(world, rank == 0 ? 1 : 0);
///     const long one = 1;
///     long ticket = 0;
///     auto epoch = counter.lock(0, thinmpi::lock_type::shared);
///     epoch.fetch_and_op(one, ticket, 0, 0, std::plus<>{});
///     epoch.flush();            // ticket holds the value before the increment
///     epoch.unlock();

#include <memory>
#include <string>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/rma/detail/epoch_base.hpp"
#include "thinmpi/rma/detail/window_state.hpp"
#include "thinmpi/rma/modes.hpp"
#include "thinmpi/rma/operations.hpp"
#include "thinmpi/rma/requests.hpp"

namespace thinmpi {

/// A lock of one rank of a window of T (displacements Disp), open until unlock(): operations
/// may target that rank only. Move-only. Destroyed while open, it unlocks (completing every
/// operation) and drops an error MPI reports; call unlock() to hear it.
template <class T, class Disp>
class [[nodiscard]] lock_epoch : public detail::epoch_base,
                                 public rma_operations<lock_epoch<T, Disp>, T, Disp>,
                                 public rma_request_operations<lock_epoch<T, Disp>, T, Disp> {
 public:
  /// Locks `target` (MPI_Win_lock); for window::lock().
  lock_epoch(std::shared_ptr<detail::window_state> state, int target, lock_type type, rma_mode mode)
      : epoch_base(state), target_(target) {
    if (type != lock_type::shared && type != lock_type::exclusive) [[unlikely]] {
      state_->refuse("MPI_Win_lock", MPI_ERR_LOCKTYPE,
                     "lock type " + std::to_string(static_cast<int>(type)) +
                         " is neither thinmpi::lock_type::shared nor exclusive");
    }
    state_->open_lock("MPI_Win_lock", target);
    const int rc =
        MPI_Win_lock(static_cast<int>(type), target, static_cast<int>(mode), state_->win);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      state_->close_lock(target);
      check_sync(rc, "MPI_Win_lock");
    }
    mark_open();
  }
  /// Takes the epoch over; the moved-from one is closed and ends nothing.
  lock_epoch(lock_epoch&&) noexcept = default;
  ~lock_epoch() {
    finish_quietly([this](MPI_Win win) { return MPI_Win_unlock(target_, win); },
                   [this](detail::window_state& state) { state.close_lock(target_); });
  }

  /// The rank this epoch locks.
  [[nodiscard]] int target() const noexcept { return target_; }

  /// Completes every operation issued so far, at origin and target (MPI_Win_flush).
  void flush() const { sync_call("MPI_Win_flush", &MPI_Win_flush); }
  /// Completes every operation issued so far at the origin only: origin buffers may be reused,
  /// gets have arrived (MPI_Win_flush_local).
  void flush_local() const { sync_call("MPI_Win_flush_local", &MPI_Win_flush_local); }
  /// Makes this rank's public and private window copies agree (MPI_Win_sync): for loads and
  /// stores to the window's memory in the separate model, and to shared windows.
  void sync() const { check_sync(MPI_Win_sync(open_state("MPI_Win_sync").win), "MPI_Win_sync"); }
  /// Ends the epoch (MPI_Win_unlock): every operation is complete at origin and target.
  /// Throws thinmpi::mpi_error if MPI fails; the epoch is closed either way.
  void unlock() {
    finish(
        "MPI_Win_unlock", [this](MPI_Win win) { return MPI_Win_unlock(target_, win); },
        [this](detail::window_state& state) { state.close_lock(target_); });
  }

  /// For the operations: only the locked rank may be accessed.
  [[gnu::always_inline]] const detail::window_state& permit(const char* operation,
                                                            int target) const {
    const detail::window_state& state = open_state(operation);
    if (target != target_ && target != MPI_PROC_NULL) [[unlikely]] {
      raise_not_locked(operation, target);
    }
    return state;
  }

 private:
  void sync_call(const char* operation, int (*call)(int, MPI_Win)) const {
    check_sync(call(target_, open_state(operation).win), operation);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void raise_not_locked(const char* operation,
                                                               int target) const {
    state_->check_rank(operation, target);  // a rank outside the window is MPI_ERR_RANK
    detail::rma_site where = state_->site(operation);
    where.target = target;
    where.problem = "this epoch locks rank " + std::to_string(target_) + " only; lock rank " +
                    std::to_string(target) + " too, or use lock_all()";
    state_->raise(MPI_ERR_RMA_SYNC, where);
  }

  int target_;
};

/// A shared lock of every rank of a window of T (displacements Disp), open until
/// unlock_all(): operations may target any rank. Move-only. Destroyed while open, it unlocks
/// (completing every operation) and drops an error MPI reports; call unlock_all() to hear it.
template <class T, class Disp>
class [[nodiscard]] lock_all_epoch
    : public detail::epoch_base,
      public rma_operations<lock_all_epoch<T, Disp>, T, Disp>,
      public rma_request_operations<lock_all_epoch<T, Disp>, T, Disp> {
 public:
  /// Locks every rank (MPI_Win_lock_all); for window::lock_all().
  lock_all_epoch(std::shared_ptr<detail::window_state> state, rma_mode mode) : epoch_base(state) {
    state_->open_lock_all("MPI_Win_lock_all");
    const int rc = MPI_Win_lock_all(static_cast<int>(mode), state_->win);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      state_->close_access();
      check_sync(rc, "MPI_Win_lock_all");
    }
    mark_open();
  }
  /// Takes the epoch over; the moved-from one is closed and ends nothing.
  lock_all_epoch(lock_all_epoch&&) noexcept = default;
  ~lock_all_epoch() {
    finish_quietly(&MPI_Win_unlock_all, [](detail::window_state& state) { state.close_access(); });
  }

  /// Completes every operation to `target` issued so far, at origin and target.
  void flush(int target) const { targeted("MPI_Win_flush", &MPI_Win_flush, target); }
  /// Completes every operation to `target` at the origin only (MPI_Win_flush_local).
  void flush_local(int target) const {
    targeted("MPI_Win_flush_local", &MPI_Win_flush_local, target);
  }
  /// Completes every operation issued so far, at origins and targets (MPI_Win_flush_all).
  void flush_all() const {
    check_sync(MPI_Win_flush_all(open_state("MPI_Win_flush_all").win), "MPI_Win_flush_all");
  }
  /// Completes every operation at the origin only (MPI_Win_flush_local_all).
  void flush_local_all() const {
    check_sync(MPI_Win_flush_local_all(open_state("MPI_Win_flush_local_all").win),
               "MPI_Win_flush_local_all");
  }
  /// Makes this rank's public and private window copies agree (MPI_Win_sync).
  void sync() const { check_sync(MPI_Win_sync(open_state("MPI_Win_sync").win), "MPI_Win_sync"); }
  /// Ends the epoch (MPI_Win_unlock_all): every operation is complete at origins and targets.
  /// Throws thinmpi::mpi_error if MPI fails; the epoch is closed either way.
  void unlock_all() {
    finish("MPI_Win_unlock_all", &MPI_Win_unlock_all,
           [](detail::window_state& state) { state.close_access(); });
  }

  /// For the operations: every rank of the window may be accessed.
  [[gnu::always_inline]] const detail::window_state& permit(const char* operation, int) const {
    return open_state(operation);
  }

 private:
  void targeted(const char* operation, int (*call)(int, MPI_Win), int target) const {
    const detail::window_state& state = open_state(operation);
    state.check_rank(operation, target);
    check_sync(call(target, state.win), operation);
  }
};

}  // namespace thinmpi
