#pragma once
/// \file
/// neighborhood_view: what the Cartesian and graph communicators share, a comm_view with a
/// topology and the neighborhood collectives (neighbor_allgather(v), neighbor_alltoall(v/w),
/// their `i` and `_init` forms). Only these types have them: on a plain communicator a
/// neighborhood collective does not compile.

#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/topology/detail/neighbor_routes.hpp"
#include "thinmpi/topology/neighbor_allgather.hpp"
#include "thinmpi/topology/neighbor_allgatherv.hpp"
#include "thinmpi/topology/neighbor_alltoall.hpp"
#include "thinmpi/topology/neighbor_alltoallv.hpp"
#include "thinmpi/topology/neighbor_alltoallw.hpp"

namespace thinmpi {

/// A non-owning handle of a communicator with a process topology: every operation of
/// comm_view plus the neighborhood collectives. Its in- and out-degree are read once, when the
/// handle is made, so the collectives make no query call; so is the path its alltoalls take
/// where a neighbor repeats (topology/detail/neighbor_routes.hpp: one MPI call wherever MPI
/// pairs the blocks as it defines, thinmpi's own single call where this MPI library does not).
/// Write functions that work on any topology against it:
///
///     void exchange(const thinmpi::neighborhood_view& topology, std::vector<double>& halo);
class neighborhood_view : public comm_view,
                          public neighborhood_allgather<neighborhood_view>,
                          public neighborhood_allgatherv<neighborhood_view>,
                          public neighborhood_alltoall<neighborhood_view>,
                          public neighborhood_alltoallv<neighborhood_view>,
                          public neighborhood_alltoallw<neighborhood_view> {
 public:
  /// The null communicator.
  neighborhood_view() noexcept = default;

  // The members below hide comm_view's detail::no_neighborhood, which makes the same calls on
  // a communicator without a topology fail to compile with a sentence naming the fix.
  using neighborhood_allgather::ineighbor_allgather;
  using neighborhood_allgather::neighbor_allgather;
  using neighborhood_allgather::neighbor_allgather_init;
  using neighborhood_allgatherv::ineighbor_allgatherv;
  using neighborhood_allgatherv::neighbor_allgatherv;
  using neighborhood_allgatherv::neighbor_allgatherv_init;
  using neighborhood_alltoall::ineighbor_alltoall;
  using neighborhood_alltoall::neighbor_alltoall;
  using neighborhood_alltoall::neighbor_alltoall_init;
  using neighborhood_alltoallv::ineighbor_alltoallv;
  using neighborhood_alltoallv::neighbor_alltoallv;
  using neighborhood_alltoallv::neighbor_alltoallv_init;
  using neighborhood_alltoallw::ineighbor_alltoallw;
  using neighborhood_alltoallw::neighbor_alltoallw;
  using neighborhood_alltoallw::neighbor_alltoallw_init;

  /// How many blocks a neighborhood collective receives: the in-neighbors (2 per dimension of
  /// a Cartesian grid, MPI_PROC_NULL ones included).
  [[nodiscard]] int in_degree() const noexcept { return in_degree_; }
  /// How many blocks a neighborhood collective sends: the out-neighbors.
  [[nodiscard]] int out_degree() const noexcept { return out_degree_; }

 protected:
  /// Wraps comm (MPI_ERRORS_RETURN set on it) with the degrees of its topology and the routes
  /// of its alltoalls.
  neighborhood_view(MPI_Comm comm, int in_degree, int out_degree,
                    detail::neighbor_routes routes = {})
      : comm_view(comm), in_degree_(in_degree), out_degree_(out_degree), routes_(routes) {}
  /// The same for a communicator thinmpi has just made, which inherited MPI_ERRORS_RETURN from
  /// its parent: nothing to set.
  neighborhood_view(MPI_Comm comm, detail::errors_return_already_set already, int in_degree,
                    int out_degree, detail::neighbor_routes routes)
      : comm_view(comm, already), in_degree_(in_degree), out_degree_(out_degree), routes_(routes) {}

  int in_degree_ = 0;   ///< read once when the handle is made: the collectives ask MPI nothing
  int out_degree_ = 0;  ///< likewise, the out-neighbors
  detail::neighbor_routes routes_{};  ///< decided once when the handle is made

 private:
  template <class>
  friend class neighborhood_alltoall;
  template <class>
  friend class neighborhood_alltoallv;
  template <class>
  friend class neighborhood_alltoallw;
};

}  // namespace thinmpi
