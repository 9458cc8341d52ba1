#pragma once
/// \file
/// What every epoch object shares: the window's state (held, so that an epoch that outlives
/// its window finds it freed instead of calling MPI on a freed handle), whether the epoch is
/// still open, the one check every operation makes first, and the one way an epoch's ending
/// call is made and checked. Also the signposts that explain, in one sentence, why an epoch
/// of the active-target kinds has no request-based operations.

#include <memory>
#include <utility>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/requests/detail/request_access.hpp"
#include "thinmpi/rma/detail/raise_rma.hpp"
#include "thinmpi/rma/detail/window_state.hpp"

namespace thinmpi::detail {

/// The base of every epoch object. Move-only; a moved-from epoch is closed.
class epoch_base {
 public:
  epoch_base(const epoch_base&) = delete;
  epoch_base& operator=(const epoch_base&) = delete;
  epoch_base& operator=(epoch_base&&) = delete;

  /// Whether the epoch is open: opened, not ended, not moved from, its window not freed.
  [[nodiscard]] bool active() const noexcept {
    return open_ && state_ != nullptr && state_->win != MPI_WIN_NULL;
  }

 protected:
  explicit epoch_base(std::shared_ptr<window_state> state) noexcept : state_(std::move(state)) {}
  epoch_base(epoch_base&& other) noexcept
      : state_(std::move(other.state_)), open_(std::exchange(other.open_, false)) {}
  ~epoch_base() = default;

  /// The window's state, once the epoch may be used by `operation`; else an mpi_error.
  [[gnu::always_inline]] const window_state& open_state(const char* operation) const {
    if (!active()) [[unlikely]] {
      raise_closed(operation);
    }
    return *state_;
  }
  /// Makes the epoch's ending call `end` (a lambda calling MPI), marks the epoch closed with
  /// `close` whatever MPI answered, and throws if MPI failed.
  template <class End, class Close>
  void finish(const char* operation, End end, Close close) {
    const window_state& state = open_state(operation);
    const int rc = end(state.win);
    open_ = false;
    close(*state_);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_rma(rc, state.site(operation));
    }
  }
  /// The destructor's ending: as finish(), the error dropped (nobody is left to hear it), and
  /// nothing once MPI is finalized or the window freed.
  template <class End, class Close>
  void finish_quietly(End end, Close close) noexcept {
    if (!active() || mpi_finalized()) return;
    static_cast<void>(end(state_->win));
    open_ = false;
    close(*state_);
  }
  /// Throws unless rc is MPI_SUCCESS, naming a synchronization call on the window. Inline on
  /// every flush's path: one compare, the error built out of line.
  [[gnu::always_inline]] void check_sync(int rc, const char* operation) const {
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_sync(rc, operation);
    }
  }
  void mark_open() noexcept { open_ = true; }

  std::shared_ptr<window_state> state_;

 private:
  [[noreturn, gnu::cold, gnu::noinline]] void raise_sync(int rc, const char* operation) const {
    raise_rma(rc, state_->site(operation));
  }
  [[noreturn, gnu::cold, gnu::noinline]] void raise_closed(const char* operation) const {
    const char* problem = state_ == nullptr || state_->win != MPI_WIN_NULL
                              ? "the epoch has ended (or was moved from): open a new one"
                              : "the epoch's window was freed";
    if (state_ == nullptr)
      raise(MPI_ERR_RMA_SYNC, error_site{.operation = operation, .problem = problem});
    state_->refuse(operation, MPI_ERR_RMA_SYNC, problem);
  }

  bool open_ = false;
};

/// The request-based operations an active-target epoch (fence, start) does not have: each
/// explains why in one sentence.
class no_request_operations {
 public:
  template <class... Args>
  void rput(Args&&...) const {
    explain<Args...>();
  }
  template <class... Args>
  void rget(Args&&...) const {
    explain<Args...>();
  }
  template <class... Args>
  void raccumulate(Args&&...) const {
    explain<Args...>();
  }
  template <class... Args>
  void rget_accumulate(Args&&...) const {
    explain<Args...>();
  }

 private:
  template <class... Args>
  static consteval void explain() {
    static_assert(dependent_false<void(Args...)>,
                  "thinmpi: request-based one-sided operations (rput, rget, raccumulate, "
                  "rget_accumulate) belong to passive-target epochs only, as MPI allows them only "
                  "there: open win.lock(rank) or win.lock_all(), or use put, get, accumulate, "
                  "get_accumulate in this epoch");
  }
};

}  // namespace thinmpi::detail
