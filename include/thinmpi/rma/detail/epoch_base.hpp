#pragma once
/// \file
/// What every epoch object shares: the window's state (held, so that an epoch that outlives
/// its window finds it freed instead of calling MPI on a freed handle), whether the epoch is
/// still open, the one check every operation makes first, and the one way an epoch's ending
/// call is made and checked. Also the signposts that explain, in one sentence, why an epoch
/// of the active-target kinds has no request-based operations or flushes, and why an exposure
/// epoch has no operations at all.

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
  /// The moved-from epoch keeps the window's state (not its epoch), so that using it names
  /// the window's rank and the move.
  epoch_base(epoch_base&& other) noexcept
      : state_(other.state_),
        open_(std::exchange(other.open_, false)),
        moved_from_(std::exchange(other.moved_from_, true)) {}
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
  void mark_closed() noexcept { open_ = false; }
  /// Why the epoch cannot be used: moved from, ended, or its window freed.
  [[nodiscard]] const char* closed_problem() const noexcept {
    if (moved_from_) return "this epoch was moved from; use the epoch it was moved to";
    if (state_->win == MPI_WIN_NULL) return "the epoch's window was freed";
    return "the epoch has ended; open a new one";
  }

  std::shared_ptr<window_state> state_;

 private:
  [[noreturn, gnu::cold, gnu::noinline]] void raise_sync(int rc, const char* operation) const {
    state_->raise(rc, state_->site(operation));
  }
  [[noreturn, gnu::cold, gnu::noinline]] void raise_closed(const char* operation) const {
    state_->refuse(operation, MPI_ERR_RMA_SYNC, closed_problem());
  }

  bool open_ = false;
  bool moved_from_ = false;
};

// Signposts: where a caller looks for an operation an object does not have, one sentence
// instead of the compiler's "no member named". Each return type is deduced from the body, so
// that `auto r = epoch.rput(...)` instantiates it there: the sentence is the first error, before
// any complaint about what the call returned. Why says the sentence (its explain<Args...>()).

/// The blocking-call operations, for an object that has none (Why says why).
template <class Why>
class no_operations {
 public:
  template <class... Args>
  auto put(Args&&...) const {
    return Why::template explain<Args...>();
  }
  template <class... Args>
  auto get(Args&&...) const {
    return Why::template explain<Args...>();
  }
  template <class... Args>
  auto accumulate(Args&&...) const {
    return Why::template explain<Args...>();
  }
  template <class... Args>
  auto get_accumulate(Args&&...) const {
    return Why::template explain<Args...>();
  }
  template <class... Args>
  auto fetch_and_op(Args&&...) const {
    return Why::template explain<Args...>();
  }
  template <class... Args>
  auto compare_and_swap(Args&&...) const {
    return Why::template explain<Args...>();
  }
};

/// The request-based operations, for an object that has none (Why says why).
template <class Why>
class no_requests {
 public:
  template <class... Args>
  auto rput(Args&&...) const {
    return Why::template explain<Args...>();
  }
  template <class... Args>
  auto rget(Args&&...) const {
    return Why::template explain<Args...>();
  }
  template <class... Args>
  auto raccumulate(Args&&...) const {
    return Why::template explain<Args...>();
  }
  template <class... Args>
  auto rget_accumulate(Args&&...) const {
    return Why::template explain<Args...>();
  }
};

/// The flushes, for an object that has none (Why says why).
template <class Why>
class no_flushes {
 public:
  template <class... Args>
  auto flush(Args&&...) const {
    return Why::template explain<Args...>();
  }
  template <class... Args>
  auto flush_local(Args&&...) const {
    return Why::template explain<Args...>();
  }
  template <class... Args>
  auto flush_all(Args&&...) const {
    return Why::template explain<Args...>();
  }
  template <class... Args>
  auto flush_local_all(Args&&...) const {
    return Why::template explain<Args...>();
  }
};

/// Why a window has no operations of its own.
struct outside_epoch {
  template <class... Args>
  static consteval void explain() {
    static_assert(dependent_false<void(Args...)>,
                  "thinmpi: a window has no one-sided operations of its own, so that none can "
                  "happen outside an epoch: open one with win.fence(), win.lock(rank), "
                  "win.lock_all() or win.start(ranks) and call the operation on it");
  }
};

/// Why an active-target epoch (fence, start) has no request-based operations.
struct requests_are_passive {
  template <class... Args>
  static consteval void explain() {
    static_assert(dependent_false<void(Args...)>,
                  "thinmpi: request-based one-sided operations (rput, rget, raccumulate, "
                  "rget_accumulate) belong to passive-target epochs only, as MPI allows them only "
                  "there: open win.lock(rank) or win.lock_all(), or use put, get, accumulate, "
                  "get_accumulate in this epoch");
  }
};

/// Why an active-target epoch has no flushes.
struct flushes_are_passive {
  template <class... Args>
  static consteval void explain() {
    static_assert(dependent_false<void(Args...)>,
                  "thinmpi: flushes belong to passive-target epochs (win.lock(rank), "
                  "win.lock_all()); in a fence epoch, epoch.fence() completes every operation on "
                  "every rank, and an access epoch (win.start) completes them with complete()");
  }
};

/// Why an exposure epoch has no operations.
struct exposure_is_accessed {
  template <class... Args>
  static consteval void explain() {
    static_assert(dependent_false<void(Args...)>,
                  "thinmpi: an exposure epoch (win.post(origins)) has no one-sided operations: "
                  "the origins it names access this rank's window; to access other ranks' "
                  "windows, open win.start(targets), win.fence(), win.lock(rank) or "
                  "win.lock_all() and call the operation on that epoch");
  }
};

/// What an active-target epoch (fence, start) does not have, each with its sentence.
class no_request_operations : public no_requests<requests_are_passive>,
                              public no_flushes<flushes_are_passive> {};

/// What an exposure epoch (post) does not have: any operation.
class no_exposure_operations : public no_operations<exposure_is_accessed>,
                               public no_requests<exposure_is_accessed> {};

}  // namespace thinmpi::detail
