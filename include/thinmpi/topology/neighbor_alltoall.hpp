#pragma once
/// \file
/// neighbor_alltoall: each rank sends its own block to each out-neighbor and receives one block
/// from each in-neighbor, in MPI's neighbor order (for a Cartesian grid: per dimension, the
/// rank below then the rank above). Blocking (into the caller's buffer: one MPI call, no
/// allocation; or a new std::vector), nonblocking (`i`) and persistent (`_init`). Members of
/// the topology communicators only (topology/cartesian.hpp, topology/graph.hpp).

#include <cstddef>
#include <memory>
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
#include "thinmpi/topology/detail/neighbor_routes.hpp"

namespace thinmpi {

/// neighbor_alltoall (the topology communicators derive from this family; Comm gives
/// native(), in_degree() and out_degree()). `send` holds out_degree() equal blocks, block i for
/// out-neighbor i; `into` receives in_degree() blocks of that size, block j from in-neighbor j.
/// A block to or from an MPI_PROC_NULL neighbor (an open edge of a Cartesian grid) is not moved:
/// the receive block keeps what it held.
template <class Comm>
class neighborhood_alltoall {
 public:
  /// One MPI_Neighbor_alltoall, no allocation. `send` must split into out_degree() equal
  /// blocks (else the job ends: the neighbors would get blocks of another size) and `into`
  /// hold in_degree() of them (else this rank receives into scratch, then throws an mpi_error
  /// stating the sizes); a larger std::vector or std::string shrinks to that.
  ///
  ///     std::vector<double> halo_out(2 * n * 2), halo_in(halo_out.size());  // 2D grid, n each
  ///     grid.neighbor_alltoall(halo_out, halo_in);
  template <class Send, class Into>
  void neighbor_alltoall(const Send& send, Into&& into) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::collective_call call{"MPI_Neighbor_alltoall", comm()};
    const detail::const_buffer out = detail::never_null(detail::send_buffer(send));
    const detail::mutable_buffer in = detail::never_null(detail::recv_buffer(into));
    const std::size_t block = block_of(call, out, in.count);
    const std::size_t needed = block * in_degree();
    const auto exchange_into = [&](void* blocks) {
      if (routed(detail::neighbor_form::blocking)) [[unlikely]] {
        return route(out.data, block, out.type)->run(blocks);
      }
      return detail::counted_call<&MPI_Neighbor_alltoall,
                                  THINMPI_LARGE_COUNT_CALL(MPI_Neighbor_alltoall)>(
          detail::counts_at<1, 4>{}, out.data, block, out.type, blocks, block, in.type, comm());
    };
    detail::check_receive_room(call, in.count, needed, in.type, "one block from each in-neighbor",
                               exchange_into);
    detail::agree_if_checked(call);
    detail::check_collective(exchange_into(in.data), call, out.count, out.type);
    detail::shrink_to(into, needed);
  }
  /// neighbor_alltoall into a new std::vector of in_degree() blocks (one
  /// MPI_Neighbor_alltoall); blocks of MPI_PROC_NULL neighbors are value-initialized. A rank
  /// without out-neighbors cannot tell the block size from `send`: it passes a buffer.
  template <class Send>
  [[nodiscard]] std::vector<detail::element_t<Send>> neighbor_alltoall(const Send& send) const {
    detail::require_sendable<Send>();
    std::vector<detail::element_t<Send>> received(
        allocated_size("MPI_Neighbor_alltoall", detail::send_buffer(send)));
    neighbor_alltoall(send, received);
    return received;
  }

  /// Starts a neighbor_alltoall (MPI_Ineighbor_alltoall). A named `send` or `into` is borrowed
  /// and must outlive the request; one moved in is owned, and wait() hands back an owned
  /// `into`. Destroying the request while active waits for the collective.
  template <class Send, class Into>
  [[nodiscard]] auto ineighbor_alltoall(Send&& send, Into&& into) const {
    int block = 0;
    auto state = prepare<false>(std::forward<Send>(send), std::forward<Into>(into),
                                "MPI_Ineighbor_alltoall", block);
    if (routed(detail::neighbor_form::nonblocking)) [[unlikely]] {
      state->routed = route(detail::never_null(state->out()).data, static_cast<std::size_t>(block),
                            state->out().type);
    }
    return detail::post_state<collective_request>(
        std::move(state), [block](auto& s, MPI_Request* h) {
          const detail::const_buffer out = detail::never_null(s.out());
          const detail::mutable_buffer in = detail::never_null(s.in());
          if (s.routed) [[unlikely]] {
            return s.routed->post(in.data, h);
          }
          return MPI_Ineighbor_alltoall(out.data, block, out.type, in.data, block, in.type,
                                        s.call.comm, h);
        });
  }
  /// Starts a neighbor_alltoall into a new std::vector, which wait() hands back.
  template <class Send>
  [[nodiscard]] auto ineighbor_alltoall(Send&& send) const {
    detail::require_sendable<Send>();
    const std::size_t count =
        allocated_size("MPI_Ineighbor_alltoall", detail::send_buffer(std::as_const(send)));
    return ineighbor_alltoall(std::forward<Send>(send),
                              std::vector<detail::element_t<Send>>(count));
  }

  /// A persistent neighbor_alltoall (MPI-4 MPI_Neighbor_alltoall_init; Open MPI 4.1:
  /// MPIX_Neighbor_alltoall_init): each start() / wait() round exchanges what `send` holds
  /// then. Pass named buffers to change the data between rounds; wait() hands back a std::span
  /// of the received elements, valid while the request lives.
  ///
  ///     std::vector<double> border(n * grid.out_degree()), ghosts(n * grid.in_degree());
  ///     auto halo = grid.neighbor_alltoall_init(border, ghosts);
  ///     for (int step = 0; step < steps; ++step) {
  ///       update(border);  halo.start();  halo.wait();  use(ghosts);
  ///     }
  template <class Send, class Into>
  [[nodiscard]] auto neighbor_alltoall_init(Send&& send, Into&& into) const {
    int block = 0;
    auto state = prepare<true>(std::forward<Send>(send), std::forward<Into>(into),
                               "MPI_Neighbor_alltoall_init", block);
    if (routed(detail::neighbor_form::persistent)) [[unlikely]] {
      state->routed = route(detail::never_null(state->out()).data, static_cast<std::size_t>(block),
                            state->out().type);
    }
    return detail::post_state<persistent_request>(
        std::move(state), [block](auto& s, MPI_Request* h) {
          const detail::const_buffer out = detail::never_null(s.out());
          const detail::mutable_buffer in = detail::never_null(s.in());
          if (s.routed) [[unlikely]] {
            return s.routed->init(in.data, h);
          }
          return detail::persistent_call<detail::persistent_collective::neighbor_alltoall>(
              out.data, block, out.type, in.data, block, in.type, s.call.comm, MPI_INFO_NULL, h);
        });
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
  /// Whether this topology routes the exchange in `form` itself (a neighbor repeats, or a
  /// graph on MPICH 4.0: topology/detail/neighbor_routes.hpp).
  [[nodiscard]] bool routed(detail::neighbor_form form) const noexcept {
    return detail::alltoall_routed(static_cast<const Comm&>(*this).routes_, form);
  }
  /// The routed exchange of `block` elements of `type` to and from each neighbor, sent from
  /// `send`.
  [[nodiscard]] std::unique_ptr<detail::routed_exchange> route(const void* send, std::size_t block,
                                                               MPI_Datatype type) const {
    const auto& topology = static_cast<const Comm&>(*this);
    return detail::route(
        comm(), topology.routes_, detail::neighbor_family::alltoall, topology.in_degree(), send,
        detail::equal_blocks(static_cast<std::size_t>(topology.out_degree()), block, type),
        detail::equal_blocks(static_cast<std::size_t>(topology.in_degree()), block, type));
  }
  [[nodiscard]] std::size_t in_degree() const noexcept {
    return static_cast<std::size_t>(static_cast<const Comm&>(*this).in_degree());
  }
  [[nodiscard]] int out_degree() const noexcept {
    return static_cast<const Comm&>(*this).out_degree();
  }
  /// The block of each neighbor: `send` split among the out-neighbors, or, on a rank with
  /// none (and so nothing to send), `room` split among the in-neighbors.
  [[nodiscard]] std::size_t block_of(const detail::collective_call& call,
                                     const detail::const_buffer& out, std::size_t room) const {
    if (out_degree() == 0 && in_degree() != 0) {
      detail::neighbor_block(call, out.count, out.type, detail::out_neighbors(0), "send buffer");
      return detail::neighbor_block(call, room, out.type,
                                    detail::in_neighbors(static_cast<int>(in_degree())),
                                    "receive buffer");
    }
    return detail::neighbor_block(call, out.count, out.type, detail::out_neighbors(out_degree()),
                                  "send buffer");
  }
  /// The size of the vector an allocating form receives into. On a rank without
  /// out-neighbors (but with in-neighbors) it cannot be known, and the in-neighbors send
  /// already: the job ends (checked: every rank throws).
  [[nodiscard]] std::size_t allocated_size(const char* operation,
                                           const detail::const_buffer& out) const {
    const detail::collective_call call{operation, comm()};
    if (out_degree() == 0 && in_degree() != 0) [[unlikely]] {
      detail::failed_check(call, [&] {
        detail::raise_collective(MPI_ERR_COUNT, call, out.count, out.type,
                                 "this rank has no out-neighbors, so its send buffer cannot say "
                                 "the block size: pass a receive buffer of one block per "
                                 "in-neighbor");
      });
    }
    return block_of(call, out, 0) * in_degree();
  }
  /// The state of a neighbor_alltoall, its sizes checked and the receive buffer shrunk;
  /// `block_size` is set to the block of each neighbor. Every failure is this rank's alone and
  /// ends the job (a request cannot complete into scratch; checked: every rank throws).
  template <bool Persistent, class Send, class Into>
  auto prepare(Send&& send, Into&& into, const char* operation, int& block_size) const {
    auto state =
        detail::make_v_state<Persistent>(std::forward<Send>(send), std::forward<Into>(into),
                                         detail::collective_call{operation, comm()});
    const detail::const_buffer out = state->out();
    detail::neighbor_count_fits(state->call, out.count, out.type);
    const std::size_t block = block_of(state->call, out, state->in().count);
    detail::neighbor_count_fits(state->call, block * in_degree(), out.type);
    detail::check_local_room(state->call, state->in().count, block * in_degree(), out.type,
                             "receive buffer", "one block from each in-neighbor");
    detail::agree_if_checked(state->call);
    state->receive(block * in_degree());
    block_size = detail::to_int(block);
    return state;
  }
};

}  // namespace thinmpi
