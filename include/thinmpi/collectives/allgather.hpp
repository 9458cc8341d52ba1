#pragma once
/// \file
/// allgather and allgatherv: every rank receives every rank's block, in rank order. Blocking
/// (into the caller's buffer: one MPI call, no allocation; or a new std::vector), in place,
/// nonblocking (`i`) and persistent (`_init`); allgatherv with counts given (one MPI call) or
/// with thinmpi::exchange_counts (an MPI_Allgather of the counts, then the MPI_Allgatherv).

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "thinmpi/collectives/block_layout.hpp"
#include "thinmpi/collectives/detail/allgather_calls.hpp"
#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/count_exchange_state.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/layout_calls.hpp"
#include "thinmpi/collectives/detail/persistent_calls.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
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

/// allgather and allgatherv (comm_view derives from this family). Every rank receives every
/// rank's block in rank order. Payloads as in send/recv: a scalar or a contiguous range
/// (std::vector, std::array, std::span, C array, std::string).
template <class Comm>
class collective_allgather {
 public:
  /// Gathers every rank's `send` (of the same size on every rank) into `into`, in rank order:
  /// one MPI_Allgather, no allocation. `into` must hold size() x the send count; a larger
  /// std::vector or std::string shrinks to that. A rank whose `into` is too small still
  /// receives, into scratch, then throws an mpi_error stating both sizes (MPI_ERR_COUNT).
  ///
  ///     std::vector<int> ranks(world.size());
  ///     world.allgather(world.rank(), ranks);
  template <class Send, class Into>
  [[gnu::always_inline]] void allgather(const Send& send, Into&& into) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::collective_call call{"MPI_Allgather", comm()};
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::mutable_buffer in = detail::recv_buffer(into);
    const std::size_t needed = times_ranks(out.count);
    // Scalars only on the hot path: the failing branch rebuilds the call's context out of line.
    if (in.count < needed) [[unlikely]] {
      detail::allgather_room_fails(call.comm, send, into, needed);
    }
    detail::agree_if_checked(call, {"blocks", out.count, out.type});
    detail::check_collective(detail::allgather(out, in.data, in.type, comm()), call, out.count,
                             out.type);
    detail::shrink_to(into, needed);
  }
  /// Every rank's `send` in a new std::vector, in rank order (one MPI_Allgather).
  ///
  ///     std::vector<int> ranks = world.allgather(world.rank());
  template <class Send>
  [[nodiscard, gnu::always_inline]] std::vector<detail::element_t<Send>> allgather(
      const Send& send) const {
    detail::require_sendable<Send>();
    const detail::collective_call call{"MPI_Allgather", comm()};
    const detail::const_buffer out = detail::send_buffer(send);
    // Sized here to size() blocks, so it has room by construction: the room check of
    // allgather(send, into) would only ask MPI_Comm_size a second time.
    std::vector<detail::element_t<Send>> all(times_ranks(out.count));
    detail::agree_if_checked(call, {"blocks", out.count, out.type});
    detail::check_collective(
        detail::allgather(out, all.data(), detail::recv_buffer(all).type, call.comm), call,
        out.count, out.type);
    return all;
  }
  /// Allgather in place (MPI_IN_PLACE): `buffer` holds size() equal blocks, this rank's block
  /// already at rank() x block; afterwards every block is filled.
  template <class Buffer>
  void allgather_in_place(Buffer&& buffer) const {
    detail::require_receivable<Buffer&&>();
    const detail::collective_call call{"MPI_Allgather", comm()};
    const detail::mutable_buffer in = detail::recv_buffer(buffer);
    // The block is MPI's recvcount, which every rank gives alike.
    std::size_t block = 0;
    detail::alike_checks(call, [&] {
      block = detail::equal_blocks(call, in.count, in.type, times_ranks(1), "buffer");
    });
    detail::agree_if_checked(call, {"blocks", block, in.type});
    const int rc = detail::counted_call<&MPI_Allgather, THINMPI_LARGE_COUNT_CALL(MPI_Allgather)>(
        detail::counts_at<1, 4>{}, MPI_IN_PLACE, std::size_t{0}, in.type, in.data, block, in.type,
        comm());
    detail::check_collective(rc, call, block, in.type);
  }

  /// Gathers blocks of different sizes: rank r's `send` (recvcounts[r] elements) lands at
  /// displs[r] in `into`. One MPI_Allgatherv, no allocation. Counts and displacements need one
  /// entry per rank, none negative, and `into` room for every block (else an mpi_error, before
  /// MPI is called); a larger std::vector or std::string shrinks to the extent of the blocks.
  template <class Send, class Into>
  [[gnu::always_inline]] void allgatherv(const Send& send, Into&& into,
                                         std::span<const int> recvcounts,
                                         std::span<const int> displs) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::collective_call call{"MPI_Allgatherv", comm()};
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::mutable_buffer in = detail::recv_buffer(into);
    const int n = ranks();
    // Scalars only on the hot path: one pass over the arrays that throws nothing (given
    // displacements are ints: a classic call takes them), then one comparison per check; the
    // failing branch redoes the checks in their order with the full error context, out of line.
    const bool shaped = detail::per_rank(n, recvcounts, displs);
    detail::given_scan blocks;
    if (shaped) [[likely]] {
      blocks = detail::scan_given(recvcounts, displs);
    }
    if (!shaped || blocks.negative || in.count < blocks.extent ||
        !detail::own_entry(recvcounts, rank(), out.count)) [[unlikely]] {
      detail::given_allgatherv_fails(comm(), send, into, recvcounts, displs, n, rank());
    }
    detail::agree_if_checked(call);
    detail::check_collective(MPI_Allgatherv(out.data, detail::to_int(out.count), out.type, in.data,
                                            recvcounts.data(), displs.data(), in.type, call.comm),
                             call, out.count, out.type);
    detail::shrink_to(into, blocks.extent);
  }
  /// allgatherv with the blocks laid end to end in rank order. It allocates the displacements
  /// (the exclusive prefix sum of recvcounts) and makes one MPI_Allgatherv; when they pass
  /// INT_MAX, MPI_Allgatherv_c on MPI-4 libraries (MPICH 4.0), an mpi_error stating the sizes
  /// on Open MPI 4.1 (raised before MPI is called).
  template <class Send, class Into>
  [[gnu::always_inline]] void allgatherv(const Send& send, Into&& into,
                                         std::span<const int> recvcounts) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::collective_call call{"MPI_Allgatherv", comm()};
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::mutable_buffer in = detail::recv_buffer(into);
    std::vector<int> packed;
    const detail::v_layout layout =
        detail::allgatherv_layout(call, in, recvcounts, nullptr, packed, "MPI_Allgatherv_c");
    detail::check_receive_room(
        call, in.count, layout.extent, in.type, "the sum of recvcounts", [&](void* scratch) {
          return detail::allgatherv_call(out, {scratch, layout.extent, in.type}, recvcounts, packed,
                                         layout, call);
        });
    detail::check_own_count(call, recvcounts, rank(), out.count, out.type);
    detail::agree_if_checked(call);
    const int rc = detail::allgatherv_call(out, in, recvcounts, packed, layout, call);
    detail::check_collective(rc, call, out.count, out.type);
    detail::shrink_to(into, layout.extent);
  }
  /// allgatherv at the blocks of a block_layout, whose counts and displacements were checked
  /// when it was built: the call compares the layout's blocks with size(), this rank's count
  /// with what it sends and `into`'s room with the layout's extent (each one comparison; a
  /// rank whose `into` is too small receives into scratch, then throws), then makes the one
  /// MPI_Allgatherv (MPI_Allgatherv_c where the layout's displacements pass INT_MAX).
  ///
  ///     std::vector<int> counts(world.size(), n), mine(n), all(n * world.size());
  ///     const thinmpi::block_layout blocks(counts);  // once
  ///     world.allgatherv(mine, all, blocks);         // each step
  template <class Send, class Into>
  [[gnu::always_inline]] void allgatherv(const Send& send, Into&& into,
                                         const block_layout& layout) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::mutable_buffer in = detail::recv_buffer(into);
    const int n = ranks();
    // Scalars only on the hot path: the failing branch redoes the checks in their order with
    // the full error context, out of line (layout_allgatherv_fails).
    if (!detail::layout_fits(layout, n) || in.count < layout.extent() ||
        !detail::own_block(
            layout, [this] { return rank(); }, out.count)) [[unlikely]] {
      detail::layout_allgatherv_fails(comm(), send, into, layout, n, rank());
    }
    detail::agree_if_checked(detail::collective_call{"MPI_Allgatherv", comm()});
    detail::check_collective(detail::allgatherv_on(out, in, layout, comm()),
                             detail::collective_call{"MPI_Allgatherv", comm()}, out.count,
                             out.type);
    detail::shrink_to(into, layout.extent());
  }
  /// allgatherv of blocks whose sizes the ranks do not know: an MPI_Allgather of the counts
  /// (one int per rank), then the MPI_Allgatherv into a new vector. Returns the data with the
  /// counts and displacements, to reuse in the counts-given form (one MPI call) next time.
  ///
  ///     std::vector<int> mine(world.rank() + 1, world.rank());        // a size of its own
  ///     auto all = world.allgatherv(mine, thinmpi::exchange_counts);  // 2 MPI calls
  ///     use(all.data, all.counts, all.displs);
  template <class Data = detail::vector_of_elements, class Send>
  requires(!detail::serialized_payload<Send>)
      [[nodiscard,
        gnu::always_inline]] detail::varying_for<Data, Send> allgatherv(const Send& send,
                                                                        exchange_counts_t) const {
    detail::require_sendable<Send>();
    detail::require_varying_data<Data, detail::element_t<Send>>();
    detail::varying_for<Data, Send> result;
    detail::allgatherv_exchanging<true>(detail::send_buffer(send), result, ranks(), comm());
    return result;
  }
  /// allgatherv that exchanges counts (as above) into `all`, a thinmpi::varying the caller
  /// keeps from call to call: its counts, displacements and data are resized, so once their
  /// capacity suffices a call allocates nothing (nor zeroes what it keeps). `send` must not
  /// be part of `all`.
  ///
  ///     std::vector<int> mine(n);
  ///     thinmpi::varying<int> all;  // reused: no allocation once grown
  ///     for (int step = 0; step < steps; ++step)
  ///       world.allgatherv(mine, all, thinmpi::exchange_counts);  // 2 MPI calls
  template <class Send, class E, class Data>
  requires(!detail::serialized_payload<Send>)
      [[gnu::always_inline]] void allgatherv(const Send& send, varying<E, Data>& all,
                                             exchange_counts_t) const {
    detail::require_sendable<Send>();
    detail::require_varying_data<Data, E>();
    detail::require_same_element<Send, Data>();
    detail::allgatherv_exchanging<false>(detail::send_buffer(send), all, ranks(), comm());
  }
  /// Every rank's serialized value (serialization/serialized.hpp), in rank order: 2 MPI calls,
  /// an MPI_Allgather of the byte counts (one int each) and an MPI_Allgatherv of the bytes, then
  /// one decode per rank.
  ///
  ///     std::string mine = thinmpi::processor_name();
  ///     std::vector<std::string> all =
  ///         world.allgatherv(thinmpi::serialized(mine), thinmpi::exchange_counts);
  template <detail::serialized_payload Payload>
  [[nodiscard]] auto allgatherv(const Payload& payload, exchange_counts_t) const {
    return Payload::allgatherv(static_cast<const Comm&>(*this), payload);
  }

  /// Starts an allgather (MPI_Iallgather). A named `send` or `into` is borrowed and must
  /// outlive the request; one moved in is owned, and wait() hands back an owned `into`.
  /// Destroying the request while active waits for the collective (it cannot be cancelled).
  template <class Send, class Into>
  [[nodiscard]] auto iallgather(Send&& send, Into&& into) const {
    auto state = prepare_allgather<false>(std::forward<Send>(send), std::forward<Into>(into),
                                          "MPI_Iallgather");
    return detail::post_state<collective_request>(std::move(state), [](auto& s, MPI_Request* h) {
      const detail::const_buffer out = s.out();
      const detail::mutable_buffer in = s.in();
      const int count = detail::to_int(out.count);
      return MPI_Iallgather(out.data, count, out.type, in.data, count, in.type, s.call.comm, h);
    });
  }
  /// Starts an allgather into a new std::vector, which wait() hands back.
  template <class Send>
  [[nodiscard]] auto iallgather(Send&& send) const {
    detail::require_sendable<Send>();
    const std::size_t count = detail::send_buffer(send).count;
    return iallgather(std::forward<Send>(send),
                      std::vector<detail::element_t<Send>>(times_ranks(count)));
  }
  /// Starts an allgatherv with counts and displacements given (MPI_Iallgatherv). The request
  /// keeps its own copies of recvcounts and displs until completion, so the caller's may go.
  template <class Send, class Into>
  [[nodiscard]] auto iallgatherv(Send&& send, Into&& into, std::span<const int> recvcounts,
                                 std::span<const int> displs) const {
    return start_allgatherv(std::forward<Send>(send), std::forward<Into>(into), recvcounts,
                            &displs);
  }
  /// Starts an allgatherv with the blocks laid end to end; the request computes and owns the
  /// displacements. Displacements past INT_MAX are an mpi_error (the blocking form takes them).
  template <class Send, class Into>
  [[nodiscard]] auto iallgatherv(Send&& send, Into&& into, std::span<const int> recvcounts) const {
    return start_allgatherv(std::forward<Send>(send), std::forward<Into>(into), recvcounts,
                            nullptr);
  }
  /// Starts an allgatherv that exchanges counts first: MPI_Iallgather of the counts, and, once
  /// they arrive (in whichever wait or test completes that stage), MPI_Iallgatherv. wait()
  /// hands back the thinmpi::varying result.
  template <class Data = detail::vector_of_elements, class Send>
  [[nodiscard]] auto iallgatherv(Send&& send, exchange_counts_t) const {
    detail::require_sendable<Send>();
    detail::require_varying_data<Data, detail::element_t<Send>>();
    using state_type = detail::count_exchange_state<Send, Data, &detail::iallgather_counts,
                                                    &detail::iallgatherv_blocks>;
    auto state = std::make_unique<state_type>(std::forward<Send>(send),
                                              detail::collective_call{"MPI_Iallgather", comm()},
                                              "MPI_Iallgatherv", ranks());
    const detail::const_buffer out = state->out();
    detail::own_count_fits(state->call, out);
    detail::agree_if_checked(state->call);
    state->counts_alike = true;
    state->send_counts.assign(1, detail::to_int(out.count));
    return detail::post_count_exchange(std::move(state));
  }

  /// A persistent allgather (MPI-4 MPI_Allgather_init; Open MPI 4.1: MPIX_Allgather_init;
  /// MPICH: MPI_Allgatherv_init with equal blocks, as its MPI_Allgather_init resends the first
  /// round's data):
  /// each start() / wait() round gathers what `send` holds then into `into`. Pass named
  /// buffers to change the data between rounds; wait() hands back an owned `into` as a
  /// std::span of the received elements, valid while the request lives.
  template <class Send, class Into>
  [[nodiscard]] auto allgather_init(Send&& send, Into&& into) const {
    auto state = prepare_allgather<true>(std::forward<Send>(send), std::forward<Into>(into),
                                         "MPI_Allgather_init");
    return detail::post_state<persistent_request>(
        std::move(state),
        [n = ranks()](auto& s, MPI_Request* h) { return detail::allgather_init_call(s, n, h); });
  }
  /// A persistent allgatherv with counts and displacements given (MPI_Allgatherv_init); the
  /// request keeps its own copies of them.
  template <class Send, class Into>
  [[nodiscard]] auto allgatherv_init(Send&& send, Into&& into, std::span<const int> recvcounts,
                                     std::span<const int> displs) const {
    auto state = prepare_allgatherv<true>(std::forward<Send>(send), std::forward<Into>(into),
                                          recvcounts, &displs, "MPI_Allgatherv_init");
    return detail::post_state<persistent_request>(std::move(state), [](auto& s, MPI_Request* h) {
      const detail::const_buffer out = s.out();
      const detail::mutable_buffer in = s.in();
      return detail::persistent_call<detail::persistent_collective::allgatherv>(
          out.data, detail::to_int(out.count), out.type, in.data, s.arrays.recv_counts.data(),
          s.arrays.recv_displs.data(), in.type, s.call.comm, MPI_INFO_NULL, h);
    });
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
  [[nodiscard]] int ranks() const { return static_cast<const Comm&>(*this).size(); }
  /// One element per rank of a block of `count`: the size of everything gathered.
  [[nodiscard]] std::size_t times_ranks(std::size_t count) const {
    return count * static_cast<std::size_t>(ranks());
  }
  [[nodiscard]] int rank() const { return static_cast<const Comm&>(*this).rank(); }

  /// The state of an allgather, its sizes checked and the receive buffer shrunk. The count is
  /// the same on every rank; a receive buffer too small is this rank's alone and ends the job
  /// (the others would wait for its part; checked: every rank throws).
  template <bool Persistent, class Send, class Into>
  auto prepare_allgather(Send&& send, Into&& into, const char* operation) const {
    auto state =
        detail::make_v_state<Persistent>(std::forward<Send>(send), std::forward<Into>(into),
                                         detail::collective_call{operation, comm()});
    const detail::const_buffer out = state->out();
    detail::alike_checks(state->call,
                         [&] { detail::check_int_count(state->call, out.count, out.type); });
    const std::size_t all = times_ranks(out.count);
    detail::check_local_room(state->call, state->in().count, all, out.type, "receive buffer",
                             "one block per rank");
    detail::agree_if_checked(state->call, {"blocks", out.count, out.type});
    state->receive(all);
    return state;
  }
  /// The state of an allgatherv with counts (and displacements, if given) checked and copied.
  template <bool Persistent, class Send, class Into>
  auto prepare_allgatherv(Send&& send, Into&& into, std::span<const int> recvcounts,
                          const std::span<const int>* displs, const char* operation) const {
    auto state =
        detail::make_v_state<Persistent>(std::forward<Send>(send), std::forward<Into>(into),
                                         detail::collective_call{operation, comm()});
    const detail::const_buffer out = state->out();
    const detail::mutable_buffer in = state->in();
    detail::v_arrays& arrays = state->arrays;
    const detail::v_layout layout =
        detail::allgatherv_layout(state->call, in, recvcounts, displs, arrays.recv_displs, nullptr);
    if (displs != nullptr) {
      arrays.recv_displs.assign(displs->begin(), displs->end());
    } else if (!layout.fits_int) [[unlikely]] {
      detail::alike_checks(state->call,
                           [&] { detail::raise_int_count(state->call, layout.extent, in.type); });
    }
    arrays.recv_counts.assign(recvcounts.begin(), recvcounts.end());
    detail::check_local_room(state->call, in.count, layout.extent, in.type, "receive buffer",
                             displs != nullptr ? "the blocks at displs" : "the sum of recvcounts");
    detail::check_own_count(state->call, recvcounts, rank(), out.count, out.type);
    detail::agree_if_checked(state->call);
    state->receive(layout.extent);
    return state;
  }
  template <class Send, class Into>
  auto start_allgatherv(Send&& send, Into&& into, std::span<const int> recvcounts,
                        const std::span<const int>* displs) const {
    auto state = prepare_allgatherv<false>(std::forward<Send>(send), std::forward<Into>(into),
                                           recvcounts, displs, "MPI_Iallgatherv");
    return detail::post_state<collective_request>(std::move(state), [](auto& s, MPI_Request* h) {
      const detail::const_buffer out = s.out();
      const detail::mutable_buffer in = s.in();
      return MPI_Iallgatherv(out.data, detail::to_int(out.count), out.type, in.data,
                             s.arrays.recv_counts.data(), s.arrays.recv_displs.data(), in.type,
                             s.call.comm, h);
    });
  }
};

}  // namespace thinmpi
