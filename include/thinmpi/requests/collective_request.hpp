#pragma once
/// \file
/// thinmpi::collective_request: a nonblocking collective that owns, in one heap block whose
/// address never changes, everything MPI reads or writes until it completes (buffers moved in,
/// counts, displacements, the reduction op and its state). Collectives cannot be cancelled, so
/// one destroyed while active waits for completion, which blocks until the other ranks join.
///
/// The block is a State of the operation's family, with:
///   [[noreturn]] void raise(int rc) const   throws the mpi_error of a failed stage (the
///                                           operation, root, counts: what the family knows)
///   R take()                                hands back the result (void for none)
/// and, for an operation of several MPI calls (counts exchanged, then the v-collective):
///   void next_stage(MPI_Request& handle)    posts the next call into handle after one
///                                           completed, or leaves it MPI_REQUEST_NULL when done

#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/requests/detail/request_access.hpp"

namespace thinmpi {

/// A nonblocking collective (ibarrier, ibcast, iallreduce, ...). Move-only; works with wait_all
/// and wait_any.
///
///     auto r = world.iallreduce(std::vector<double>(n, 1.0), std::plus<>{});
///     std::vector<double> sums = r.wait();
template <class State>
class [[nodiscard]] collective_request {
 public:
  /// What wait() hands back.
  using result_type = decltype(std::declval<State&>().take());

  /// An inactive request.
  collective_request() = default;
  /// Owns state and the MPI request posted on it.
  collective_request(std::unique_ptr<State> state, MPI_Request handle) noexcept
      : state_(std::move(state)), handle_(handle) {}

  collective_request(collective_request&& other) noexcept
      : state_(std::move(other.state_)), handle_(std::exchange(other.handle_, MPI_REQUEST_NULL)) {}
  collective_request& operator=(collective_request&& other) noexcept {
    if (this != &other) {
      detail::abandon(*this);
      state_ = std::move(other.state_);
      handle_ = std::exchange(other.handle_, MPI_REQUEST_NULL);
    }
    return *this;
  }
  /// Waits for an active collective (it cannot be cancelled): blocks until the other ranks join.
  ~collective_request() { detail::abandon(*this); }

  /// Blocks until the collective has completed on this rank, then hands back its result.
  result_type wait() {
    detail::progress(*this, true);
    return state_->take();
  }
  /// Whether the collective has completed (never blocks); with a result, the result if so.
  [[nodiscard]] auto test() {
    const bool done = detail::progress(*this, false);
    if constexpr (std::is_void_v<result_type>) {
      return done;
    } else {
      return done ? std::optional<result_type>(state_->take()) : std::nullopt;
    }
  }
  /// Whether a stage of the collective is still running.
  [[nodiscard]] bool active() const noexcept { return handle_ != MPI_REQUEST_NULL; }
  /// The MPI handle of the running stage (MPI_REQUEST_NULL once complete).
  [[nodiscard]] MPI_Request native() const noexcept { return handle_; }

 private:
  friend struct detail::request_access;

  MPI_Request& posted_handle() noexcept { return handle_; }
  void complete_stage(int rc, const MPI_Status&) {
    if (rc != MPI_SUCCESS) [[unlikely]] {
      state_->raise(rc);
    }
    if constexpr (requires { state_->next_stage(handle_); }) state_->next_stage(handle_);
  }

  std::unique_ptr<State> state_;
  MPI_Request handle_ = MPI_REQUEST_NULL;
};

}  // namespace thinmpi
