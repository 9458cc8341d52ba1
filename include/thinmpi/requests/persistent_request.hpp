#pragma once
/// \file
/// thinmpi::persistent_request: a persistent collective (MPI-4 `..._init`) or point-to-point
/// operation (p2p/persistent.hpp), set up once and started many times. Like collective_request it
/// owns, in one block whose address never changes, everything MPI reads or writes (buffers, counts,
/// the op); the MPI request is freed when the persistent_request is destroyed, after an active
/// round has completed.
///
/// The block is a State with:
///   [[noreturn]] void raise(int rc) const   throws the mpi_error of a failed round
///   void check_start()                      (optional) throws if a round cannot start (a
///                                           borrowed buffer that moved)
///   MPI_Request renew() noexcept            (optional) the persistent request set up again
///   void finish(int rc, const MPI_Status&)  (optional) ends a round from its status, throwing
///                                           if it failed, in place of raise(rc)
///   R take()                                hands back the round's result (void for none);
///                                           for a request that keeps its buffers between
///                                           rounds, a view or a copy, as the family documents

#include <memory>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/requests/request_face.hpp"

namespace thinmpi {

namespace detail {

/// The kind of a persistent_request: the State block, the persistent MPI request, and whether
/// a round runs.
template <class State>
struct persistent_rounds {
  std::unique_ptr<State> state_;
  MPI_Request handle_ = MPI_REQUEST_NULL;
  mutable MPI_Request idle_ = MPI_REQUEST_NULL;  // what posted_handle() gives between rounds
  bool started_ = false;

  /// The handle while a round runs; MPI_REQUEST_NULL otherwise (MPI_Wait leaves an inactive
  /// persistent handle in place, so the handle itself cannot say whether a round runs).
  MPI_Request& posted_handle() noexcept {
    idle_ = MPI_REQUEST_NULL;
    return started_ ? handle_ : idle_;
  }
  void complete_stage(int rc, const MPI_Status& status) {
    started_ = false;
    if constexpr (requires { state_->renew(); }) {
      // Open MPI 4.1.4 frees a persistent request whose round failed (MPI_Wait leaves
      // MPI_REQUEST_NULL, and the next MPI_Start is MPI_ERR_REQUEST; MPICH keeps it, as MPI
      // says): set it up again, so that the next start() works on both.
      if (rc != MPI_SUCCESS && handle_ == MPI_REQUEST_NULL) handle_ = state_->renew();
    }
    if constexpr (requires { state_->finish(rc, status); }) {
      state_->finish(rc, status);  // a round that reads its status (a persistent receive)
    } else if (rc != MPI_SUCCESS) [[unlikely]] {
      state_->raise(rc);
    }
  }
  decltype(auto) result() { return state_->take(); }
  /// Frees the MPI request once no round runs.
  void release() noexcept {
    if (handle_ != MPI_REQUEST_NULL && !mpi_finalized()) MPI_Request_free(&handle_);
    handle_ = MPI_REQUEST_NULL;
  }
};

}  // namespace detail

/// A persistent collective: start() begins a round (MPI_Start), wait() ends it and hands back
/// the round's result, test() does so if the round has completed, active() says whether a
/// round runs. Move-only; works with wait_all and wait_any while a round is running. Destroyed,
/// it waits for a running round (it cannot be cancelled), then frees the MPI request.
///
///     std::vector<double> local(n), totals(n);  // named: every round reads and writes them
///     auto sum = world.allreduce_init(local, totals, std::plus<>{});
///     for (int step = 0; step < steps; ++step) { update(local); sum.start(); sum.wait(); }
template <class State>
class [[nodiscard]] persistent_request
    : public detail::request_face<detail::persistent_rounds<State>> {
  using face = detail::request_face<detail::persistent_rounds<State>>;

 public:
  /// An empty request.
  persistent_request() = default;
  /// Owns state and the persistent MPI request set up on it (not started).
  persistent_request(std::unique_ptr<State> state, MPI_Request handle) noexcept
      : face(std::in_place, std::move(state), handle) {}

  /// Starts a round (MPI_Start). Every rank must start its rounds in the same order.
  void start() {
    auto& rounds = this->kind();
    if constexpr (requires { rounds.state_->check_start(); }) rounds.state_->check_start();
    if (rounds.started_) {
      rounds.state_->raise(MPI_ERR_REQUEST);  // MPI_Start of an active request is erroneous
    }
    if (const int rc = MPI_Start(&rounds.handle_); rc != MPI_SUCCESS) [[unlikely]] {
      rounds.state_->raise(rc);
    }
    rounds.started_ = true;
  }
  /// Blocks until the running round has completed (throws thinmpi::mpi_error if it failed),
  /// then hands back its result; without a running round, the last round's result. A round is
  /// one stage, so this is the face's wait() without its loop: one MPI_Wait (with
  /// MPI_STATUS_IGNORE where the state reads no status), then the same complete_stage that
  /// wait_all and the destructor end a round through.
  typename face::result_type wait() {
    auto& rounds = this->kind();
    if (rounds.started_) [[likely]] {
      MPI_Status raw;  // read only by a state that reads its status
      constexpr bool reads_status = requires(State & s, const MPI_Status& st) {
        s.finish(0, st);
      };
      const int rc = MPI_Wait(&rounds.handle_, reads_status ? &raw : MPI_STATUS_IGNORE);
      rounds.complete_stage(rc, raw);
    }
    return rounds.result();
  }
  /// The persistent MPI request.
  [[nodiscard]] MPI_Request native() const noexcept { return this->kind().handle_; }
};

}  // namespace thinmpi
