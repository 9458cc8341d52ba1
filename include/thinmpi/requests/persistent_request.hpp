#pragma once
/// \file
/// thinmpi::persistent_request: a persistent collective (MPI-4 `..._init`), set up once and
/// started many times. Like collective_request it owns, in one block whose address never
/// changes, everything MPI reads or writes (buffers, counts, the op); the MPI request is freed
/// when the persistent_request is destroyed, after an active round has completed.
///
/// The block is a State with:
///   [[noreturn]] void raise(int rc) const   throws the mpi_error of a failed round
///   R take()                                hands back the round's result (void for none);
///                                           for a request that keeps its buffers between
///                                           rounds, a view or a copy, as the family documents

#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/requests/detail/request_access.hpp"

namespace thinmpi {

/// A persistent collective: start() begins a round (MPI_Start), wait() ends it. Move-only;
/// works with wait_all and wait_any while a round is running.
///
///     auto sum = world.allreduce_init(std::vector<double>(n), std::plus<>{});
///     for (int step = 0; step < steps; ++step) { ...; sum.start(); sum.wait(); }
template <class State>
class [[nodiscard]] persistent_request {
 public:
  /// What wait() hands back.
  using result_type = decltype(std::declval<State&>().take());

  /// An empty request.
  persistent_request() = default;
  /// Owns state and the persistent MPI request set up on it (not started).
  persistent_request(std::unique_ptr<State> state, MPI_Request handle) noexcept
      : state_(std::move(state)), handle_(handle) {}

  persistent_request(persistent_request&& other) noexcept
      : state_(std::move(other.state_)),
        handle_(std::exchange(other.handle_, MPI_REQUEST_NULL)),
        started_(std::exchange(other.started_, false)) {}
  persistent_request& operator=(persistent_request&& other) noexcept {
    if (this != &other) {
      release();
      state_ = std::move(other.state_);
      handle_ = std::exchange(other.handle_, MPI_REQUEST_NULL);
      started_ = std::exchange(other.started_, false);
    }
    return *this;
  }
  persistent_request(const persistent_request&) = delete;
  persistent_request& operator=(const persistent_request&) = delete;
  /// Waits for a running round (it cannot be cancelled), then frees the MPI request.
  ~persistent_request() { release(); }

  /// Starts a round (MPI_Start). Every rank must start its rounds in the same order.
  void start() {
    if (started_) {
      state_->raise(MPI_ERR_REQUEST);  // MPI_Start of an active request is erroneous
    }
    if (const int rc = MPI_Start(&handle_); rc != MPI_SUCCESS) [[unlikely]] {
      state_->raise(rc);
    }
    started_ = true;
  }
  /// Blocks until the running round has completed on this rank, then hands back its result.
  result_type wait() {
    detail::progress(*this, true);
    return state_->take();
  }
  /// Whether the running round has completed (never blocks); with a result, the result if so.
  [[nodiscard]] auto test() {
    const bool done = detail::progress(*this, false);
    if constexpr (std::is_void_v<result_type>) {
      return done;
    } else {
      return done ? std::optional<result_type>(state_->take()) : std::nullopt;
    }
  }
  /// Whether a round is running.
  [[nodiscard]] bool active() const noexcept { return started_; }
  /// The persistent MPI request.
  [[nodiscard]] MPI_Request native() const noexcept { return handle_; }

 private:
  friend struct detail::request_access;

  /// The handle while a round runs; MPI_REQUEST_NULL otherwise (MPI_Wait leaves an inactive
  /// persistent handle in place, so the handle itself cannot say whether a round runs).
  MPI_Request& posted_handle() noexcept {
    idle_ = MPI_REQUEST_NULL;
    return started_ ? handle_ : idle_;
  }
  void complete_stage(int rc, const MPI_Status&) {
    started_ = false;
    if (rc != MPI_SUCCESS) [[unlikely]] {
      state_->raise(rc);
    }
  }
  void release() noexcept {
    detail::abandon(*this);
    if (handle_ != MPI_REQUEST_NULL && !detail::mpi_finalized()) MPI_Request_free(&handle_);
    handle_ = MPI_REQUEST_NULL;
  }

  std::unique_ptr<State> state_;
  MPI_Request handle_ = MPI_REQUEST_NULL;
  MPI_Request idle_ = MPI_REQUEST_NULL;
  bool started_ = false;
};

}  // namespace thinmpi
