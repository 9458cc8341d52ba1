#pragma once
/// \file
/// gather, gather_in_place, gatherv and igather: every rank's block to the root (MPI_Gather,
/// MPI_Gatherv), into the root's buffer or into a new vector that only the root gets.

#include <cstddef>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <utility>
#include <vector>

#include "thinmpi/collective_request.hpp"
#include "thinmpi/collectives/exchange_counts.hpp"
#include "thinmpi/concepts.hpp"
#include "thinmpi/detail/buffers.hpp"
#include "thinmpi/detail/collective_buffers.hpp"
#include "thinmpi/detail/collective_call.hpp"
#include "thinmpi/detail/comm_queries.hpp"
#include "thinmpi/detail/mpi.hpp"
#include "thinmpi/detail/varying_layout.hpp"

namespace thinmpi {

namespace detail {

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
/// before MPI writes into it.
template <class Comm>
class collective_gather {
 public:
  /// Every rank's `send` (the same number of elements on each) into the root's `into`, in rank
  /// order (one MPI_Gather). `into` is read only on the root, where it must hold size() blocks
  /// (a vector or string larger than that is shrunk to them); other ranks may pass any buffer.
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
      detail::require_room(call, in.count, needed, in.type, "size() ranks x the root's count");
      detail::shrink_to(into, needed);
    }
    detail::require_int_count(call, out.count, out.type);
    detail::check_collective(MPI_Gather(out.data, detail::to_int(out.count), out.type, in.data,
                                        detail::to_int(out.count), in.type, root, comm()),
                             call, out.count, out.type);
  }
  /// Every rank's `send` into a new vector on the root (one MPI_Gather): engaged on the root,
  /// empty elsewhere.
  ///
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
  /// is the block sent.
  template <class Buffer>
  void gather_in_place(Buffer&& buffer, int root) const {
    detail::require_receivable<Buffer&&>();
    const detail::mutable_buffer b = detail::recv_buffer(buffer);
    const detail::collective_call call{"MPI_Gather", comm(), root};
    detail::require_int_count(call, b.count, b.type);
    int rc = MPI_SUCCESS;
    if (detail::rank_in(comm()) == root) {
      const auto ranks = static_cast<std::size_t>(detail::size_of(comm()));
      detail::require_blocks(call, b.count, ranks, b.type);
      rc = MPI_Gather(MPI_IN_PLACE, 0, b.type, b.data, detail::to_int(b.count / ranks), b.type,
                      root, comm());
    } else {
      rc = MPI_Gather(b.data, detail::to_int(b.count), b.type, nullptr, 0, b.type, root, comm());
    }
    detail::check_collective(rc, call, b.count, b.type);
  }

  /// Every rank's `send`, of its own size, into the root's `into` at `displs` (one
  /// MPI_Gatherv). `counts` and `displs` (one per rank, in elements) and `into` are read on the
  /// root only, which checks them against `into` before MPI writes.
  template <class Send, class Into>
  void gatherv(const Send& send, Into&& into, std::span<const int> counts,
               std::span<const int> displs, int root) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::collective_call call{"MPI_Gatherv", comm(), root};
    detail::mutable_buffer in{nullptr, 0, out.type};
    if (detail::rank_in(comm()) == root) {
      in = detail::recv_buffer(into);
      const std::size_t extent =
          detail::check_layout(call, counts, displs, detail::size_of(comm()), in.count, in.type);
      detail::shrink_to(into, extent);
    }
    detail::require_int_count(call, out.count, out.type);
    detail::check_collective(MPI_Gatherv(out.data, detail::to_int(out.count), out.type, in.data,
                                         counts.data(), displs.data(), in.type, root, comm()),
                             call, out.count, out.type);
  }
  /// gatherv() with the blocks packed in rank order: the root computes the displacements (a
  /// vector of size() ints) from `counts`.
  template <class Send, class Into>
  void gatherv(const Send& send, Into&& into, std::span<const int> counts, int root) const {
    std::vector<int> displs;
    if (detail::rank_in(comm()) == root) displs = detail::packed_displs(counts);
    gatherv(send, std::forward<Into>(into), counts, displs, root);
  }
  /// gatherv() where only each rank knows its own count: the counts go to the root first (one
  /// MPI_Gather of an int), then the blocks (one MPI_Gatherv). The root gets the data with each
  /// rank's count and displacement, to reuse; other ranks get nothing.
  template <class Send>
  [[nodiscard]] std::optional<varying<detail::element_t<Send>>> gatherv(const Send& send, int root,
                                                                       exchange_counts_t) const {
    detail::require_sendable<Send>();
    const detail::const_buffer out = detail::send_buffer(send);
    const detail::collective_call call{"MPI_Gather", comm(), root};
    detail::require_int_count(call, out.count, out.type);
    const int mine = detail::to_int(out.count);
    std::optional<varying<detail::element_t<Send>>> result;
    const bool is_root = detail::rank_in(comm()) == root;
    if (is_root) result.emplace().counts.resize(static_cast<std::size_t>(detail::size_of(comm())));
    detail::check_collective(
        MPI_Gather(&mine, 1, MPI_INT, is_root ? result->counts.data() : nullptr, 1, MPI_INT, root,
                   comm()),
        call, 1, MPI_INT);
    std::vector<detail::element_t<Send>> nothing;
    if (is_root) {
      result->displs = detail::packed_displs(result->counts);
      result->data.resize(detail::packed_extent(call, result->counts, out.type));
      gatherv(send, result->data, result->counts, result->displs, root);
    } else {
      gatherv(send, nothing, {}, {}, root);
    }
    return result;
  }

  /// Starts gather() into a new vector on the root (MPI_Igather); `send` is borrowed and must
  /// outlive the request; wait() hands the root its vector (empty on other ranks).
  template <class Send>
  [[nodiscard]] auto igather(const Send& send, int root) const {
    detail::require_sendable<Send>();
    using E = detail::element_t<Send>;
    const detail::const_buffer out = detail::send_buffer(send);
    using state = detail::gathered_state<E>;
    auto kept = std::make_unique<state>(state{{"MPI_Igather", comm(), root}, out.count, out.type, {}});
    detail::require_int_count(kept->call, out.count, out.type);
    if (detail::rank_in(comm()) == root) {
      kept->result.emplace(out.count * static_cast<std::size_t>(detail::size_of(comm())));
    }
    void* into = kept->result ? kept->result->data() : nullptr;
    MPI_Request handle = MPI_REQUEST_NULL;
    detail::check_collective(MPI_Igather(out.data, detail::to_int(out.count), out.type, into,
                                         detail::to_int(out.count), out.type, root, comm(),
                                         &handle),
                             kept->call, out.count, out.type);
    return collective_request<state>(std::move(kept), handle);
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
};

}  // namespace thinmpi
