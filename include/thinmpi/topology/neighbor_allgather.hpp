#pragma once
/// \file
/// neighbor_allgather: each rank sends one block to every out-neighbor of its topology and
/// receives one block from each in-neighbor, in MPI's neighbor order (for a Cartesian grid:
/// per dimension, the rank below then the rank above). Blocking (into the caller's buffer: one
/// MPI call, no allocation; or a new std::vector), nonblocking (`i`) and persistent (`_init`).
/// Members of the topology communicators only (topology/cartesian.hpp, topology/graph.hpp).

#include <cstddef>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/persistent_calls.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/collectives/detail/v_state.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/requests/collective_request.hpp"
#include "thinmpi/requests/persistent_request.hpp"
#include "thinmpi/topology/detail/neighbor_checks.hpp"

namespace thinmpi {

/// neighbor_allgather (the topology communicators derive from this family; Comm gives
/// native(), in_degree() and out_degree()). Payloads as in send/recv: a scalar or a
/// contiguous range. A block from an MPI_PROC_NULL neighbor (an open edge of a Cartesian grid)
/// is not written: it keeps what the buffer held.
template <class Comm>
class neighborhood_allgather {
 public:
  /// Sends `send` to every out-neighbor and receives each in-neighbor's block, in neighbor
  /// order, into `into`: one MPI_Neighbor_allgather, no allocation. `into` must hold
  /// in_degree() x the send count; a larger std::vector or std::string shrinks to that. A rank
  /// whose `into` is too small still receives, into scratch, then throws an mpi_error stating
  /// both sizes (MPI_ERR_COUNT), so that its neighbors complete with their own data.
  ///
  ///     double x = 0.5 * rank;
  ///     std::vector<double> from_each(grid.in_degree()); grid.neighbor_allgather(x, from_each);
  template <class Send, class Into>
  void neighbor_allgather(const Send& send, Into&& into) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::collective_call call{"MPI_Neighbor_allgather", comm()};
    const detail::const_buffer out = detail::never_null(detail::send_buffer(send));
    const detail::mutable_buffer in = detail::never_null(detail::recv_buffer(into));
    const std::size_t needed = times_in_degree(out.count);
    detail::check_receive_room(call, in.count, needed, in.type, "one block per in-neighbor",
                               [&](void* scratch) { return gather_into(out, scratch, in.type); });
    detail::agree_if_checked(call);
    detail::check_collective(gather_into(out, in.data, in.type), call, out.count, out.type);
    detail::shrink_to(into, needed);
  }
  /// Each in-neighbor's `send` in a new std::vector, in neighbor order (one
  /// MPI_Neighbor_allgather); blocks of MPI_PROC_NULL neighbors are value-initialized.
  ///
  ///     std::vector<int> ranks = grid.neighbor_allgather(grid.rank());
  template <class Send>
  [[nodiscard]] std::vector<detail::element_t<Send>> neighbor_allgather(const Send& send) const {
    detail::require_sendable<Send>();
    std::vector<detail::element_t<Send>> all(times_in_degree(detail::send_buffer(send).count));
    neighbor_allgather(send, all);
    return all;
  }

  /// Starts a neighbor_allgather (MPI_Ineighbor_allgather). A named `send` or `into` is
  /// borrowed and must outlive the request; one moved in is owned, and wait() hands back an
  /// owned `into`. Destroying the request while active waits for the collective.
  template <class Send, class Into>
  [[nodiscard]] auto ineighbor_allgather(Send&& send, Into&& into) const {
    auto state = prepare<false>(std::forward<Send>(send), std::forward<Into>(into),
                                "MPI_Ineighbor_allgather");
    return detail::post_state<collective_request>(std::move(state), [](auto& s, MPI_Request* h) {
      const detail::const_buffer out = detail::never_null(s.out());
      const detail::mutable_buffer in = detail::never_null(s.in());
      const int count = detail::to_int(out.count);
      return MPI_Ineighbor_allgather(out.data, count, out.type, in.data, count, in.type,
                                     s.call.comm, h);
    });
  }
  /// Starts a neighbor_allgather into a new std::vector, which wait() hands back.
  template <class Send>
  [[nodiscard]] auto ineighbor_allgather(Send&& send) const {
    detail::require_sendable<Send>();
    const std::size_t count = detail::send_buffer(send).count;
    return ineighbor_allgather(std::forward<Send>(send),
                               std::vector<detail::element_t<Send>>(times_in_degree(count)));
  }

  /// A persistent neighbor_allgather (MPI-4 MPI_Neighbor_allgather_init; Open MPI 4.1:
  /// MPIX_Neighbor_allgather_init): each start() / wait() round gathers what `send` holds
  /// then into `into`. Pass named buffers to change the data between rounds; wait() hands back
  /// a std::span of the received elements, valid while the request lives.
  template <class Send, class Into>
  [[nodiscard]] auto neighbor_allgather_init(Send&& send, Into&& into) const {
    auto state = prepare<true>(std::forward<Send>(send), std::forward<Into>(into),
                               "MPI_Neighbor_allgather_init");
    return detail::post_state<persistent_request>(std::move(state), [](auto& s, MPI_Request* h) {
      const detail::const_buffer out = detail::never_null(s.out());
      const detail::mutable_buffer in = detail::never_null(s.in());
      const int count = detail::to_int(out.count);
      return detail::persistent_call<detail::persistent_collective::neighbor_allgather>(
          out.data, count, out.type, in.data, count, in.type, s.call.comm, MPI_INFO_NULL, h);
    });
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
  /// One MPI_Neighbor_allgather of `out` into `into` (MPI_Neighbor_allgather_c past INT_MAX).
  int gather_into(const detail::const_buffer& out, void* into, MPI_Datatype type) const {
    return detail::counted_call<&MPI_Neighbor_allgather,
                                THINMPI_LARGE_COUNT_CALL(MPI_Neighbor_allgather)>(
        detail::counts_at<1, 4>{}, out.data, out.count, out.type, into, out.count, type, comm());
  }
  /// The size of one block from each in-neighbor.
  [[nodiscard]] std::size_t times_in_degree(std::size_t count) const noexcept {
    return count * static_cast<std::size_t>(static_cast<const Comm&>(*this).in_degree());
  }
  /// The state of a neighbor_allgather, its sizes checked and the receive buffer shrunk. A
  /// count past INT_MAX or a receive buffer too small is this rank's alone and ends the job
  /// (the request cannot complete into scratch; checked: every rank throws).
  template <bool Persistent, class Send, class Into>
  auto prepare(Send&& send, Into&& into, const char* operation) const {
    auto state =
        detail::make_v_state<Persistent>(std::forward<Send>(send), std::forward<Into>(into),
                                         detail::collective_call{operation, comm()});
    const detail::const_buffer out = state->out();
    detail::neighbor_count_fits(state->call, out.count, out.type);
    const std::size_t all = times_in_degree(out.count);
    detail::check_local_room(state->call, state->in().count, all, out.type, "receive buffer",
                             "one block per in-neighbor");
    detail::agree_if_checked(state->call);
    state->receive(all);
    return state;
  }
};

}  // namespace thinmpi
