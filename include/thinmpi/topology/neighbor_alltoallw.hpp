#pragma once
/// \file
/// neighbor_alltoallw: as neighbor_alltoallv, with a datatype per neighbor and displacements in
/// bytes (MPI_Aint), so that each neighbor's block can be a strided or sub-array view of the
/// buffer (the border columns of a row-major grid) with no packing copy. Blocking, nonblocking
/// (`i`) and persistent (`_init`).
///
///     std::vector<int> counts(4, 1);  // a 2D grid: 4 neighbors, one element of a type each
///     std::vector<MPI_Aint> sdispls(4), rdispls(4);
///     std::vector<MPI_Datatype> border_types(4, MPI_DOUBLE), ghost_types(4, MPI_DOUBLE);
///     grid.neighbor_alltoallw(field, counts, sdispls, border_types, field, counts, rdispls,
///                             ghost_types);

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/persistent_calls.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/collectives/detail/v_state.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/requests/collective_request.hpp"
#include "thinmpi/requests/persistent_request.hpp"
#include "thinmpi/topology/detail/neighbor_checks.hpp"
#include "thinmpi/topology/detail/neighbor_routes.hpp"

namespace thinmpi {

namespace detail {

/// The arrays of one side of a neighbor_alltoallw, as MPI reads them.
struct w_side {
  std::span<const int> counts;
  std::span<const MPI_Aint> displs;
  std::span<const MPI_Datatype> types;
};

/// The state of a nonblocking or persistent neighbor_alltoallw: the payloads (v_state) and
/// its own copies of the byte displacements and datatypes (the counts live in the v_arrays).
template <class Send, class Into, bool Persistent>
struct w_state : v_state<Send, Into, Persistent> {
  using v_state<Send, Into, Persistent>::v_state;
  std::vector<MPI_Aint> send_displs{};
  std::vector<MPI_Aint> recv_displs{};
  std::vector<MPI_Datatype> send_types{};
  std::vector<MPI_Datatype> recv_types{};
};

/// Throws MPI_ERR_ARG naming the neighbor whose count or byte displacement is negative.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_negative_w(const collective_call& call,
                                                                    const char* what,
                                                                    std::size_t neighbor,
                                                                    long long value) {
  raise_collective(MPI_ERR_ARG, call, std::nullopt, MPI_DATATYPE_NULL,
                   std::string(what) + "[" + std::to_string(neighbor) + "] is " +
                       std::to_string(value) + "; it must not be negative");
}

/// Checks one side of a neighbor_alltoallw before MPI is called: one count, displacement and
/// datatype per neighbor of `side`, no count or displacement negative. MPI reads and writes
/// what the datatypes describe; thinmpi does not measure them (that would take MPI calls per
/// neighbor on every exchange).
inline void check_w_side(const collective_call& call, neighbor_side side, const w_side& arrays,
                         const char* counts_name, const char* displs_name, const char* types_name) {
  check_per_neighbor(call, arrays.counts.size(), side, counts_name);
  check_per_neighbor(call, arrays.displs.size(), side, displs_name);
  check_per_neighbor(call, arrays.types.size(), side, types_name);
  for (std::size_t i = 0; i < arrays.counts.size(); ++i) {
    if (arrays.counts[i] < 0) [[unlikely]] {
      raise_negative_w(call, counts_name, i, arrays.counts[i]);
    }
    if (arrays.displs[i] < 0) [[unlikely]] {
      raise_negative_w(call, displs_name, i, static_cast<long long>(arrays.displs[i]));
    }
  }
}

}  // namespace detail

/// neighbor_alltoallw (the topology communicators derive from this family). sendcounts[i]
/// elements of sendtypes[i], starting sdispls[i] bytes into `send`, go to out-neighbor i;
/// recvcounts[j] elements of recvtypes[j] from in-neighbor j land rdispls[j] bytes into `into`.
/// `send` and `into` are any payloads (their address is what counts; they may be the same
/// object when the blocks do not overlap). Each array has one entry per neighbor.
template <class Comm>
class neighborhood_alltoallw {
  using counts = std::span<const int>;
  using bytes = std::span<const MPI_Aint>;
  using types = std::span<const MPI_Datatype>;

 public:
  /// One MPI_Neighbor_alltoallw, no allocation. Every array needs one entry per neighbor and no
  /// negative count or displacement, else the job ends: the arrays are this rank's own and its
  /// neighbors are in the collective (checked: every rank throws; detail/neighbor_checks.hpp).
  template <class Send, class Into>
  void neighbor_alltoallw(const Send& send, counts sendcounts, bytes sdispls, types sendtypes,
                          Into&& into, counts recvcounts, bytes rdispls, types recvtypes) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    const detail::collective_call call{"MPI_Neighbor_alltoallw", comm()};
    check(call, {sendcounts, sdispls, sendtypes}, {recvcounts, rdispls, recvtypes});
    if (routed(detail::neighbor_form::blocking)) [[unlikely]] {
      const int rc = route(detail::send_buffer(send).data, {sendcounts, sdispls, sendtypes},
                           {recvcounts, rdispls, recvtypes})
                         ->run(detail::recv_buffer(into).data);
      detail::check_collective(rc, call);
      return;
    }
    const int rc = MPI_Neighbor_alltoallw(
        detail::never_null(detail::send_buffer(send).data), detail::array_of(sendcounts),
        detail::array_of(sdispls), detail::array_of(sendtypes),
        detail::never_null(detail::recv_buffer(into).data), detail::array_of(recvcounts),
        detail::array_of(rdispls), detail::array_of(recvtypes), comm());
    detail::check_collective(rc, call);
  }

  /// Starts a neighbor_alltoallw (MPI_Ineighbor_alltoallw); the request keeps its own copies of
  /// the six arrays (the datatypes themselves must live until it completes). A named `send` or
  /// `into` is borrowed and must outlive the request; one moved in is owned, and wait() hands
  /// back an owned `into`.
  template <class Send, class Into>
  [[nodiscard]] auto ineighbor_alltoallw(Send&& send, counts sendcounts, bytes sdispls,
                                         types sendtypes, Into&& into, counts recvcounts,
                                         bytes rdispls, types recvtypes) const {
    auto state = prepare<false>(std::forward<Send>(send), std::forward<Into>(into),
                                {sendcounts, sdispls, sendtypes}, {recvcounts, rdispls, recvtypes},
                                "MPI_Ineighbor_alltoallw");
    if (routed(detail::neighbor_form::nonblocking)) [[unlikely]] {
      state->routed = route_state(*state);
    }
    return detail::post_state<collective_request>(std::move(state), [](auto& s, MPI_Request* h) {
      using detail::array_of;
      if (s.routed) [[unlikely]] {
        return s.routed->post(s.in().data, h);
      }
      return MPI_Ineighbor_alltoallw(
          detail::never_null(s.out().data), array_of(s.arrays.send_counts), array_of(s.send_displs),
          array_of(s.send_types), detail::never_null(s.in().data), array_of(s.arrays.recv_counts),
          array_of(s.recv_displs), array_of(s.recv_types), s.call.comm, h);
    });
  }

  /// A persistent neighbor_alltoallw (MPI_Neighbor_alltoallw_init; Open MPI 4.1: MPIX_): each
  /// start() / wait() round moves what the views of `send` describe then. wait() hands back a
  /// std::span of `into`'s elements, valid while the request lives.
  ///
  ///     std::vector<int> n(4, 1);
  ///     std::vector<MPI_Aint> sd(4), rd(4);
  ///     std::vector<MPI_Datatype> borders(4, MPI_DOUBLE), ghosts(4, MPI_DOUBLE);
  ///     auto halo = grid.neighbor_alltoallw_init(field, n, sd, borders, field, n, rd, ghosts);
  ///     for (int step = 0; step < steps; ++step) {
  ///       halo.start();  halo.wait();  update(field);
  ///     }
  template <class Send, class Into>
  [[nodiscard]] auto neighbor_alltoallw_init(Send&& send, counts sendcounts, bytes sdispls,
                                             types sendtypes, Into&& into, counts recvcounts,
                                             bytes rdispls, types recvtypes) const {
    auto state = prepare<true>(std::forward<Send>(send), std::forward<Into>(into),
                               {sendcounts, sdispls, sendtypes}, {recvcounts, rdispls, recvtypes},
                               "MPI_Neighbor_alltoallw_init");
    if (routed(detail::neighbor_form::persistent)) [[unlikely]] {
      state->routed = route_state(*state);
    }
    return detail::post_state<persistent_request>(std::move(state), [](auto& s, MPI_Request* h) {
      if (s.routed) [[unlikely]] {
        return s.routed->init(s.in().data, h);
      }
      return detail::persistent_call<detail::persistent_collective::neighbor_alltoallw>(
          detail::never_null(s.out().data), detail::array_of(s.arrays.send_counts),
          detail::array_of(s.send_displs), detail::array_of(s.send_types),
          detail::never_null(s.in().data), detail::array_of(s.arrays.recv_counts),
          detail::array_of(s.recv_displs), detail::array_of(s.recv_types), s.call.comm,
          MPI_INFO_NULL, h);
    });
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
  /// Whether this topology routes the exchange in `form` itself (a neighbor repeats:
  /// topology/detail/neighbor_routes.hpp).
  [[nodiscard]] bool routed(detail::neighbor_form form) const noexcept {
    return static_cast<const Comm&>(*this).routes_.takes_matched(detail::neighbor_family::alltoallw,
                                                                 form);
  }
  /// The routed exchange of the blocks both sides' arrays describe, sent from `send`.
  [[nodiscard]] std::unique_ptr<detail::routed_exchange> route(
      const void* send, const detail::w_side& sent, const detail::w_side& received) const {
    const auto& topology = static_cast<const Comm&>(*this);
    return detail::route(comm(), topology.routes_, detail::neighbor_family::alltoallw,
                         topology.in_degree(), send,
                         detail::typed_blocks(sent.counts, sent.displs, sent.types),
                         detail::typed_blocks(received.counts, received.displs, received.types));
  }
  /// route() of the arrays a nonblocking or persistent state keeps.
  template <class State>
  [[nodiscard]] std::unique_ptr<detail::routed_exchange> route_state(State& state) const {
    return route(state.out().data, {state.arrays.send_counts, state.send_displs, state.send_types},
                 {state.arrays.recv_counts, state.recv_displs, state.recv_types});
  }
  /// Both sides' arrays, this rank's own: a failure ends the job (checked: every rank
  /// throws); then the agreement of the checked mode.
  void check(const detail::collective_call& call, const detail::w_side& sent,
             const detail::w_side& received) const {
    const auto& topology = static_cast<const Comm&>(*this);
    detail::local_checks(call, [&] {
      detail::check_w_side(call, detail::out_neighbors(topology.out_degree()), sent, "sendcounts",
                           "sdispls", "sendtypes");
      detail::check_w_side(call, detail::in_neighbors(topology.in_degree()), received, "recvcounts",
                           "rdispls", "recvtypes");
    });
    detail::agree_if_checked(call);
  }
  template <bool Persistent, class Send, class Into>
  auto prepare(Send&& send, Into&& into, const detail::w_side& sent, const detail::w_side& received,
               const char* operation) const {
    detail::require_sendable<Send>();
    detail::require_writable<Into&&>();
    using state_type = detail::w_state<Send, Into, Persistent>;
    auto state = std::make_unique<state_type>(std::forward<Send>(send), std::forward<Into>(into),
                                              detail::collective_call{operation, comm()});
    check(state->call, sent, received);
    state->arrays.send_counts.assign(sent.counts.begin(), sent.counts.end());
    state->arrays.recv_counts.assign(received.counts.begin(), received.counts.end());
    state->send_displs.assign(sent.displs.begin(), sent.displs.end());
    state->recv_displs.assign(received.displs.begin(), received.displs.end());
    state->send_types.assign(sent.types.begin(), sent.types.end());
    state->recv_types.assign(received.types.begin(), received.types.end());
    state->receive(state->in().count);  // the whole buffer: the datatypes say where
    return state;
  }
};

}  // namespace thinmpi
