#pragma once
/// \file
/// barrier and ibarrier.

#include <memory>

#include "thinmpi/collective_request.hpp"
#include "thinmpi/detail/mpi.hpp"
#include "thinmpi/detail/raise.hpp"

namespace thinmpi {

namespace detail {

/// What an ibarrier owns: nothing but its error context.
struct ibarrier_state {
  MPI_Comm comm;
  [[noreturn]] void raise(int rc) const {
    detail::raise(rc, error_site{.operation = "MPI_Ibarrier", .comm = comm});
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
    auto state = std::make_unique<detail::ibarrier_state>(detail::ibarrier_state{comm()});
    MPI_Request handle = MPI_REQUEST_NULL;
    detail::check(MPI_Ibarrier(comm(), &handle), "MPI_Ibarrier", comm());
    return {std::move(state), handle};
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
};

}  // namespace thinmpi
