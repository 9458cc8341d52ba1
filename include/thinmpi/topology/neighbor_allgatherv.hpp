#pragma once
/// \file
/// neighbor_allgatherv: as neighbor_allgather, with blocks of different sizes per in-neighbor.
/// Counts given (one MPI call) with or without displacements, or exchanged first because the
/// call names thinmpi::exchange_counts (an MPI_Neighbor_allgather of one int, then the
/// MPI_Neighbor_allgatherv). Blocking, nonblocking (`i`) and persistent (`_init`).

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

namespace thinmpi {

namespace detail {

/// The stages of ineighbor_allgatherv(send, exchange_counts) (count_exchange_state): an
/// MPI_Ineighbor_allgather of this rank's one count, then the MPI_Ineighbor_allgatherv.
inline int ineighbor_allgather_counts(const int* sent, int* received, MPI_Comm comm,
                                      MPI_Request* request) {
  return MPI_Ineighbor_allgather(sent, 1, MPI_INT, never_null(received), 1, MPI_INT, comm, request);
}
inline int ineighbor_allgatherv_blocks(const const_buffer& out, const v_spans& arrays, void* into,
                                       MPI_Comm comm, MPI_Request* request) {
  return MPI_Ineighbor_allgatherv(never_null(out.data), arrays.send_counts[0], out.type,
                                  never_null(into), array_of(arrays.recv_counts),
                                  array_of(arrays.recv_displs), out.type, comm, request);
}

}  // namespace detail

/// neighbor_allgatherv (the topology communicators derive from this family). recvcounts[i]
/// elements from in-neighbor i land at displs[i] of `into` (or laid end to end in neighbor
/// order); every array has one entry per in-neighbor, MPI_PROC_NULL neighbors included (their
/// count is usually 0). A neighbor's count must be what it sends.
template <class Comm>
class neighborhood_allgatherv {
 public:
  /// One MPI_Neighbor_allgatherv, no allocation. Counts and displacements need one entry per
  /// in-neighbor, none negative (else the job ends: detail/neighbor_checks.hpp says why), and
  /// `into` room for every block (else this rank receives into scratch, then throws an
  /// mpi_error); a larger std::vector or std::string shrinks to the extent of the blocks.
  template <class Send, class Into>
  void neighbor_allgatherv(const Send& send, Into&& into, std::span<const int> recvcounts,
                           std::span<const int> displs) const {
    allgatherv_into(send, std::forward<Into>(into), recvcounts, &displs);
  }
  /// neighbor_allgatherv with the blocks laid end to end in neighbor order (it allocates the
  /// displacements; past INT_MAX, MPI_Neighbor_allgatherv_c on MPICH 4.0, an mpi_error on Open
  /// MPI 4.1).
  template <class Send, class Into>
  void neighbor_allgatherv(const Send& send, Into&& into, std::span<const int> recvcounts) const {
    allgatherv_into(send, std::forward<Into>(into), recvcounts, nullptr);
  }
  /// neighbor_allgatherv of blocks whose sizes the in-neighbors do not know: an
  /// MPI_Neighbor_allgather of the counts (one int), then the MPI_Neighbor_allgatherv into a
  /// new vector. Returns the data with the counts and displacements (0 for MPI_PROC_NULL
  /// neighbors), to reuse in the counts-given form next time.
  ///
  ///     std::vector<double> border(n);                                          // any size
  ///     auto halo = grid.neighbor_allgatherv(border, thinmpi::exchange_counts);  // 2 MPI calls
  template <class Data = detail::vector_of_elements, class Send>
  [[nodiscard]] detail::varying_for<Data, Send> neighbor_allgatherv(const Send& send,
                                                                    exchange_counts_t) const {
    detail::require_sendable<Send>();
    detail::require_varying_data<Data, detail::element_t<Send>>();
    detail::collective_call call{"MPI_Neighbor_allgather", comm()};
    const detail::const_buffer out = detail::never_null(detail::send_buffer(send));
    detail::neighbor_count_fits(call, out.count, out.type);
    detail::agree_if_checked(call);
    const int sources = in_degree();
    detail::varying_for<Data, Send> result;
    result.counts.resize(static_cast<std::size_t>(sources));
    const int mine = detail::to_int(out.count);
    detail::check_collective(
        MPI_Neighbor_allgather(&mine, 1, MPI_INT, detail::never_null(result.counts.data()), 1,
                               MPI_INT, comm()),
        call);
    call.operation = "MPI_Neighbor_allgatherv";
    const detail::v_layout layout =
        detail::packed_displacements(call, result.counts, sources, "recvcounts", result.displs);
    detail::check_exchanged_fit(call, layout, out.type);
    result.data.resize(layout.extent);
    const int rc = MPI_Neighbor_allgatherv(
        out.data, mine, out.type, detail::never_null(result.data.data()),
        detail::array_of(result.counts), detail::array_of(result.displs), out.type, comm());
    detail::check_collective(rc, call, out.count, out.type);
    return result;
  }

  /// Starts a neighbor_allgatherv with counts and displacements given
  /// (MPI_Ineighbor_allgatherv); the request keeps its own copies of them. Buffers are
  /// borrowed or owned as in ineighbor_allgather.
  template <class Send, class Into>
  [[nodiscard]] auto ineighbor_allgatherv(Send&& send, Into&& into, std::span<const int> recvcounts,
                                          std::span<const int> displs) const {
    return start(std::forward<Send>(send), std::forward<Into>(into), recvcounts, &displs);
  }
  /// Starts a neighbor_allgatherv with the blocks laid end to end; the request computes and
  /// owns the displacements.
  template <class Send, class Into>
  [[nodiscard]] auto ineighbor_allgatherv(Send&& send, Into&& into,
                                          std::span<const int> recvcounts) const {
    return start(std::forward<Send>(send), std::forward<Into>(into), recvcounts, nullptr);
  }
  /// Starts a neighbor_allgatherv that exchanges counts first: MPI_Ineighbor_allgather of the
  /// count, and, once the counts arrive (in whichever wait or test completes that stage),
  /// MPI_Ineighbor_allgatherv. wait() hands back the thinmpi::varying result.
  template <class Data = detail::vector_of_elements, class Send>
  [[nodiscard]] auto ineighbor_allgatherv(Send&& send, exchange_counts_t) const {
    detail::require_sendable<Send>();
    detail::require_varying_data<Data, detail::element_t<Send>>();
    using state_type = detail::count_exchange_state<Send, Data, &detail::ineighbor_allgather_counts,
                                                    &detail::ineighbor_allgatherv_blocks>;
    auto state = std::make_unique<state_type>(
        std::forward<Send>(send), detail::collective_call{"MPI_Ineighbor_allgather", comm()},
        "MPI_Ineighbor_allgatherv", in_degree());
    const detail::const_buffer out = state->out();
    detail::neighbor_count_fits(state->call, out.count, out.type);
    detail::agree_if_checked(state->call);
    state->send_counts.assign(1, detail::to_int(out.count));
    return detail::post_count_exchange(std::move(state));
  }

  /// A persistent neighbor_allgatherv with counts and displacements given
  /// (MPI_Neighbor_allgatherv_init; Open MPI 4.1: MPIX_); the request keeps its own copies.
  /// wait() hands back a std::span of the received elements.
  template <class Send, class Into>
  [[nodiscard]] auto neighbor_allgatherv_init(Send&& send, Into&& into,
                                              std::span<const int> recvcounts,
                                              std::span<const int> displs) const {
    return set_up(std::forward<Send>(send), std::forward<Into>(into), recvcounts, &displs);
  }
  /// A persistent neighbor_allgatherv with the blocks laid end to end.
  template <class Send, class Into>
  [[nodiscard]] auto neighbor_allgatherv_init(Send&& send, Into&& into,
                                              std::span<const int> recvcounts) const {
    return set_up(std::forward<Send>(send), std::forward<Into>(into), recvcounts, nullptr);
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
  [[nodiscard]] int in_degree() const noexcept {
    return static_cast<const Comm&>(*this).in_degree();
  }

  /// A blocking neighbor_allgatherv at the given displacements, or (displs null) end to end.
  template <class Send, class Into>
  void allgatherv_into(const Send& send, Into&& into, std::span<const int> recvcounts,
                       const std::span<const int>* displs) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::collective_call call{"MPI_Neighbor_allgatherv", comm()};
    const detail::const_buffer out = detail::never_null(detail::send_buffer(send));
    const detail::mutable_buffer in = detail::never_null(detail::recv_buffer(into));
    std::vector<int> packed;
    const detail::v_layout layout =
        detail::neighbor_layout(call, detail::in_neighbors(in_degree()), recvcounts, displs,
                                "recvcounts", "displs", packed);
    const char* why = displs != nullptr ? "the blocks at displs" : "the sum of recvcounts";
    detail::neighbor_layout_fits(call, layout, in.type, why, "MPI_Neighbor_allgatherv_c");
    const std::span<const int> counts{detail::array_of(recvcounts), recvcounts.size()};
    const std::span<const int> at{detail::array_of(displs != nullptr ? *displs : packed),
                                  recvcounts.size()};
    const auto gather_into = [&](const detail::mutable_buffer& blocks) {
      return detail::allgatherv_call<&MPI_Neighbor_allgatherv,
                                     THINMPI_LARGE_COUNT_CALL(MPI_Neighbor_allgatherv)>(
          out, blocks, counts, at, layout, call, "MPI_Neighbor_allgatherv_c");
    };
    detail::check_receive_room(call, in.count, layout.extent, in.type, why, [&](void* scratch) {
      return gather_into({scratch, layout.extent, in.type});
    });
    detail::agree_if_checked(call);
    detail::check_collective(gather_into(in), call, out.count, out.type);
    detail::shrink_to(into, layout.extent);
  }
  /// The state of a nonblocking or persistent neighbor_allgatherv, its counts (and
  /// displacements, if given) checked and copied.
  template <bool Persistent, class Send, class Into>
  auto prepare(Send&& send, Into&& into, std::span<const int> recvcounts,
               const std::span<const int>* displs, const char* operation) const {
    auto state =
        detail::make_v_state<Persistent>(std::forward<Send>(send), std::forward<Into>(into),
                                         detail::collective_call{operation, comm()});
    const detail::const_buffer out = state->out();
    const detail::mutable_buffer in = state->in();
    detail::neighbor_count_fits(state->call, out.count, out.type);
    detail::v_arrays& arrays = state->arrays;
    const detail::v_layout layout =
        detail::neighbor_layout(state->call, detail::in_neighbors(in_degree()), recvcounts, displs,
                                "recvcounts", "displs", arrays.recv_displs);
    if (displs != nullptr) {
      arrays.recv_displs.assign(displs->begin(), displs->end());
    } else {
      detail::neighbor_layout_fits(state->call, layout, in.type, "the sum of recvcounts", nullptr);
    }
    arrays.recv_counts.assign(recvcounts.begin(), recvcounts.end());
    detail::check_local_room(state->call, in.count, layout.extent, in.type, "receive buffer",
                             displs != nullptr ? "the blocks at displs" : "the sum of recvcounts");
    detail::agree_if_checked(state->call);
    state->receive(layout.extent);
    return state;
  }
  template <class Send, class Into>
  auto start(Send&& send, Into&& into, std::span<const int> recvcounts,
             const std::span<const int>* displs) const {
    auto state = prepare<false>(std::forward<Send>(send), std::forward<Into>(into), recvcounts,
                                displs, "MPI_Ineighbor_allgatherv");
    return detail::post_state<collective_request>(std::move(state), [](auto& s, MPI_Request* h) {
      const detail::const_buffer out = detail::never_null(s.out());
      const detail::mutable_buffer in = detail::never_null(s.in());
      return MPI_Ineighbor_allgatherv(out.data, detail::to_int(out.count), out.type, in.data,
                                      detail::array_of(s.arrays.recv_counts),
                                      detail::array_of(s.arrays.recv_displs), in.type, s.call.comm,
                                      h);
    });
  }
  template <class Send, class Into>
  auto set_up(Send&& send, Into&& into, std::span<const int> recvcounts,
              const std::span<const int>* displs) const {
    auto state = prepare<true>(std::forward<Send>(send), std::forward<Into>(into), recvcounts,
                               displs, "MPI_Neighbor_allgatherv_init");
    return detail::post_state<persistent_request>(std::move(state), [](auto& s, MPI_Request* h) {
      const detail::const_buffer out = detail::never_null(s.out());
      const detail::mutable_buffer in = detail::never_null(s.in());
      return detail::persistent_call<detail::persistent_collective::neighbor_allgatherv>(
          out.data, detail::to_int(out.count), out.type, in.data,
          detail::array_of(s.arrays.recv_counts), detail::array_of(s.arrays.recv_displs), in.type,
          s.call.comm, MPI_INFO_NULL, h);
    });
  }
};

}  // namespace thinmpi
