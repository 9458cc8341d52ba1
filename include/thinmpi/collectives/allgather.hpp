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

#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/persistent_calls.hpp"
#include "thinmpi/collectives/detail/v_calls.hpp"
#include "thinmpi/collectives/exchange_counts.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/requests/collective_request.hpp"
#include "thinmpi/requests/persistent_request.hpp"

namespace thinmpi {

namespace detail {

/// Throws MPI_ERR_COUNT, before MPI is called, unless this rank's entry of the receive counts
/// is what it sends (MPI would truncate or fail on the other ranks).
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_own_count(const collective_call& call,
                                                                   std::span<const int> counts,
                                                                   int rank, std::size_t sending,
                                                                   MPI_Datatype type) {
  const auto own = static_cast<std::size_t>(rank);
  raise_collective(MPI_ERR_COUNT, call, sending, type,
                   "recvcounts[" + std::to_string(rank) + "] is " +
                       std::to_string(own < counts.size() ? counts[own] : 0) +
                       " but this rank sends " + std::to_string(sending));
}
/// See raise_own_count (counts has one entry per rank, checked before).
[[gnu::always_inline]] inline void check_own_count(const collective_call& call,
                                                   std::span<const int> counts, int rank,
                                                   std::size_t sending, MPI_Datatype type) {
  const auto own = static_cast<std::size_t>(rank);
  if (own >= counts.size() || counts[own] < 0 || static_cast<std::size_t>(counts[own]) != sending)
      [[unlikely]] {
    raise_own_count(call, counts, rank, sending, type);
  }
}

/// One MPI_Allgatherv; past INT_MAX the MPI-4 MPI_Allgatherv_c (MPICH), else an error.
inline int allgatherv_call(const const_buffer& out, const mutable_buffer& in,
                           std::span<const int> counts, std::span<const int> displs,
                           const v_layout& layout, const collective_call& call) {
  if (layout.fits_int) [[likely]] {
    return MPI_Allgatherv(out.data, to_int(out.count), out.type, in.data, counts.data(),
                          displs.data(), in.type, call.comm);
  }
#if THINMPI_HAS_LARGE_COUNT_CALLS
  const wide_layout wide = wide_packed(counts);
  return MPI_Allgatherv_c(out.data, static_cast<MPI_Count>(out.count), out.type, in.data,
                          wide.counts.data(), wide.displs.data(), in.type, call.comm);
#else
  raise_past_int(call, layout.extent, in.type, "the sum of recvcounts", "MPI_Allgatherv_c");
#endif
}

/// What iallgather, iallgatherv and their persistent forms own: the payloads (borrowed or
/// owned), the counts and displacements MPI reads until completion, and the error context.
/// A resizable receive buffer is shrunk to what will arrive before the call is posted (a
/// shrinking resize never moves the elements).
template <class Send, class Into, bool Persistent = false>
struct allgather_state {
  allgather_state(Send&& send_payload, Into&& into_payload, collective_call context)
      : send(std::forward<Send>(send_payload)),
        into(std::forward<Into>(into_payload)),
        call(context) {}

  held<Send> send;
  held<Into> into;
  collective_call call;
  std::size_t arrived = 0;  ///< elements the receive buffer holds once complete
  std::vector<int> counts{};
  std::vector<int> displs{};

  [[noreturn]] void raise(int rc) const {
    raise_collective(rc, call, std::nullopt, datatype_of<element_t<Into>>());
  }
  /// A nonblocking call hands back an owned receive buffer (a borrowed one is the caller's
  /// already); a persistent one, kept for the next round, a view of the received elements.
  auto take() {
    if constexpr (Persistent) {
      return std::span<element_t<Into>>(static_cast<element_t<Into>*>(recv_buffer(into.get()).data),
                                        arrived);
    } else if constexpr (held<Into>::owned) {
      return into.take();
    }
  }
};

/// What iallgatherv(send, exchange_counts) owns: the send payload, this rank's count, and the
/// result the two stages fill (MPI_Iallgather of the counts, then MPI_Iallgatherv).
template <class Send, class Data>
struct allgatherv_exchange_state {
  allgatherv_exchange_state(Send&& send_payload, collective_call context, int ranks)
      : send(std::forward<Send>(send_payload)), call(context) {
    result.counts.resize(static_cast<std::size_t>(ranks));
  }

  held<Send> send;
  collective_call call;
  int mine = 0;
  bool data_posted = false;
  varying_for<Data, Send> result{};

  [[noreturn]] void raise(int rc) const {
    raise_collective(rc, call, std::nullopt, datatype_of<element_t<Send>>());
  }
  /// After the counts arrived: sizes the result and posts the MPI_Iallgatherv.
  void next_stage(MPI_Request& handle) {
    if (data_posted) return;
    data_posted = true;
    const v_layout layout = packed_displacements(
        call, result.counts, static_cast<int>(result.counts.size()), "recvcounts", result.displs);
    const const_buffer out = send_buffer(send.get());
    check_varying_fits(layout, call, out.type);
    result.data.resize(layout.extent);
    call.operation = "MPI_Iallgatherv";
    const int rc =
        MPI_Iallgatherv(out.data, mine, out.type, result.data.data(), result.counts.data(),
                        result.displs.data(), out.type, call.comm, &handle);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise(rc);
    }
  }
  varying_for<Data, Send> take() { return std::move(result); }
};

}  // namespace detail

/// allgather and allgatherv (comm_view derives from this family). Every rank receives every
/// rank's block in rank order. Payloads as in send/recv: a scalar or a contiguous range
/// (std::vector, std::array, std::span, C array, std::string).
template <class Comm>
class collective_allgather {
 public:
  /// Gathers every rank's `send` (of the same size on every rank) into `into`, in rank order:
  /// one MPI_Allgather, no allocation. `into` must hold size() x the send count (else an
  /// mpi_error stating both sizes, before MPI is called); a larger std::vector or std::string
  /// shrinks to that.
  ///
  ///     std::vector<int> ranks(world.size());
  ///     world.allgather(world.rank(), ranks);
  template <class Send, class Into>
  void allgather(const Send& send, Into&& into) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::collective_call call{"MPI_Allgather", comm()};
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::mutable_buffer in = detail::recv_buffer(into);
    const std::size_t needed = times_ranks(out.count);
    detail::check_room(call, in.count, needed, in.type, "receive buffer", "one block per rank");
    const int rc = detail::counted_call<&MPI_Allgather, THINMPI_LARGE_COUNT_CALL(MPI_Allgather)>(
        detail::counts_at<1, 4>{}, out.data, out.count, out.type, in.data, out.count, in.type,
        comm());
    detail::check_collective(rc, call, out.count, out.type);
    detail::shrink_to(into, needed);
  }
  /// Every rank's `send` in a new std::vector, in rank order (one MPI_Allgather).
  ///
  ///     std::vector<int> ranks = world.allgather(world.rank());
  template <class Send>
  [[nodiscard]] std::vector<detail::element_t<Send>> allgather(const Send& send) const {
    detail::require_sendable<Send>();
    std::vector<detail::element_t<Send>> all(times_ranks(detail::send_buffer(send).count));
    allgather(send, all);
    return all;
  }
  /// Allgather in place (MPI_IN_PLACE): `buffer` holds size() equal blocks, this rank's block
  /// already at rank() x block; afterwards every block is filled.
  template <class Buffer>
  void allgather_in_place(Buffer&& buffer) const {
    detail::require_receivable<Buffer&&>();
    const detail::collective_call call{"MPI_Allgather", comm()};
    const detail::mutable_buffer in = detail::recv_buffer(buffer);
    const std::size_t block =
        detail::equal_blocks(call, in.count, in.type, times_ranks(1), "buffer");
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
  void allgatherv(const Send& send, Into&& into, std::span<const int> recvcounts,
                  std::span<const int> displs) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::collective_call call{"MPI_Allgatherv", comm()};
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::mutable_buffer in = detail::recv_buffer(into);
    const detail::v_layout layout =
        detail::given_layout(call, recvcounts, displs, ranks(), "recvcounts", "displs");
    detail::check_room(call, in.count, layout.extent, in.type, "receive buffer",
                       "the blocks at displs");
    detail::check_own_count(call, recvcounts, rank(), out.count, out.type);
    const int rc = detail::allgatherv_call(out, in, recvcounts, displs, layout, call);
    detail::check_collective(rc, call, out.count, out.type);
    detail::shrink_to(into, layout.extent);
  }
  /// allgatherv with the blocks laid end to end in rank order. It allocates the displacements
  /// (the exclusive prefix sum of recvcounts) and makes one MPI_Allgatherv; when they pass
  /// INT_MAX, MPI_Allgatherv_c on MPI-4 libraries (MPICH 4.0), an mpi_error stating the sizes
  /// on Open MPI 4.1 (raised before MPI is called).
  template <class Send, class Into>
  void allgatherv(const Send& send, Into&& into, std::span<const int> recvcounts) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    detail::require_same_element<Send, Into>();
    const detail::collective_call call{"MPI_Allgatherv", comm()};
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::mutable_buffer in = detail::recv_buffer(into);
    std::vector<int> displs;
    const detail::v_layout layout =
        detail::packed_displacements(call, recvcounts, ranks(), "recvcounts", displs);
    detail::check_packed_fits(layout, call, in.type, "the sum of recvcounts", "MPI_Allgatherv_c");
    detail::check_room(call, in.count, layout.extent, in.type, "receive buffer",
                       "the sum of recvcounts");
    detail::check_own_count(call, recvcounts, rank(), out.count, out.type);
    const int rc = detail::allgatherv_call(out, in, recvcounts, displs, layout, call);
    detail::check_collective(rc, call, out.count, out.type);
    detail::shrink_to(into, layout.extent);
  }
  /// allgatherv of blocks whose sizes the ranks do not know: an MPI_Allgather of the counts
  /// (one int per rank), then the MPI_Allgatherv into a new vector. Returns the data with the
  /// counts and displacements, to reuse in the counts-given form (one MPI call) next time.
  ///
  ///     auto all = world.allgatherv(mine, thinmpi::exchange_counts);  // 2 MPI calls
  ///     use(all.data, all.counts, all.displs);
  template <class Data = detail::vector_of_elements, class Send>
  requires(!detail::serialized_payload<Send>)
      [[nodiscard]] detail::varying_for<Data, Send> allgatherv(const Send& send,
                                                               exchange_counts_t) const {
    detail::require_sendable<Send>();
    detail::require_varying_data<Data, detail::element_t<Send>>();
    detail::collective_call call{"MPI_Allgather", comm()};
    const detail::const_buffer out = detail::send_buffer(send);
    detail::check_int_count(call, out.count, out.type);
    detail::varying_for<Data, Send> result;
    const int n = ranks();
    result.counts.resize(static_cast<std::size_t>(n));
    const int mine = detail::to_int(out.count);
    detail::check_collective(
        MPI_Allgather(&mine, 1, MPI_INT, result.counts.data(), 1, MPI_INT, comm()), call);
    call.operation = "MPI_Allgatherv";
    const detail::v_layout layout =
        detail::packed_displacements(call, result.counts, n, "recvcounts", result.displs);
    detail::check_varying_fits(layout, call, out.type);
    result.data.resize(layout.extent);
    const int rc = MPI_Allgatherv(out.data, mine, out.type, result.data.data(),
                                  result.counts.data(), result.displs.data(), out.type, comm());
    detail::check_collective(rc, call, out.count, out.type);
    return result;
  }
  /// Every rank's serialized value (serialization/serialized.hpp), in rank order: 2 MPI calls,
  /// an MPI_Allgather of the byte counts (one int each) and an MPI_Allgatherv of the bytes, then
  /// one decode per rank.
  ///
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
    detail::require_sendable<Send>();
    detail::require_writable<Into&&>();
    detail::require_same_element<Send, Into>();
    using state_type = detail::allgather_state<Send, Into>;
    auto state = std::make_unique<state_type>(std::forward<Send>(send), std::forward<Into>(into),
                                              detail::collective_call{"MPI_Iallgather", comm()});
    const detail::const_buffer out = detail::send_buffer(state->send.get());
    const detail::mutable_buffer in = detail::recv_buffer(state->into.get());
    detail::check_int_count(state->call, out.count, out.type);
    state->arrived = times_ranks(out.count);
    detail::check_room(state->call, in.count, state->arrived, in.type, "receive buffer",
                       "one block per rank");
    detail::shrink_to(state->into.get(), state->arrived);
    MPI_Request handle = MPI_REQUEST_NULL;
    const int rc = MPI_Iallgather(out.data, detail::to_int(out.count), out.type, in.data,
                                  detail::to_int(out.count), in.type, comm(), &handle);
    detail::check_collective(rc, state->call, out.count, out.type);
    return collective_request<state_type>(std::move(state), handle);
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
    using state_type = detail::allgatherv_exchange_state<Send, Data>;
    auto state = std::make_unique<state_type>(
        std::forward<Send>(send), detail::collective_call{"MPI_Iallgather", comm()}, ranks());
    const detail::const_buffer out = detail::send_buffer(state->send.get());
    detail::check_int_count(state->call, out.count, out.type);
    state->mine = detail::to_int(out.count);
    MPI_Request handle = MPI_REQUEST_NULL;
    const int rc = MPI_Iallgather(&state->mine, 1, MPI_INT, state->result.counts.data(), 1, MPI_INT,
                                  comm(), &handle);
    detail::check_collective(rc, state->call);
    return collective_request<state_type>(std::move(state), handle);
  }

  /// A persistent allgather (MPI-4 MPI_Allgather_init; Open MPI 4.1: MPIX_Allgather_init;
  /// MPICH: MPI_Allgatherv_init with equal blocks, as its MPI_Allgather_init resends the first
  /// round's data):
  /// each start() / wait() round gathers what `send` holds then into `into`. Pass named
  /// buffers to change the data between rounds; wait() hands back an owned `into` as a
  /// std::span of the received elements, valid while the request lives.
  template <class Send, class Into>
  [[nodiscard]] auto allgather_init(Send&& send, Into&& into) const {
    detail::require_sendable<Send>();
    detail::require_writable<Into&&>();
    detail::require_same_element<Send, Into>();
    using state_type = detail::allgather_state<Send, Into, true>;
#if THINMPI_HAS_PERSISTENT_COLLECTIVES
    auto state =
        std::make_unique<state_type>(std::forward<Send>(send), std::forward<Into>(into),
                                     detail::collective_call{"MPI_Allgather_init", comm()});
    const detail::const_buffer out = detail::send_buffer(state->send.get());
    const detail::mutable_buffer in = detail::recv_buffer(state->into.get());
    detail::check_int_count(state->call, out.count, out.type);
    state->arrived = times_ranks(out.count);
    detail::check_room(state->call, in.count, state->arrived, in.type, "receive buffer",
                       "one block per rank");
    detail::shrink_to(state->into.get(), state->arrived);
    MPI_Request handle = MPI_REQUEST_NULL;
#if defined(MPICH_NUMVERSION)
    // MPICH 4.0.2's MPI_Allgather_init (recursive doubling, on 2 and 4 ranks) copies each
    // rank's own block once, at init: later rounds send the first round's data (reproduced in
    // plain C; pmodels/mpich#6423, #7078 for gather). Its MPI_Allgatherv_init with equal
    // blocks is correct, so that is the call here; the request owns the counts it reads.
    detail::check_int_count(state->call, state->arrived, out.type);  // the displacements fit
    const int count = detail::to_int(out.count);
    state->counts.assign(static_cast<std::size_t>(ranks()), count);
    state->displs.resize(state->counts.size());
    for (std::size_t r = 0; r < state->displs.size(); ++r) {
      state->displs[r] = static_cast<int>(r) * count;
    }
    const int rc =
        MPI_Allgatherv_init(out.data, count, out.type, in.data, state->counts.data(),
                            state->displs.data(), in.type, comm(), MPI_INFO_NULL, &handle);
#else
    const int rc = THINMPI_PERSISTENT_CALL(Allgather_init)(
        out.data, detail::to_int(out.count), out.type, in.data, detail::to_int(out.count), in.type,
        comm(), MPI_INFO_NULL, &handle);
#endif
    detail::check_collective(rc, state->call, out.count, out.type);
    return persistent_request<state_type>(std::move(state), handle);
#else
    static_assert(detail::dependent_false<Send>,
                  "thinmpi: this MPI library has no persistent collectives (MPI-4 "
                  "MPI_Allgather_init, or Open MPI's MPIX_ extension); use iallgather()");
#endif
  }
  /// A persistent allgatherv with counts and displacements given (MPI_Allgatherv_init); the
  /// request keeps its own copies of them.
  template <class Send, class Into>
  [[nodiscard]] auto allgatherv_init(Send&& send, Into&& into, std::span<const int> recvcounts,
                                     std::span<const int> displs) const {
    using state_type = detail::allgather_state<Send, Into, true>;
#if THINMPI_HAS_PERSISTENT_COLLECTIVES
    auto state = prepare_allgatherv<true>(std::forward<Send>(send), std::forward<Into>(into),
                                          recvcounts, &displs, "MPI_Allgatherv_init");
    const detail::const_buffer out = detail::send_buffer(state->send.get());
    const detail::mutable_buffer in = detail::recv_buffer(state->into.get());
    MPI_Request handle = MPI_REQUEST_NULL;
    const int rc = THINMPI_PERSISTENT_CALL(Allgatherv_init)(
        out.data, detail::to_int(out.count), out.type, in.data, state->counts.data(),
        state->displs.data(), in.type, comm(), MPI_INFO_NULL, &handle);
    detail::check_collective(rc, state->call, out.count, out.type);
    return persistent_request<state_type>(std::move(state), handle);
#else
    static_assert(detail::dependent_false<Send>,
                  "thinmpi: this MPI library has no persistent collectives (MPI-4 "
                  "MPI_Allgatherv_init, or Open MPI's MPIX_ extension); use iallgatherv()");
#endif
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept {
    return static_cast<const Comm&>(*this).native();
  }
  [[nodiscard]] int ranks() const {
    return static_cast<const Comm&>(*this).size();
  }
  /// One element per rank of a block of `count`: the size of everything gathered.
  [[nodiscard]] std::size_t times_ranks(std::size_t count) const {
    return count * static_cast<std::size_t>(ranks());
  }
  [[nodiscard]] int rank() const {
    return static_cast<const Comm&>(*this).rank();
  }

  /// The state of an allgatherv with counts (and displacements, if given) checked and copied.
  template <bool Persistent = false, class Send, class Into>
  auto prepare_allgatherv(Send&& send, Into&& into, std::span<const int> recvcounts,
                          const std::span<const int>* displs, const char* operation) const {
    detail::require_sendable<Send>();
    detail::require_writable<Into&&>();
    detail::require_same_element<Send, Into>();
    using state_type = detail::allgather_state<Send, Into, Persistent>;
    auto state = std::make_unique<state_type>(std::forward<Send>(send), std::forward<Into>(into),
                                              detail::collective_call{operation, comm()});
    const detail::const_buffer out = detail::send_buffer(state->send.get());
    const detail::mutable_buffer in = detail::recv_buffer(state->into.get());
    const int n = ranks();
    detail::v_layout layout;
    if (displs != nullptr) {
      layout = detail::given_layout(state->call, recvcounts, *displs, n, "recvcounts", "displs");
      state->displs.assign(displs->begin(), displs->end());
    } else {
      layout =
          detail::packed_displacements(state->call, recvcounts, n, "recvcounts", state->displs);
      if (!layout.fits_int) [[unlikely]] {
        detail::raise_int_count(state->call, layout.extent, in.type);
      }
    }
    state->counts.assign(recvcounts.begin(), recvcounts.end());
    state->arrived = layout.extent;
    detail::check_room(state->call, in.count, layout.extent, in.type, "receive buffer",
                       displs != nullptr ? "the blocks at displs" : "the sum of recvcounts");
    detail::check_own_count(state->call, recvcounts, rank(), out.count, out.type);
    detail::shrink_to(state->into.get(), layout.extent);
    return state;
  }
  template <class Send, class Into>
  auto start_allgatherv(Send&& send, Into&& into, std::span<const int> recvcounts,
                        const std::span<const int>* displs) const {
    using state_type = detail::allgather_state<Send, Into>;
    auto state = prepare_allgatherv(std::forward<Send>(send), std::forward<Into>(into), recvcounts,
                                    displs, "MPI_Iallgatherv");
    const detail::const_buffer out = detail::send_buffer(state->send.get());
    const detail::mutable_buffer in = detail::recv_buffer(state->into.get());
    MPI_Request handle = MPI_REQUEST_NULL;
    const int rc =
        MPI_Iallgatherv(out.data, detail::to_int(out.count), out.type, in.data,
                        state->counts.data(), state->displs.data(), in.type, comm(), &handle);
    detail::check_collective(rc, state->call, out.count, out.type);
    return collective_request<state_type>(std::move(state), handle);
  }
};

}  // namespace thinmpi
