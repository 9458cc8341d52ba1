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
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/requests/request_face.hpp"

namespace thinmpi {

namespace detail {

/// The kind of a collective_request: the State block and the handle of its running stage.
template <class State>
struct collective_stages {
  std::unique_ptr<State> state_;
  MPI_Request handle_ = MPI_REQUEST_NULL;

  MPI_Request& posted_handle() noexcept { return handle_; }
  void complete_stage(int rc, const MPI_Status&) {
    if (rc != MPI_SUCCESS) [[unlikely]] {
      state_->raise(rc);
    }
    if constexpr (requires { state_->next_stage(handle_); }) state_->next_stage(handle_);
  }
  decltype(auto) result() { return state_->take(); }
};

}  // namespace detail

/// A nonblocking collective (ibarrier, ibcast, iallreduce, ...). Move-only; works with wait_all
/// and wait_any. wait() hands back the result; test() the result if complete (a bool where the
/// collective has none); a request destroyed while active waits (collectives cannot be
/// cancelled), which blocks until the other ranks join.
///
///     auto r = world.iallreduce(std::vector<double>(n, 1.0), std::plus<>{});
///     std::vector<double> sums = r.wait();
template <class State>
class [[nodiscard]] collective_request
    : public detail::request_face<detail::collective_stages<State>> {
  using face = detail::request_face<detail::collective_stages<State>>;

 public:
  /// An inactive request.
  collective_request() = default;
  /// Owns state and the MPI request posted on it.
  collective_request(std::unique_ptr<State> state, MPI_Request handle) noexcept
      : face(std::in_place, std::move(state), handle) {}

  /// The MPI handle of the running stage (MPI_REQUEST_NULL once complete).
  [[nodiscard]] MPI_Request native() const noexcept { return this->kind().handle_; }
};

}  // namespace thinmpi
