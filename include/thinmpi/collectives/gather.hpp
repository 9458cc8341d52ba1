#pragma once
/// \file
/// gather, gather_in_place, gatherv and igather: every rank's block to the root (MPI_Gather,
/// MPI_Gatherv), into the root's buffer or into a new vector that only the root gets.

#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/collectives/detail/v_calls.hpp"
#include "thinmpi/collectives/exchange_counts.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/comm_queries.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/requests/collective_request.hpp"

namespace thinmpi {

namespace detail {

inline int gather(const void* send, std::size_t send_n, MPI_Datatype send_t, void* recv,
                  std::size_t recv_n, MPI_Datatype recv_t, int root, MPI_Comm comm) {
  return counted_call<&MPI_Gather, THINMPI_LARGE_COUNT_CALL(MPI_Gather)>(
      counts_at<1, 4>{}, send, send_n, send_t, recv, recv_n, recv_t, root, comm);
}

/// The State of igather into a new vector on the root: the vector, engaged on the root.
template <class E>
struct gathered_state {
  collective_call call;
  std::size_t count;
  MPI_Datatype type;
  std::optional<std::vector<E>> result;

  [[noreturn]] void raise(int rc) const { raise_collective(rc, call, count, type); }
  std::optional<std::vector<E>> take() { return std::move(result); }
};

}  // namespace detail

/// The gathers of a communicator (comm_view derives from this family). Rooted calls ask
/// MPI_Comm_rank (a local query) whether this rank is the root, to check the root's buffer
/// before MPI writes into it. An error only the root can see follows detail/root_checks.hpp:
/// a buffer too small receives into scratch and then throws on the root; counts or a buffer
/// that do not say what the others send end the job (or, checked, throw on every rank).
template <class Comm>
class collective_gather {
 public:
  /// Every rank's `send` (the same number of elements on each) into the root's `into`, in rank
  /// order (one MPI_Gather). `into` is read only on the root, where it must hold size() blocks
  /// (a vector or string larger than that is shrunk to them); other ranks may pass any buffer.
  /// A root buffer too small still receives the blocks (into scratch, so that none is left for
  /// a later call), then the root throws MPI_ERR_COUNT; the other ranks return.
  template <class Send, class Into>
  void gather(const Send& send, Into&& into, int root) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::collective_call call{"MPI_Gather", comm(), root};
    detail::mutable_buffer in{nullptr, 0, out.type};
    if (detail::rank_in(comm()) == root) {
      in = detail::recv_buffer(into);
      const std::size_t needed = out.count * static_cast<std::size_t>(detail::size_of(comm()));
      if (in.count < needed) [[unlikely]] {
        root_too_small(call, out.data, out.count, out.type, in.count, in.type, needed);
      }
      detail::shrink_to(into, needed);
    }
    detail::agree_if_checked(call);
    detail::check_collective(
        detail::gather(out.data, out.count, out.type, in.data, out.count, in.type, root, comm()),
        call, out.count, out.type);
  }
  /// Every rank's `send` into a new vector on the root (one MPI_Gather): engaged on the root,
  /// empty elsewhere.
  ///
  ///     const double local_sum = 0.5 * world.rank();
  ///     if (auto all = world.gather(local_sum, 0)) use(*all);  // only rank 0 enters
  template <class Send>
  [[nodiscard]] std::optional<std::vector<detail::element_t<Send>>> gather(const Send& send,
                                                                           int root) const {
    detail::require_sendable<Send>();
    std::optional<std::vector<detail::element_t<Send>>> result;
    if (detail::rank_in(comm()) == root) {
      result.emplace(detail::send_buffer(send).count *
                     static_cast<std::size_t>(detail::size_of(comm())));
    }
    std::vector<detail::element_t<Send>> nothing;
    gather(send, result ? *result : nothing, root);
    return result;
  }
  /// gather() with the root's own block already in place in `buffer` (MPI_IN_PLACE): on the
  /// root `buffer` holds size() blocks and its own is at rank * block; on other ranks `buffer`
  /// is the block sent. A root buffer that is not size() equal blocks ends the job (the root
  /// cannot know the block the others send).
  template <class Buffer>
  void gather_in_place(Buffer&& buffer, int root) const {
    detail::require_receivable<Buffer&&>();
    const detail::mutable_buffer b = detail::recv_buffer(buffer);
    const detail::collective_call call{"MPI_Gather", comm(), root};
    int rc = MPI_SUCCESS;
    if (detail::rank_in(comm()) == root) {
      const auto ranks = static_cast<std::size_t>(detail::size_of(comm()));
      if (b.count % ranks != 0) [[unlikely]] {
        detail::failed_check(call, [call, b, ranks] {
          detail::raise_uneven_blocks(call, b.count, b.type, ranks, "buffer");
        });
      }
      detail::agree_if_checked(call);
      rc = detail::gather(MPI_IN_PLACE, 0, b.type, b.data, b.count / ranks, b.type, root, comm());
    } else {
      detail::agree_if_checked(call);
      rc = detail::gather(b.data, b.count, b.type, nullptr, 0, b.type, root, comm());
    }
    detail::check_collective(rc, call, b.count, b.type);
  }

  /// Every rank's `send`, of its own size, into the root's `into` at `displs` (one
  /// MPI_Gatherv). `counts` and `displs` (one per rank, in elements) and `into` are read on the
  /// root only, which checks them against `into` before MPI writes: `into` too small receives
  /// into scratch, then the root throws; `counts` or `displs` of the wrong length or negative
  /// end the job (the root cannot know what the others send).
  template <class Send, class Into>
  void gatherv(const Send& send, Into&& into, std::span<const int> counts,
               std::span<const int> displs, int root) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::collective_call call{"MPI_Gatherv", comm(), root};
    detail::mutable_buffer in{nullptr, 0, out.type};
    detail::v_layout layout{};
    if (detail::rank_in(comm()) == root) {
      in = detail::recv_buffer(into);
      const std::exception_ptr error = detail::failure_of([&] {
        layout = detail::given_layout(call, counts, displs, detail::size_of(comm()), "recvcounts",
                                      "displs");
      });
      if (error) [[unlikely]] {
        detail::failed_check(call, [error] { std::rethrow_exception(error); });
      }
      if (in.count < layout.extent) [[unlikely]] {
        root_too_small_v(call, out, in, counts, displs, layout, "the blocks at displs");
      }
      detail::shrink_to(into, layout.extent);
    }
    detail::own_count_fits(call, out);
    detail::agree_if_checked(call);
    detail::check_collective(gatherv_call(out, in, counts, displs, layout, root), call, out.count,
                             out.type);
  }
  /// gatherv() with the blocks packed in rank order: the root computes the displacements (a
  /// vector of size() ints) from `counts`.
  template <class Send, class Into>
  void gatherv(const Send& send, Into&& into, std::span<const int> counts, int root) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::collective_call call{"MPI_Gatherv", comm(), root};
    detail::mutable_buffer in{nullptr, 0, out.type};
    std::vector<int> displs;
    detail::v_layout layout{};
    if (detail::rank_in(comm()) == root) {
      in = detail::recv_buffer(into);
      const std::exception_ptr error = detail::failure_of([&] {
        layout = detail::packed_displacements(call, counts, detail::size_of(comm()), "recvcounts",
                                              displs);
        detail::check_packed_fits(layout, call, out.type, "the sum of recvcounts", "MPI_Gatherv_c");
      });
      if (error) [[unlikely]] {
        detail::failed_check(call, [error] { std::rethrow_exception(error); });
      }
      if (in.count < layout.extent) [[unlikely]] {
        root_too_small_v(call, out, in, counts, displs, layout, "the sum of recvcounts");
      }
      detail::shrink_to(into, layout.extent);
    }
    // Past INT_MAX the root takes MPI_Gatherv_c (MPICH), whose send count is wide too.
    if (layout.fits_int) detail::own_count_fits(call, out);
    detail::agree_if_checked(call);
    detail::check_collective(gatherv_call(out, in, counts, displs, layout, root), call, out.count,
                             out.type);
  }
  /// gatherv() where only each rank knows its own count: the counts go to the root first (one
  /// MPI_Gather of an int), then the blocks (one MPI_Gatherv). The root gets the data with each
  /// rank's count and displacement, to reuse; other ranks get nothing.
  template <class Data = detail::vector_of_elements, class Send>
  requires(!detail::serialized_payload<Send>)
      [[nodiscard]] std::optional<detail::varying_for<Data, Send>> gatherv(
          const Send& send, int root, exchange_counts_t) const {
    detail::require_sendable<Send>();
    detail::require_varying_data<Data, detail::element_t<Send>>();
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::collective_call call{"MPI_Gather", comm(), root};
    detail::own_count_fits(call, out);  // else the others would wait in the count exchange
    detail::agree_if_checked(call);
    const int mine = detail::to_int(out.count);
    std::optional<detail::varying_for<Data, Send>> result;
    const bool is_root = detail::rank_in(comm()) == root;
    if (is_root) result.emplace().counts.resize(static_cast<std::size_t>(detail::size_of(comm())));
    detail::check_collective(
        MPI_Gather(&mine, 1, MPI_INT, is_root ? result->counts.data() : nullptr, 1, MPI_INT, root,
                   comm()),
        call, 1, MPI_INT);
    const detail::collective_call blocks{"MPI_Gatherv", comm(), root};
    detail::v_layout layout{};
    detail::mutable_buffer in{nullptr, 0, out.type};
    if (is_root) {
      layout = detail::packed_displacements(blocks, result->counts, detail::size_of(comm()),
                                            "recvcounts", result->displs);
      // thinmpi::varying holds int displacements.
      if (!layout.fits_int) [[unlikely]] {
        detail::failed_check(blocks, [blocks, layout, type = out.type] {
          detail::raise_varying_past_int(layout, blocks, type);
        });
      }
      result->data.resize(layout.extent);
      in = detail::recv_buffer(result->data);
    }
    detail::agree_if_checked(blocks);
    const std::span<const int> counts = is_root ? result->counts : std::span<const int>{};
    const std::span<const int> displs = is_root ? result->displs : std::span<const int>{};
    detail::check_collective(gatherv_call(out, in, counts, displs, layout, root), blocks, out.count,
                             out.type);
    return result;
  }
  /// Gathers serialized values (serialization/serialized.hpp) to the root: 2 MPI calls, an
  /// MPI_Gather of each rank's byte count (one int) and an MPI_Gatherv of the bytes. The root
  /// gets every rank's value in rank order (one decode per rank); other ranks get nothing.
  ///
  ///     std::string mine = thinmpi::processor_name();
  ///     if (auto all = world.gatherv(thinmpi::serialized(mine), 0, thinmpi::exchange_counts))
  ///       use(*all);  // the root: every rank's name, in rank order
  template <detail::serialized_payload Payload>
  [[nodiscard]] auto gatherv(const Payload& payload, int root, exchange_counts_t) const {
    return Payload::gatherv(static_cast<const Comm&>(*this), payload, root);
  }

  /// Starts gather() into a new vector on the root (MPI_Igather); `send` is borrowed and must
  /// outlive the request; wait() hands the root its vector (empty on other ranks).
  template <class Send>
  [[nodiscard]] auto igather(const Send& send, int root) const {
    detail::require_sendable<Send>();
    using E = detail::element_t<Send>;
    const detail::const_buffer out = detail::send_buffer(send);
    using state = detail::gathered_state<E>;
    auto kept =
        std::make_unique<state>(state{{"MPI_Igather", comm(), root}, out.count, out.type, {}});
    // The same count on every rank (MPI requires it): an alike check.
    detail::alike_checks(kept->call,
                         [&] { detail::check_int_count(kept->call, out.count, out.type); });
    if (detail::rank_in(comm()) == root) {
      kept->result.emplace(out.count * static_cast<std::size_t>(detail::size_of(comm())));
    }
    detail::agree_if_checked(kept->call);
    void* into = kept->result ? kept->result->data() : nullptr;
    MPI_Request handle = MPI_REQUEST_NULL;
    detail::check_collective(
        MPI_Igather(out.data, detail::to_int(out.count), out.type, into, detail::to_int(out.count),
                    out.type, root, comm(), &handle),
        kept->call, out.count, out.type);
    return collective_request<state>(std::move(kept), handle);
  }

 private:
  /// gather() on a root whose `into` is too small: the blocks arrive in scratch (so that none
  /// is left in flight for a later call), then the root throws.
  [[noreturn, gnu::cold, gnu::noinline]] void root_too_small(const detail::collective_call& call,
                                                             const void* send, std::size_t count,
                                                             MPI_Datatype send_type,
                                                             std::size_t room, MPI_Datatype type,
                                                             std::size_t needed) const {
    detail::failed_check(
        call,
        [&] {
          detail::raise_room(call, room, needed, type, "receive buffer",
                             "size() blocks of the root's count");
        },
        [&] {
          detail::scratch blocks(needed, type);
          // A failure here is MPI's; the root reports its own error, the cause.
          static_cast<void>(detail::gather(send, count, send_type, blocks.data(), count, type,
                                           *call.root, comm()));
          return true;
        });
  }
  /// gatherv() on a root whose `into` is too small for a layout that passed: the blocks
  /// arrive in scratch of the layout's extent, then the root throws.
  [[noreturn, gnu::cold, gnu::noinline]] void root_too_small_v(
      const detail::collective_call& call, const detail::const_buffer& out,
      const detail::mutable_buffer& in, std::span<const int> counts, std::span<const int> displs,
      const detail::v_layout& layout, const char* why) const {
    detail::failed_check(
        call,
        [&] { detail::raise_room(call, in.count, layout.extent, in.type, "receive buffer", why); },
        [&] {
          detail::scratch blocks(layout.extent, in.type);
          static_cast<void>(gatherv_call(out, {blocks.data(), layout.extent, in.type}, counts,
                                         displs, layout, *call.root));
          return true;
        });
  }
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }

  /// One MPI_Gatherv; on the root, when packed displacements pass INT_MAX, MPI_Gatherv_c
  /// (MPI-4, MPICH) with them widened. The other ranks' classic call matches it.
  int gatherv_call(const detail::const_buffer& out, const detail::mutable_buffer& in,
                   std::span<const int> counts, std::span<const int> displs,
                   const detail::v_layout& layout, int root) const {
    if (layout.fits_int) [[likely]] {
      return MPI_Gatherv(out.data, detail::to_int(out.count), out.type, in.data, counts.data(),
                         displs.data(), in.type, root, comm());
    }
#if THINMPI_HAS_LARGE_COUNT_CALLS
    const detail::wide_layout wide = detail::wide_packed(counts);
    return MPI_Gatherv_c(out.data, static_cast<MPI_Count>(out.count), out.type, in.data,
                         wide.counts.data(), wide.displs.data(), in.type, root, comm());
#else
    static_cast<void>(root);
    return MPI_ERR_COUNT;  // check_packed_fits has thrown already
#endif
  }
};

}  // namespace thinmpi
