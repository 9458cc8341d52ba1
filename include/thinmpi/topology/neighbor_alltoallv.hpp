#pragma once
/// \file
/// neighbor_alltoallv: as neighbor_alltoall, with blocks of different sizes per neighbor.
/// Counts given (one MPI call) with or without displacements, or the receive counts exchanged
/// first because the call names thinmpi::exchange_counts (an MPI_Neighbor_alltoall of one int
/// per neighbor, then the MPI_Neighbor_alltoallv). Blocking, nonblocking (`i`) and persistent
/// (`_init`).

#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/count_exchange_state.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/persistent_calls.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/collectives/detail/v_calls.hpp"
#include "thinmpi/collectives/detail/v_state.hpp"
#include "thinmpi/collectives/exchange_counts.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/requests/collective_request.hpp"
#include "thinmpi/requests/persistent_request.hpp"
#include "thinmpi/topology/detail/neighbor_checks.hpp"
#include "thinmpi/topology/detail/neighbor_routes.hpp"

namespace thinmpi {

namespace detail {

/// The stages of ineighbor_alltoallv(send, sendcounts, exchange_counts)
/// (count_exchange_state): an MPI_Ineighbor_alltoall of the counts, one int per neighbor, then
/// the MPI_Ineighbor_alltoallv.
inline int ineighbor_alltoall_counts(const int* sent, int* received, MPI_Comm comm,
                                     MPI_Request* request) {
  return MPI_Ineighbor_alltoall(never_null(sent), 1, MPI_INT, never_null(received), 1, MPI_INT,
                                comm, request);
}
inline int ineighbor_alltoallv_blocks(const const_buffer& out, const v_spans& arrays, void* into,
                                      MPI_Comm comm, MPI_Request* request) {
  const v_spans a = arrays_of(arrays);
  return MPI_Ineighbor_alltoallv(never_null(out.data), a.send_counts.data(), a.send_displs.data(),
                                 out.type, never_null(into), a.recv_counts.data(),
                                 a.recv_displs.data(), out.type, comm, request);
}

/// Where a neighborhood alltoallv takes its displacements from: the caller (given) or the
/// counts laid end to end (packed).
enum class displs_from { given, packed };

}  // namespace detail

/// neighbor_alltoallv (the topology communicators derive from this family). sendcounts[i]
/// elements at sdispls[i] of `send` go to out-neighbor i; recvcounts[j] elements from
/// in-neighbor j land at rdispls[j] of `into`. The send arrays have one entry per out-neighbor,
/// the receive arrays one per in-neighbor, MPI_PROC_NULL neighbors included.
template <class Comm>
class neighborhood_alltoallv {
  using span = std::span<const int>;

 public:
  /// One MPI_Neighbor_alltoallv, no allocation. Every array needs one entry per neighbor, none
  /// negative, and `send` room for its blocks (else the job ends: detail/neighbor_checks.hpp
  /// says why); `into` too small for its blocks is received into scratch, then an mpi_error. A
  /// larger std::vector or std::string `into` shrinks to the extent of the blocks.
  template <class Send, class Into>
  void neighbor_alltoallv(const Send& send, span sendcounts, span sdispls, Into&& into,
                          span recvcounts, span rdispls) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::const_buffer out = detail::never_null(detail::send_buffer(send));
    const detail::mutable_buffer in = detail::never_null(detail::recv_buffer(into));
    // Scalars only on the hot path, as alltoallv's: one pass over each side that throws
    // nothing, then one comparison per check. Anything else (an array of another length, a
    // negative entry, a buffer too small, a topology that routes the exchange itself) takes
    // the full path, which checks in order with the whole error context (alltoallv_into).
    const auto outs = static_cast<std::size_t>(static_cast<const Comm&>(*this).out_degree());
    const auto ins = static_cast<std::size_t>(in_degree());
    const bool shaped = sendcounts.size() == outs && sdispls.size() == outs &&
                        recvcounts.size() == ins && rdispls.size() == ins;
    detail::given_scan sent;
    detail::given_scan received;
    if (shaped) [[likely]] {
      sent = detail::scan_given(sendcounts, sdispls);
      received = detail::scan_given(recvcounts, rdispls);
    }
    if (!shaped || sent.negative || received.negative || out.count < sent.extent ||
        in.count < received.extent || routed(detail::neighbor_form::blocking)) [[unlikely]] {
      given_alltoallv_checked(send, std::forward<Into>(into),
                              {sendcounts, sdispls, recvcounts, rdispls});
      return;
    }
    const detail::collective_call call{"MPI_Neighbor_alltoallv", comm()};
    detail::agree_if_checked(call);
    detail::check_collective(
        MPI_Neighbor_alltoallv(out.data, detail::array_of(sendcounts), detail::array_of(sdispls),
                               out.type, in.data, detail::array_of(recvcounts),
                               detail::array_of(rdispls), in.type, call.comm),
        call, out.count, out.type);
    detail::shrink_to(into, received.extent);
  }
  /// neighbor_alltoallv with the blocks laid end to end in neighbor order on both sides (it
  /// allocates the displacements; past INT_MAX, MPI_Neighbor_alltoallv_c on MPICH 4.0, an
  /// mpi_error on Open MPI 4.1).
  template <class Send, class Into>
  void neighbor_alltoallv(const Send& send, span sendcounts, Into&& into, span recvcounts) const {
    alltoallv_into(send, std::forward<Into>(into), {sendcounts, {}, recvcounts, {}},
                   detail::displs_from::packed);
  }
  /// neighbor_alltoallv where each rank knows only what it sends: an MPI_Neighbor_alltoall of
  /// the counts (one int per neighbor), then the MPI_Neighbor_alltoallv into a new vector
  /// (blocks end to end on both sides). Returns the data with the received counts and
  /// displacements (0 for MPI_PROC_NULL neighbors).
  ///
  ///     thinmpi::graph_communicator graph(world, {left}, {right});
  ///     std::vector<int> outbox(rank), counts = {rank};  // rank elements to the right
  ///     auto inbox = graph.neighbor_alltoallv(outbox, counts, thinmpi::exchange_counts);
  template <class Data = detail::vector_of_elements, class Send>
  [[nodiscard]] detail::varying_for<Data, Send> neighbor_alltoallv(const Send& send,
                                                                   span sendcounts,
                                                                   exchange_counts_t) const {
    detail::require_sendable<Send>();
    detail::require_varying_data<Data, detail::element_t<Send>>();
    detail::collective_call call{"MPI_Neighbor_alltoall", comm()};
    const detail::const_buffer out = detail::never_null(detail::send_buffer(send));
    std::vector<int> send_displs;
    const detail::v_layout sent = detail::neighbor_layout(call, out_side(), sendcounts, nullptr,
                                                          "sendcounts", "sdispls", send_displs);
    detail::check_local_room(call, out.count, sent.extent, out.type, "send buffer",
                             "the sum of sendcounts");
    detail::agree_if_checked(call);
    detail::varying_for<Data, Send> result;
    const int sources = in_degree();
    result.counts.resize(static_cast<std::size_t>(sources));
    detail::check_collective(exchange_counts_of(sendcounts, result.counts), call);
    call.operation = "MPI_Neighbor_alltoallv";
    const detail::v_layout received =
        detail::packed_displacements(call, result.counts, sources, "recvcounts", result.displs);
    detail::check_exchanged_fit(call, received, out.type);
    result.data.resize(received.extent);
    const detail::v_spans arrays =
        detail::arrays_of({sendcounts, send_displs, result.counts, result.displs});
    const detail::mutable_buffer in = detail::never_null(detail::recv_buffer(result.data));
    const int rc = routed(detail::neighbor_form::blocking)
                       ? route(out.data, arrays, out.type)->run(in.data)
                       : detail::alltoallv_call<&MPI_Neighbor_alltoallv,
                                                THINMPI_LARGE_COUNT_CALL(MPI_Neighbor_alltoallv)>(
                             out, in, arrays, sent, received, call, "MPI_Neighbor_alltoallv_c");
    detail::check_collective(rc, call, out.count, out.type);
    return result;
  }

  /// Starts a neighbor_alltoallv with counts and displacements given
  /// (MPI_Ineighbor_alltoallv); the request keeps its own copies of the four arrays. Buffers
  /// are borrowed or owned as in ineighbor_alltoall.
  template <class Send, class Into>
  [[nodiscard]] auto ineighbor_alltoallv(Send&& send, span sendcounts, span sdispls, Into&& into,
                                         span recvcounts, span rdispls) const {
    return start(std::forward<Send>(send), std::forward<Into>(into),
                 {sendcounts, sdispls, recvcounts, rdispls}, detail::displs_from::given);
  }
  /// Starts a neighbor_alltoallv with the blocks laid end to end; the request computes and
  /// owns the displacements.
  template <class Send, class Into>
  [[nodiscard]] auto ineighbor_alltoallv(Send&& send, span sendcounts, Into&& into,
                                         span recvcounts) const {
    return start(std::forward<Send>(send), std::forward<Into>(into),
                 {sendcounts, {}, recvcounts, {}}, detail::displs_from::packed);
  }
  /// Starts a neighbor_alltoallv that exchanges counts first: MPI_Ineighbor_alltoall of the
  /// counts, and, once they arrive (in whichever wait or test completes that stage),
  /// MPI_Ineighbor_alltoallv. wait() hands back the thinmpi::varying result.
  template <class Data = detail::vector_of_elements, class Send>
  [[nodiscard]] auto ineighbor_alltoallv(Send&& send, span sendcounts, exchange_counts_t) const {
    detail::require_sendable<Send>();
    detail::require_varying_data<Data, detail::element_t<Send>>();
    using state_type = detail::count_exchange_state<Send, Data, &detail::ineighbor_alltoall_counts,
                                                    &detail::ineighbor_alltoallv_blocks>;
    auto state = std::make_unique<state_type>(
        std::forward<Send>(send), detail::collective_call{"MPI_Ineighbor_alltoall", comm()},
        "MPI_Ineighbor_alltoallv", in_degree());
    const detail::const_buffer out = state->out();
    const detail::v_layout sent = detail::neighbor_layout(
        state->call, out_side(), sendcounts, nullptr, "sendcounts", "sdispls", state->send_displs);
    detail::neighbor_layout_fits(state->call, sent, out.type, "the sum of sendcounts", nullptr);
    detail::check_local_room(state->call, out.count, sent.extent, out.type, "send buffer",
                             "the sum of sendcounts");
    detail::agree_if_checked(state->call);
    state->send_counts.assign(sendcounts.begin(), sendcounts.end());
    route_stages(*state, detail::neighbor_form::nonblocking);
    return detail::post_count_exchange(std::move(state));
  }

  /// A persistent neighbor_alltoallv with counts and displacements given
  /// (MPI_Neighbor_alltoallv_init; Open MPI 4.1: MPIX_); the request keeps its own copies.
  /// wait() hands back a std::span of the received elements.
  template <class Send, class Into>
  [[nodiscard]] auto neighbor_alltoallv_init(Send&& send, span sendcounts, span sdispls,
                                             Into&& into, span recvcounts, span rdispls) const {
    return set_up(std::forward<Send>(send), std::forward<Into>(into),
                  {sendcounts, sdispls, recvcounts, rdispls}, detail::displs_from::given);
  }
  /// A persistent neighbor_alltoallv with the blocks laid end to end.
  template <class Send, class Into>
  [[nodiscard]] auto neighbor_alltoallv_init(Send&& send, span sendcounts, Into&& into,
                                             span recvcounts) const {
    return set_up(std::forward<Send>(send), std::forward<Into>(into),
                  {sendcounts, {}, recvcounts, {}}, detail::displs_from::packed);
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
  [[nodiscard]] int in_degree() const noexcept {
    return static_cast<const Comm&>(*this).in_degree();
  }
  /// Whether this topology routes the exchange in `form` itself (a neighbor repeats:
  /// topology/detail/neighbor_routes.hpp).
  [[nodiscard]] bool routed(detail::neighbor_form form) const noexcept {
    return static_cast<const Comm&>(*this).routes_.takes_matched(detail::neighbor_family::alltoallv,
                                                                 form);
  }
  /// The routed exchange of the blocks `arrays` describe, of elements of `type`, sent from
  /// `send`.
  [[nodiscard]] std::unique_ptr<detail::routed_exchange> route(const void* send,
                                                               const detail::v_spans& arrays,
                                                               MPI_Datatype type) const {
    const auto& topology = static_cast<const Comm&>(*this);
    return detail::route(comm(), topology.routes_, detail::neighbor_family::alltoallv,
                         topology.in_degree(), send,
                         detail::varying_blocks(arrays.send_counts, arrays.send_displs, type),
                         detail::varying_blocks(arrays.recv_counts, arrays.recv_displs, type));
  }
  /// The count exchange of the exchange_counts forms: one int to each out-neighbor, one from
  /// each in-neighbor (MPI_Neighbor_alltoall, or this topology's route of it).
  [[nodiscard]] int exchange_counts_of(span sent, std::vector<int>& received) const {
    const auto& topology = static_cast<const Comm&>(*this);
    if (detail::alltoall_routed(topology.routes_, detail::neighbor_form::blocking)) [[unlikely]] {
      return counts_route(detail::array_of(sent))->run(detail::never_null(received.data()));
    }
    return MPI_Neighbor_alltoall(detail::array_of(sent), 1, MPI_INT,
                                 detail::never_null(received.data()), 1, MPI_INT, comm());
  }
  /// The routed count exchange (one MPI_INT per neighbor, sent from `sent`) of a topology that
  /// routes it.
  [[nodiscard]] std::unique_ptr<detail::routed_exchange> counts_route(const int* sent) const {
    const auto& topology = static_cast<const Comm&>(*this);
    return detail::route(
        comm(), topology.routes_, detail::neighbor_family::alltoall, topology.in_degree(), sent,
        detail::equal_blocks(static_cast<std::size_t>(topology.out_degree()), 1, MPI_INT),
        detail::equal_blocks(static_cast<std::size_t>(topology.in_degree()), 1, MPI_INT));
  }
  /// Routes the stages of a nonblocking exchange_counts form where this topology routes them.
  template <class State>
  void route_stages(State& state, detail::neighbor_form form) const {
    const auto& topology = static_cast<const Comm&>(*this);
    if (detail::alltoall_routed(topology.routes_, form)) [[unlikely]] {
      state.counts_routed = counts_route(detail::array_of(state.send_counts));
    }
    if (routed(form)) [[unlikely]] {
      state.data_pairing = std::make_unique<detail::neighbor_pairing>(
          detail::cartesian_pairing(comm(), topology.in_degree() / 2));
    }
  }
  [[nodiscard]] detail::neighbor_side out_side() const noexcept {
    return detail::out_neighbors(static_cast<const Comm&>(*this).out_degree());
  }

  /// Checks both sides against their neighbors and the send buffer, before MPI is called (a
  /// failure ends the job); packed displacements are written into `arrays` (whose counts are
  /// set). Returns both layouts; the receive buffer is the caller's to check.
  std::pair<detail::v_layout, detail::v_layout> plan(const detail::collective_call& call,
                                                     const detail::v_spans& given,
                                                     detail::v_arrays& arrays,
                                                     detail::displs_from from,
                                                     const detail::const_buffer& out) const {
    const bool displs_given = from == detail::displs_from::given;
    const auto sent = detail::neighbor_layout(call, out_side(), given.send_counts,
                                              displs_given ? &given.send_displs : nullptr,
                                              "sendcounts", "sdispls", arrays.send_displs);
    const auto received = detail::neighbor_layout(
        call, detail::in_neighbors(in_degree()), given.recv_counts,
        displs_given ? &given.recv_displs : nullptr, "recvcounts", "rdispls", arrays.recv_displs);
    detail::check_local_room(call, out.count, sent.extent, out.type, "send buffer",
                             displs_given ? "the blocks at sdispls" : "the sum of sendcounts");
    return {sent, received};
  }
  /// The given-displacements form off its hot path (an argument to report, or a routed
  /// topology): alltoallv_into, out of line so that its set-up stays out of the hot path.
  template <class Send, class Into>
  [[gnu::cold, gnu::noinline]] void given_alltoallv_checked(const Send& send, Into&& into,
                                                            const detail::v_spans& given) const {
    alltoallv_into(send, std::forward<Into>(into), given, detail::displs_from::given);
  }
  /// The blocking forms: one MPI_Neighbor_alltoallv (or its `_c` variant past INT_MAX).
  template <class Send, class Into>
  void alltoallv_into(const Send& send, Into&& into, const detail::v_spans& given,
                      detail::displs_from from) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::collective_call call{"MPI_Neighbor_alltoallv", comm()};
    const detail::const_buffer out = detail::never_null(detail::send_buffer(send));
    const detail::mutable_buffer in = detail::never_null(detail::recv_buffer(into));
    detail::v_arrays packed;
    // Named, not a structured binding: clang 14 cannot capture one in the lambdas below.
    const std::pair<detail::v_layout, detail::v_layout> layouts =
        plan(call, given, packed, from, out);
    const detail::v_layout& sent = layouts.first;
    const detail::v_layout& received = layouts.second;
    const bool displs_given = from == detail::displs_from::given;
    const char* large = "MPI_Neighbor_alltoallv_c";
    detail::neighbor_layout_fits(call, sent, out.type, "the sum of sendcounts", large);
    detail::neighbor_layout_fits(call, received, in.type, "the sum of recvcounts", large);
    const detail::v_spans arrays = detail::arrays_of(
        {given.send_counts, displs_given ? given.send_displs : packed.send_displs,
         given.recv_counts, displs_given ? given.recv_displs : packed.recv_displs});
    const auto exchange_into = [&](const detail::mutable_buffer& blocks) {
      if (routed(detail::neighbor_form::blocking)) [[unlikely]] {
        return route(out.data, arrays, out.type)->run(blocks.data);
      }
      return detail::alltoallv_call<&MPI_Neighbor_alltoallv,
                                    THINMPI_LARGE_COUNT_CALL(MPI_Neighbor_alltoallv)>(
          out, blocks, arrays, sent, received, call, large);
    };
    detail::check_receive_room(call, in.count, received.extent, in.type,
                               displs_given ? "the blocks at rdispls" : "the sum of recvcounts",
                               [&](void* scratch) {
                                 return exchange_into({scratch, received.extent, in.type});
                               });
    detail::agree_if_checked(call);
    detail::check_collective(exchange_into(in), call, out.count, out.type);
    detail::shrink_to(into, received.extent);
  }
  /// The state of a nonblocking or persistent form, with its own copies of the arrays.
  template <bool Persistent, class Send, class Into>
  auto prepare(Send&& send, Into&& into, const detail::v_spans& given, detail::displs_from from,
               const char* operation) const {
    auto state =
        detail::make_v_state<Persistent>(std::forward<Send>(send), std::forward<Into>(into),
                                         detail::collective_call{operation, comm()});
    detail::v_arrays& arrays = state->arrays;
    arrays.send_counts.assign(given.send_counts.begin(), given.send_counts.end());
    arrays.recv_counts.assign(given.recv_counts.begin(), given.recv_counts.end());
    const detail::mutable_buffer in = state->in();
    const auto [sent, received] = plan(state->call, given, arrays, from, state->out());
    const bool displs_given = from == detail::displs_from::given;
    if (displs_given) {
      arrays.send_displs.assign(given.send_displs.begin(), given.send_displs.end());
      arrays.recv_displs.assign(given.recv_displs.begin(), given.recv_displs.end());
    } else {
      detail::neighbor_layout_fits(state->call, sent, in.type, "the sum of sendcounts", nullptr);
      detail::neighbor_layout_fits(state->call, received, in.type, "the sum of recvcounts",
                                   nullptr);
    }
    detail::check_local_room(state->call, in.count, received.extent, in.type, "receive buffer",
                             displs_given ? "the blocks at rdispls" : "the sum of recvcounts");
    detail::agree_if_checked(state->call);
    state->receive(received.extent);
    return state;
  }
  template <class Send, class Into>
  auto start(Send&& send, Into&& into, const detail::v_spans& given,
             detail::displs_from from) const {
    auto state = prepare<false>(std::forward<Send>(send), std::forward<Into>(into), given, from,
                                "MPI_Ineighbor_alltoallv");
    if (routed(detail::neighbor_form::nonblocking)) [[unlikely]] {
      state->routed =
          route(detail::never_null(state->out()).data, state->arrays.spans(), state->out().type);
    }
    return detail::post_state<collective_request>(std::move(state), [](auto& s, MPI_Request* h) {
      const detail::const_buffer out = detail::never_null(s.out());
      const detail::mutable_buffer in = detail::never_null(s.in());
      if (s.routed) [[unlikely]] {
        return s.routed->post(in.data, h);
      }
      const detail::v_spans a = detail::arrays_of(s.arrays.spans());
      return MPI_Ineighbor_alltoallv(out.data, a.send_counts.data(), a.send_displs.data(), out.type,
                                     in.data, a.recv_counts.data(), a.recv_displs.data(), in.type,
                                     s.call.comm, h);
    });
  }
  template <class Send, class Into>
  auto set_up(Send&& send, Into&& into, const detail::v_spans& given,
              detail::displs_from from) const {
    auto state = prepare<true>(std::forward<Send>(send), std::forward<Into>(into), given, from,
                               "MPI_Neighbor_alltoallv_init");
    if (routed(detail::neighbor_form::persistent)) [[unlikely]] {
      state->routed =
          route(detail::never_null(state->out()).data, state->arrays.spans(), state->out().type);
    }
    return detail::post_state<persistent_request>(std::move(state), [](auto& s, MPI_Request* h) {
      const detail::const_buffer out = detail::never_null(s.out());
      const detail::mutable_buffer in = detail::never_null(s.in());
      if (s.routed) [[unlikely]] {
        return s.routed->init(in.data, h);
      }
      const detail::v_spans a = detail::arrays_of(s.arrays.spans());
      return detail::persistent_call<detail::persistent_collective::neighbor_alltoallv>(
          out.data, a.send_counts.data(), a.send_displs.data(), out.type, in.data,
          a.recv_counts.data(), a.recv_displs.data(), in.type, s.call.comm, MPI_INFO_NULL, h);
    });
  }
};

}  // namespace thinmpi
