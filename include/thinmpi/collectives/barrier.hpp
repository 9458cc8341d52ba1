#pragma once
/// \file
/// barrier, ibarrier and barrier_init.

#include <memory>

#include "thinmpi/collectives/detail/persistent_calls.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/requests/collective_request.hpp"
#include "thinmpi/requests/persistent_request.hpp"

namespace thinmpi {

namespace detail {

/// What an ibarrier or a persistent barrier owns: nothing but its error context.
struct ibarrier_state {
  MPI_Comm comm;
  const char* operation;
  [[noreturn]] void raise(int rc) const {
    detail::raise(rc, error_site{.operation = operation, .comm = comm});
  }
  void take() const noexcept {}
};

}  // namespace detail

/// The barriers of a communicator (comm_view derives from this family).
template <class Comm>
class collective_barrier {
 public:
  /// Blocks until every rank has called barrier() (MPI_Barrier).
  void barrier() const { detail::check(MPI_Barrier(comm()), "MPI_Barrier", comm()); }
  /// Starts a barrier (MPI_Ibarrier); wait() returns once every rank has started one.
  [[nodiscard]] collective_request<detail::ibarrier_state> ibarrier() const {
    auto state =
        std::make_unique<detail::ibarrier_state>(detail::ibarrier_state{comm(), "MPI_Ibarrier"});
    MPI_Request handle = MPI_REQUEST_NULL;
    detail::check(MPI_Ibarrier(comm(), &handle), "MPI_Ibarrier", comm());
    return {std::move(state), handle};
  }
  /// A persistent barrier (MPI-4 MPI_Barrier_init; Open MPI 4.1: MPIX_Barrier_init): each
  /// start() / wait() round is one barrier.
  [[nodiscard]] persistent_request<detail::ibarrier_state> barrier_init() const {
    auto state = std::make_unique<detail::ibarrier_state>(
        detail::ibarrier_state{comm(), "MPI_Barrier_init"});
    MPI_Request handle = MPI_REQUEST_NULL;
    detail::check(detail::persistent_call<detail::persistent_collective::barrier>(
                      comm(), MPI_INFO_NULL, &handle),
                  "MPI_Barrier_init", comm());
    return {std::move(state), handle};
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
};

}  // namespace thinmpi
