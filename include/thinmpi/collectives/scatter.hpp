#pragma once
/// \file
/// scatter, scatter_in_place, scatterv and iscatter: the root's blocks, one to each rank
/// (MPI_Scatter, MPI_Scatterv).

#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/collective_state.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
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

inline int scatter(const void* send, std::size_t send_n, MPI_Datatype send_t, void* recv,
                   std::size_t recv_n, MPI_Datatype recv_t, int root, MPI_Comm comm) {
  return counted_call<&MPI_Scatter, THINMPI_LARGE_COUNT_CALL(MPI_Scatter)>(
      counts_at<1, 4>{}, send, send_n, send_t, recv, recv_n, recv_t, root, comm);
}

}  // namespace detail

/// The scatters of a communicator (comm_view derives from this family). Rooted calls ask
/// MPI_Comm_rank (a local query) whether this rank is the root, to check the root's buffer
/// before MPI reads it.
template <class Comm>
class collective_scatter {
 public:
  /// Block i of the root's `send` into rank i's `into` (one MPI_Scatter); a block is
  /// into.size() elements, the same on every rank. `send` is read on the root only, where it
  /// must hold size() blocks; other ranks may pass any buffer.
  template <class Send, class Into>
  void scatter(const Send& send, Into&& into, int root) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    const detail::mutable_buffer in = detail::recv_buffer(into);
    const detail::collective_call call{"MPI_Scatter", comm(), root};
    const detail::const_buffer out = root_blocks(send, call, in);
    detail::check_collective(
        detail::scatter(out.data, in.count, out.type, in.data, in.count, in.type, root, comm()),
        call, in.count, in.type);
  }
  /// scatter() with the root's own block left in place in `buffer` (MPI_IN_PLACE): on the root
  /// `buffer` holds size() blocks; on other ranks it receives one block.
  template <class Buffer>
  void scatter_in_place(Buffer&& buffer, int root) const {
    detail::require_receivable<Buffer&&>();
    const detail::mutable_buffer b = detail::recv_buffer(buffer);
    const detail::collective_call call{"MPI_Scatter", comm(), root};
    int rc = MPI_SUCCESS;
    if (detail::rank_in(comm()) == root) {
      const std::size_t block = detail::equal_blocks(
          call, b.count, b.type, static_cast<std::size_t>(detail::size_of(comm())), "buffer");
      rc = detail::scatter(b.data, block, b.type, MPI_IN_PLACE, block, b.type, root, comm());
    } else {
      rc = detail::scatter(nullptr, 0, b.type, b.data, b.count, b.type, root, comm());
    }
    detail::check_collective(rc, call, b.count, b.type);
  }

  /// counts[i] elements of the root's `send` at displs[i] into rank i's `into` (one
  /// MPI_Scatterv); `into` must have room for this rank's count (MPI reports no received
  /// count here). `counts`, `displs` and `send` are read on the root only, which checks them
  /// against `send` first.
  template <class Send, class Into>
  void scatterv(const Send& send, std::span<const int> counts, std::span<const int> displs,
                Into&& into, int root) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    const detail::mutable_buffer in = detail::recv_buffer(into);
    const detail::collective_call call{"MPI_Scatterv", comm(), root};
    detail::check_int_count(call, in.count, in.type);
    detail::const_buffer out{nullptr, 0, in.type};
    if (detail::rank_in(comm()) == root) {
      out = detail::send_buffer(send);
      const std::size_t extent = detail::given_layout(call, counts, displs, detail::size_of(comm()),
                                                      "sendcounts", "displs")
                                     .extent;
      detail::check_room(call, out.count, extent, out.type, "send buffer", "the blocks at displs");
    }
    detail::check_collective(MPI_Scatterv(out.data, counts.data(), displs.data(), out.type, in.data,
                                          detail::to_int(in.count), in.type, root, comm()),
                             call, in.count, in.type);
  }
  /// scatterv() where only the root knows the counts: they are scattered first (one
  /// MPI_Scatter of an int), then the blocks, packed in rank order in `send` (one
  /// MPI_Scatterv). Every rank gets a new vector of its block.
  template <class Data = detail::vector_of_elements, class Send>
  [[nodiscard]] detail::varying_data_t<Data, detail::element_t<Send>> scatterv(
      const Send& send, std::span<const int> counts, int root, exchange_counts_t) const {
    detail::require_sendable<Send>();
    detail::require_varying_data<Data, detail::element_t<Send>>();
    const detail::collective_call call{"MPI_Scatter", comm(), root};
    const bool is_root = detail::rank_in(comm()) == root;
    std::vector<int> displs;
    if (is_root) {
      const detail::v_layout layout =
          detail::packed_displacements(call, counts, detail::size_of(comm()), "sendcounts", displs);
      detail::check_varying_fits(layout, call, detail::send_buffer(send).type);
    }
    int mine = 0;
    detail::check_collective(
        MPI_Scatter(is_root ? counts.data() : nullptr, 1, MPI_INT, &mine, 1, MPI_INT, root, comm()),
        call, 1, MPI_INT);
    detail::varying_data_t<Data, detail::element_t<Send>> block;
    block.resize(static_cast<std::size_t>(mine));
    scatterv(send, counts, displs, block, root);
    return block;
  }
  /// Scatters serialized values (serialization/serialized.hpp): the root's `values` (size()
  /// values, read on the root only) go one to each rank in 2 MPI calls, an MPI_Scatter of the
  /// byte counts and an MPI_Scatterv of the bytes; each rank decodes and returns its own.
  ///
  ///     task mine = world.scatterv(thinmpi::serialized(tasks), 0, thinmpi::exchange_counts);
  template <detail::serialized_payload Payload>
  [[nodiscard]] auto scatterv(const Payload& values, int root, exchange_counts_t) const {
    return Payload::scatterv(static_cast<const Comm&>(*this), values, root);
  }

  /// Starts scatter() into `into` (MPI_Iscatter). Named buffers are borrowed and must outlive
  /// the request; an `into` moved in is owned and handed back by wait().
  template <class Send, class Into>
  [[nodiscard]] auto iscatter(const Send& send, Into&& into, int root) const {
    detail::require_sendable<Send>();
    detail::require_writable<Into&&>();
    using state = detail::payload_state<Into&&>;
    auto kept = std::make_unique<state>(std::forward<Into>(into),
                                        detail::collective_call{"MPI_Iscatter", comm(), root});
    const detail::mutable_buffer in = detail::recv_buffer(kept->payload.get());
    kept->count = in.count;
    kept->type = in.type;
    detail::check_int_count(kept->call, in.count, in.type);
    const detail::const_buffer out = root_blocks(send, kept->call, in);
    MPI_Request handle = MPI_REQUEST_NULL;
    detail::check_collective(MPI_Iscatter(out.data, detail::to_int(in.count), out.type, in.data,
                                          detail::to_int(in.count), in.type, root, comm(), &handle),
                             kept->call, in.count, in.type);
    return collective_request<state>(std::move(kept), handle);
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }

  /// The root's send buffer, checked to hold size() blocks of `in`; nothing on other ranks.
  template <class Send>
  detail::const_buffer root_blocks(const Send& send, const detail::collective_call& call,
                                   const detail::mutable_buffer& in) const {
    if (detail::rank_in(comm()) != *call.root) return {nullptr, 0, in.type};
    const detail::const_buffer out = detail::send_buffer(send);
    const std::size_t needed = in.count * static_cast<std::size_t>(detail::size_of(comm()));
    if (out.count < needed) [[unlikely]] {
      detail::raise_collective(
          MPI_ERR_COUNT, call, out.count, out.type,
          "the root's send buffer of " + detail::describe_elements(out.count, out.type) +
              " is smaller than size() blocks of " + std::to_string(in.count) + " elements");
    }
    return out;
  }
};

}  // namespace thinmpi
