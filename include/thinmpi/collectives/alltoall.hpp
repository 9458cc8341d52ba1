#pragma once
/// \file
/// alltoall and alltoallv: each rank sends a block to every rank and receives one from every
/// rank, in rank order. Blocking (into the caller's buffer: one MPI call, no allocation; or a
/// new std::vector), in place, nonblocking (`i`) and persistent (`_init`); alltoallv with counts
/// given (one MPI call) or with thinmpi::exchange_counts (an MPI_Alltoall of the counts, then
/// the MPI_Alltoallv).

#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "thinmpi/collectives/block_layout.hpp"
#include "thinmpi/collectives/detail/alltoall_calls.hpp"
#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/count_exchange_state.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/layout_calls.hpp"
#include "thinmpi/collectives/detail/persistent_calls.hpp"
#include "thinmpi/collectives/detail/v_calls.hpp"
#include "thinmpi/collectives/detail/v_state.hpp"
#include "thinmpi/collectives/exchange_counts.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/requests/collective_request.hpp"
#include "thinmpi/requests/persistent_request.hpp"

namespace thinmpi {

/// alltoall and alltoallv (comm_view derives from this family). Rank r's block for rank d lands
/// in rank d's buffer at block r. Payloads as in send/recv: a scalar or a contiguous range.
template <class Comm>
class collective_alltoall {
 public:
  /// Sends block d of `send` (size() equal blocks) to rank d and receives rank r's block for
  /// this rank as block r of `into`: one MPI_Alltoall, no allocation. `into` must hold as many
  /// elements as `send` (else an mpi_error stating both sizes, before MPI is called); a larger
  /// std::vector or std::string shrinks to that.
  ///
  ///     std::vector<int> to_each(world.size(), world.rank()), from_each(world.size());
  ///     world.alltoall(to_each, from_each);
  template <class Send, class Into>
  [[gnu::always_inline]] void alltoall(const Send& send, Into&& into) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::collective_call call{"MPI_Alltoall", comm()};
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::mutable_buffer in = detail::recv_buffer(into);
    // The block is MPI's sendcount, which every rank gives alike.
    std::size_t block = 0;
    detail::alike_checks(call, [&] {
      block = detail::equal_blocks(call, out.count, out.type, as_size(ranks()), "send buffer");
    });
    // Scalars only on the hot path: the failing branch rebuilds the call's context out of line.
    if (in.count < out.count) [[unlikely]] {
      detail::alltoall_room_fails(call.comm, send, into, block);
    }
    detail::agree_if_checked(call, {"blocks", block, out.type});
    const int rc = detail::alltoall(out.data, out.type, in.data, block, in.type, comm());
    detail::check_collective(rc, call, out.count, out.type);
    detail::shrink_to(into, out.count);
  }
  /// alltoall into a new std::vector of as many elements as `send` (one MPI_Alltoall).
  template <class Send>
  [[nodiscard, gnu::always_inline]] std::vector<detail::element_t<Send>> alltoall(
      const Send& send) const {
    detail::require_sendable<Send>();
    std::vector<detail::element_t<Send>> received(detail::send_buffer(send).count);
    alltoall(send, received);
    return received;
  }
  /// alltoall in place (MPI_IN_PLACE): block d of `buffer` goes to rank d and is replaced by
  /// rank d's block for this rank.
  template <class Buffer>
  void alltoall_in_place(Buffer&& buffer) const {
    detail::require_receivable<Buffer&&>();
    const detail::collective_call call{"MPI_Alltoall", comm()};
    const detail::mutable_buffer in = detail::recv_buffer(buffer);
    std::size_t block = 0;
    detail::alike_checks(call, [&] {
      block = detail::equal_blocks(call, in.count, in.type, as_size(ranks()), "buffer");
    });
    detail::agree_if_checked(call, {"blocks", block, in.type});
    const int rc = detail::alltoall(MPI_IN_PLACE, in.type, in.data, block, in.type, comm());
    detail::check_collective(rc, call, in.count, in.type);
  }

  /// Blocks of different sizes: sendcounts[d] elements at sdispls[d] of `send` go to rank d;
  /// recvcounts[r] elements from rank r land at rdispls[r] of `into`. One MPI_Alltoallv, no
  /// allocation. Every array needs one entry per rank, none negative, and both buffers room for
  /// their blocks (else an mpi_error, before MPI is called); a larger std::vector or
  /// std::string `into` shrinks to the extent of the blocks.
  template <class Send, class Into>
  [[gnu::always_inline]] void alltoallv(const Send& send, std::span<const int> sendcounts,
                                        std::span<const int> sdispls, Into&& into,
                                        std::span<const int> recvcounts,
                                        std::span<const int> rdispls) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::collective_call call{"MPI_Alltoallv", comm()};
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::mutable_buffer in = detail::recv_buffer(into);
    const int n = ranks();
    // Scalars only on the hot path: one pass over each side that throws nothing, then one
    // comparison per check; the failing branch redoes the checks in their order with the full
    // error context, out of line.
    const bool shaped =
        detail::per_rank(n, sendcounts, sdispls) && detail::per_rank(n, recvcounts, rdispls);
    detail::given_scan sent;
    detail::given_scan received;
    if (shaped) [[likely]] {
      sent = detail::scan_given(sendcounts, sdispls);
      received = detail::scan_given(recvcounts, rdispls);
    }
    if (!shaped || sent.negative || received.negative || out.count < sent.extent ||
        in.count < received.extent) [[unlikely]] {
      detail::given_alltoallv_fails(comm(), send, {sendcounts, sdispls, recvcounts, rdispls}, into,
                                    n);
    }
    detail::agree_if_checked(call);
    detail::check_collective(
        MPI_Alltoallv(out.data, sendcounts.data(), sdispls.data(), out.type, in.data,
                      recvcounts.data(), rdispls.data(), in.type, call.comm),
        call, out.count, out.type);
    detail::shrink_to(into, received.extent);
  }
  /// alltoallv with the blocks laid end to end in rank order on both sides. It allocates the
  /// displacements (the exclusive prefix sums of the counts) and makes one MPI_Alltoallv; when
  /// they pass INT_MAX, MPI_Alltoallv_c on MPI-4 libraries (MPICH 4.0), an mpi_error stating
  /// the sizes on Open MPI 4.1 (raised before MPI is called).
  template <class Send, class Into>
  [[gnu::always_inline]] void alltoallv(const Send& send, std::span<const int> sendcounts,
                                        Into&& into, std::span<const int> recvcounts) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::collective_call call{"MPI_Alltoallv", comm()};
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::mutable_buffer in = detail::recv_buffer(into);
    detail::v_arrays arrays{
        {sendcounts.begin(), sendcounts.end()}, {}, {recvcounts.begin(), recvcounts.end()}, {}};
    // Named, not bound: clang 14 cannot capture a structured binding.
    const auto layouts = detail::plan_alltoallv(call, ranks(), arrays, out, in, false);
    const detail::v_layout& sent = layouts.first;
    const detail::v_layout& received = layouts.second;
    detail::check_receive_room(
        call, in.count, received.extent, in.type, "the sum of recvcounts", [&](void* scratch) {
          return detail::alltoallv_call(out, {scratch, received.extent, in.type}, arrays.spans(),
                                        sent, received, call);
        });
    detail::agree_if_checked(call);
    const int rc = detail::alltoallv_call(out, in, arrays.spans(), sent, received, call);
    detail::check_collective(rc, call, out.count, out.type);
    detail::shrink_to(into, received.extent);
  }
  /// alltoallv at the blocks of two block_layouts (checked when built): `sent`'s blocks of
  /// `send` go to each rank, `received`'s blocks of `into` come from each. The call compares
  /// each layout's blocks with size() and each buffer's room with its layout's extent (one
  /// comparison each; a too small `into` receives into scratch, then throws; a send side that
  /// does not fit ends the job, as in the other forms), then makes the one MPI_Alltoallv.
  template <class Send, class Into>
  [[gnu::always_inline]] void alltoallv(const Send& send, const block_layout& sent, Into&& into,
                                        const block_layout& received) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::mutable_buffer in = detail::recv_buffer(into);
    // Scalars only on the hot path; layout_alltoallv_fails redoes the checks in context.
    if (const int n = ranks(); !detail::layout_fits(sent, n) || !detail::layout_fits(received, n) ||
                               out.count < sent.extent() || in.count < received.extent())
        [[unlikely]] {
      detail::layout_alltoallv_fails(comm(), send, sent, into, received, n);
    }
    detail::agree_if_checked(detail::collective_call{"MPI_Alltoallv", comm()});
    detail::check_collective(detail::alltoallv_on(out, sent, in, received, comm()),
                             detail::collective_call{"MPI_Alltoallv", comm()}, out.count, out.type);
    detail::shrink_to(into, received.extent());
  }
  /// alltoallv where each rank knows only what it sends: an MPI_Alltoall of the counts (one int
  /// per pair of ranks), then the MPI_Alltoallv into a new vector (blocks laid end to end on
  /// both sides). Returns the data with the received counts and displacements.
  ///
  ///     std::vector<int> counts_to_each(world.size(), 2), outgoing(2 * world.size(), rank);
  ///     auto mine = world.alltoallv(outgoing, counts_to_each, thinmpi::exchange_counts);
  template <class Data = detail::vector_of_elements, class Send>
  [[nodiscard, gnu::always_inline]] detail::varying_for<Data, Send> alltoallv(
      const Send& send, std::span<const int> sendcounts, exchange_counts_t) const {
    detail::require_sendable<Send>();
    detail::require_varying_data<Data, detail::element_t<Send>>();
    detail::varying_for<Data, Send> result;
    detail::alltoallv_exchanging<true>(detail::collective_call{"MPI_Alltoall", comm()},
                                       detail::send_buffer(send), sendcounts, result, ranks());
    return result;
  }
  /// alltoallv that exchanges counts (as above) into `all`, a thinmpi::varying the caller keeps
  /// from call to call: resized, so once its capacity suffices a call allocates nothing (the
  /// send displacements live on the stack up to 64 ranks). `send` must not be part of `all`.
  template <class Send, class E, class Data>
  [[gnu::always_inline]] void alltoallv(const Send& send, std::span<const int> sendcounts,
                                        varying<E, Data>& all, exchange_counts_t) const {
    detail::require_sendable<Send>();
    detail::require_varying_data<Data, E>();
    detail::require_same_element<Send, Data>();
    detail::alltoallv_exchanging<false>(detail::collective_call{"MPI_Alltoall", comm()},
                                        detail::send_buffer(send), sendcounts, all, ranks());
  }
  /// Exchanges serialized values (serialization/serialized.hpp): `values` holds size() values,
  /// values[d] for rank d. 2 MPI calls, an MPI_Alltoall of the byte counts and an
  /// MPI_Alltoallv of the bytes; returns what each rank sent this one, in rank order (one
  /// decode per rank).
  ///
  ///     std::vector<std::string> outbox(world.size(), "hello");  // outbox[d] goes to rank d
  ///     auto inbox = world.alltoallv(thinmpi::serialized(outbox), thinmpi::exchange_counts);
  template <detail::serialized_payload Payload>
  [[nodiscard]] auto alltoallv(const Payload& values, exchange_counts_t) const {
    return Payload::alltoallv(static_cast<const Comm&>(*this), values);
  }

  /// Starts an alltoall (MPI_Ialltoall). A named `send` or `into` is borrowed and must outlive
  /// the request; one moved in is owned, and wait() hands back an owned `into`. Destroying the
  /// request while active waits for the collective (it cannot be cancelled).
  template <class Send, class Into>
  [[nodiscard]] auto ialltoall(Send&& send, Into&& into) const {
    auto state = prepare_alltoall<false>(std::forward<Send>(send), std::forward<Into>(into),
                                         "MPI_Ialltoall");
    const int block = block_of(*state);
    return detail::post_state<collective_request>(
        std::move(state), [block](auto& s, MPI_Request* h) {
          const detail::const_buffer out = s.out();
          const detail::mutable_buffer in = s.in();
          return MPI_Ialltoall(out.data, block, out.type, in.data, block, in.type, s.call.comm, h);
        });
  }
  /// Starts an alltoall into a new std::vector, which wait() hands back.
  template <class Send>
  [[nodiscard]] auto ialltoall(Send&& send) const {
    detail::require_sendable<Send>();
    const std::size_t count = detail::send_buffer(send).count;
    return ialltoall(std::forward<Send>(send), std::vector<detail::element_t<Send>>(count));
  }
  /// Starts an alltoallv with counts and displacements given (MPI_Ialltoallv). The request
  /// keeps its own copies of the four arrays until completion, so the caller's may go.
  template <class Send, class Into>
  [[nodiscard]] auto ialltoallv(Send&& send, std::span<const int> sendcounts,
                                std::span<const int> sdispls, Into&& into,
                                std::span<const int> recvcounts,
                                std::span<const int> rdispls) const {
    auto state = prepare_alltoallv<false>(
        std::forward<Send>(send), std::forward<Into>(into),
        detail::copied_arrays(sendcounts, sdispls, recvcounts, rdispls), true, "MPI_Ialltoallv");
    return detail::post_state<collective_request>(std::move(state), detail::post_ialltoallv{});
  }
  /// Starts an alltoallv with the blocks laid end to end; the request computes and owns the
  /// displacements. Displacements past INT_MAX are an mpi_error (the blocking form takes them).
  template <class Send, class Into>
  [[nodiscard]] auto ialltoallv(Send&& send, std::span<const int> sendcounts, Into&& into,
                                std::span<const int> recvcounts) const {
    auto state = prepare_alltoallv<false>(std::forward<Send>(send), std::forward<Into>(into),
                                          detail::copied_arrays(sendcounts, {}, recvcounts, {}),
                                          false, "MPI_Ialltoallv");
    return detail::post_state<collective_request>(std::move(state), detail::post_ialltoallv{});
  }
  /// Starts an alltoallv that exchanges counts first: MPI_Ialltoall of the counts, and, once
  /// they arrive (in whichever wait or test completes that stage), MPI_Ialltoallv. wait() hands
  /// back the thinmpi::varying result.
  template <class Data = detail::vector_of_elements, class Send>
  [[nodiscard]] auto ialltoallv(Send&& send, std::span<const int> sendcounts,
                                exchange_counts_t) const {
    detail::require_sendable<Send>();
    detail::require_varying_data<Data, detail::element_t<Send>>();
    using state_type = detail::count_exchange_state<Send, Data, &detail::ialltoall_counts,
                                                    &detail::ialltoallv_blocks>;
    const int n = ranks();
    auto state = std::make_unique<state_type>(std::forward<Send>(send),
                                              detail::collective_call{"MPI_Ialltoall", comm()},
                                              "MPI_Ialltoallv", n);
    const detail::const_buffer out = state->out();
    state->send_counts.assign(sendcounts.begin(), sendcounts.end());
    detail::v_layout sent;
    detail::local_checks(state->call, [&] {
      sent = detail::packed_displacements(state->call, sendcounts, n, "sendcounts",
                                          state->send_displs);
      if (!sent.fits_int) detail::raise_int_count(state->call, sent.extent, out.type);
    });
    detail::check_local_room(state->call, out.count, sent.extent, out.type, "send buffer",
                             "the sum of sendcounts");
    detail::agree_if_checked(state->call);
    return detail::post_count_exchange(std::move(state));
  }

  /// A persistent alltoall (MPI-4 MPI_Alltoall_init; Open MPI 4.1: MPIX_Alltoall_init): each
  /// start() / wait() round exchanges what `send` holds then. Pass named buffers to change the
  /// data between rounds; wait() hands back a std::span of the received elements.
  template <class Send, class Into>
  [[nodiscard]] auto alltoall_init(Send&& send, Into&& into) const {
    auto state = prepare_alltoall<true>(std::forward<Send>(send), std::forward<Into>(into),
                                        "MPI_Alltoall_init");
    const int block = block_of(*state);
    return detail::post_state<persistent_request>(
        std::move(state), [block](auto& s, MPI_Request* h) {
          const detail::const_buffer out = s.out();
          const detail::mutable_buffer in = s.in();
          return detail::persistent_call<detail::persistent_collective::alltoall>(
              out.data, block, out.type, in.data, block, in.type, s.call.comm, MPI_INFO_NULL, h);
        });
  }
  /// A persistent alltoallv with counts and displacements given (MPI_Alltoallv_init); the
  /// request keeps its own copies of them.
  template <class Send, class Into>
  [[nodiscard]] auto alltoallv_init(Send&& send, std::span<const int> sendcounts,
                                    std::span<const int> sdispls, Into&& into,
                                    std::span<const int> recvcounts,
                                    std::span<const int> rdispls) const {
    auto state =
        prepare_alltoallv<true>(std::forward<Send>(send), std::forward<Into>(into),
                                detail::copied_arrays(sendcounts, sdispls, recvcounts, rdispls),
                                true, "MPI_Alltoallv_init");
    return detail::post_state<persistent_request>(std::move(state), [](auto& s, MPI_Request* h) {
      const detail::const_buffer out = s.out();
      const detail::mutable_buffer in = s.in();
      const detail::v_arrays& a = s.arrays;
      return detail::persistent_call<detail::persistent_collective::alltoallv>(
          out.data, a.send_counts.data(), a.send_displs.data(), out.type, in.data,
          a.recv_counts.data(), a.recv_displs.data(), in.type, s.call.comm, MPI_INFO_NULL, h);
    });
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
  [[nodiscard]] int ranks() const { return static_cast<const Comm&>(*this).size(); }
  [[nodiscard]] static std::size_t as_size(int ranks) noexcept {
    return static_cast<std::size_t>(ranks);
  }
  /// The block an alltoall state sends to each rank (checked to split evenly and fit an int).
  template <class State>
  [[nodiscard]] int block_of(State& state) const {
    return detail::to_int(state.out().count / as_size(ranks()));
  }
  template <bool Persistent, class Send, class Into>
  auto prepare_alltoall(Send&& send, Into&& into, const char* operation) const {
    auto state =
        detail::make_v_state<Persistent>(std::forward<Send>(send), std::forward<Into>(into),
                                         detail::collective_call{operation, comm()});
    const detail::const_buffer out = state->out();
    detail::alike_checks(state->call, [&] {  // the block is the same on every rank
      detail::check_int_count(state->call, out.count, out.type);
      detail::equal_blocks(state->call, out.count, out.type, as_size(ranks()), "send buffer");
    });
    detail::check_local_room(state->call, state->in().count, out.count, out.type, "receive buffer",
                             "one block from each rank");
    detail::agree_if_checked(state->call, {"send buffers", out.count, out.type});
    state->receive(out.count);
    return state;
  }
  template <bool Persistent, class Send, class Into>
  auto prepare_alltoallv(Send&& send, Into&& into, detail::v_arrays&& arrays, bool displs_given,
                         const char* operation) const {
    auto state =
        detail::make_v_state<Persistent>(std::forward<Send>(send), std::forward<Into>(into),
                                         detail::collective_call{operation, comm()});
    state->arrays = std::move(arrays);
    const detail::mutable_buffer in = state->in();
    const auto layouts =
        detail::plan_alltoallv(state->call, ranks(), state->arrays, state->out(), in, displs_given);
    const detail::v_layout& sent = layouts.first;
    const detail::v_layout& received = layouts.second;
    if (!sent.fits_int || !received.fits_int) [[unlikely]] {
      detail::failed_check(state->call, [&] {
        detail::raise_int_count(state->call, std::max(sent.extent, received.extent), in.type);
      });
    }
    detail::check_local_room(state->call, in.count, received.extent, in.type, "receive buffer",
                             displs_given ? "the blocks at rdispls" : "the sum of recvcounts");
    detail::agree_if_checked(state->call);
    state->receive(received.extent);
    return state;
  }
};

}  // namespace thinmpi
