#pragma once
/// \file
/// scatter, scatter_in_place, scatterv and iscatter: the root's blocks, one to each rank
/// (MPI_Scatter, MPI_Scatterv).

#include <cstddef>
#include <exception>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/collective_state.hpp"
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

inline int scatter(const void* send, std::size_t send_n, MPI_Datatype send_t, void* recv,
                   std::size_t recv_n, MPI_Datatype recv_t, int root, MPI_Comm comm) {
  return counted_call<&MPI_Scatter, THINMPI_LARGE_COUNT_CALL(MPI_Scatter)>(
      counts_at<1, 4>{}, send, send_n, send_t, recv, recv_n, recv_t, root, comm);
}

}  // namespace detail

/// The scatters of a communicator (comm_view derives from this family). Rooted calls ask
/// MPI_Comm_rank (a local query) whether this rank is the root, to check the root's buffer
/// before MPI reads it. An error only the root can see follows detail/root_checks.hpp: the
/// other ranks would wait forever or receive data that is not this call's, so it ends the job
/// (or, checked, throws on every rank).
template <class Comm>
class collective_scatter {
 public:
  /// Block i of the root's `send` into rank i's `into` (one MPI_Scatter); a block is
  /// into.size() elements, the same on every rank. `send` is read on the root only, where it
  /// must hold size() blocks (fewer end the job); other ranks may pass any buffer.
  template <class Send, class Into>
  void scatter(const Send& send, Into&& into, int root) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    const detail::mutable_buffer in = detail::recv_buffer(into);
    const detail::collective_call call{"MPI_Scatter", comm(), root};
    const detail::const_buffer out = root_blocks(send, call, in);
    detail::agree_if_checked(call);
    detail::check_collective(
        detail::scatter(out.data, in.count, out.type, in.data, in.count, in.type, root, comm()),
        call, in.count, in.type);
  }
  /// scatter() with the root's own block left in place in `buffer` (MPI_IN_PLACE): on the root
  /// `buffer` holds size() equal blocks (else the job ends); on other ranks it receives one.
  template <class Buffer>
  void scatter_in_place(Buffer&& buffer, int root) const {
    detail::require_receivable<Buffer&&>();
    const detail::mutable_buffer b = detail::recv_buffer(buffer);
    const detail::collective_call call{"MPI_Scatter", comm(), root};
    int rc = MPI_SUCCESS;
    if (detail::rank_in(comm()) == root) {
      const auto ranks = static_cast<std::size_t>(detail::size_of(comm()));
      if (b.count % ranks != 0) [[unlikely]] {
        detail::failed_check(call, [call, b, ranks] {
          detail::raise_uneven_blocks(call, b.count, b.type, ranks, "buffer");
        });
      }
      detail::agree_if_checked(call);
      const std::size_t block = b.count / ranks;
      rc = detail::scatter(b.data, block, b.type, MPI_IN_PLACE, block, b.type, root, comm());
    } else {
      detail::agree_if_checked(call);
      rc = detail::scatter(nullptr, 0, b.type, b.data, b.count, b.type, root, comm());
    }
    detail::check_collective(rc, call, b.count, b.type);
  }

  /// counts[i] elements of the root's `send` at displs[i] into rank i's `into` (one
  /// MPI_Scatterv); `into` must have room for this rank's count (MPI reports no received
  /// count here). `counts`, `displs` and `send` are read on the root only, which checks them
  /// against `send` first: wrong lengths, negative entries or a `send` too small end the job.
  template <class Send, class Into>
  void scatterv(const Send& send, std::span<const int> counts, std::span<const int> displs,
                Into&& into, int root) const {
    detail::require_sendable<Send>();
    detail::require_receivable<Into&&>();
    const detail::mutable_buffer in = detail::recv_buffer(into);
    const detail::collective_call call{"MPI_Scatterv", comm(), root};
    detail::own_count_fits(call, in);
    detail::const_buffer out{nullptr, 0, in.type};
    if (detail::rank_in(comm()) == root) {
      out = detail::send_buffer(send);
      root_layout_fits(call, out, [&] {
        return detail::given_layout(call, counts, displs, detail::size_of(comm()), "sendcounts",
                                    "displs");
      });
    }
    detail::agree_if_checked(call);
    detail::check_collective(MPI_Scatterv(out.data, counts.data(), displs.data(), out.type, in.data,
                                          detail::to_int(in.count), in.type, root, comm()),
                             call, in.count, in.type);
  }
  /// scatterv() where only the root knows the counts: they are scattered first (one
  /// MPI_Scatter of an int), then the blocks, packed in rank order in `send` (one
  /// MPI_Scatterv). Every rank gets a new vector of its block. The root checks `counts` and
  /// `send` before the first call.
  template <class Data = detail::vector_of_elements, class Send>
  [[nodiscard]] detail::varying_data_t<Data, detail::element_t<Send>> scatterv(
      const Send& send, std::span<const int> counts, int root, exchange_counts_t) const {
    detail::require_sendable<Send>();
    detail::require_varying_data<Data, detail::element_t<Send>>();
    const detail::collective_call call{"MPI_Scatter", comm(), root};
    const bool is_root = detail::rank_in(comm()) == root;
    std::vector<int> displs;
    detail::const_buffer out{nullptr, 0, detail::send_buffer(send).type};
    if (is_root) {
      out = detail::send_buffer(send);
      root_layout_fits(call, out, [&] {
        const detail::v_layout layout = detail::packed_displacements(
            call, counts, detail::size_of(comm()), "sendcounts", displs);
        detail::check_varying_fits(layout, call, out.type);
        return layout;
      });
    }
    detail::agree_if_checked(call);
    int mine = 0;
    detail::check_collective(
        MPI_Scatter(is_root ? counts.data() : nullptr, 1, MPI_INT, &mine, 1, MPI_INT, root, comm()),
        call, 1, MPI_INT);
    detail::varying_data_t<Data, detail::element_t<Send>> block;
    block.resize(static_cast<std::size_t>(mine));
    const detail::mutable_buffer in = detail::recv_buffer(block);
    const detail::collective_call blocks{"MPI_Scatterv", comm(), root};
    detail::check_collective(MPI_Scatterv(out.data, counts.data(), displs.data(), out.type, in.data,
                                          mine, in.type, root, comm()),
                             blocks, in.count, in.type);
    return block;
  }
  /// Scatters serialized values (serialization/serialized.hpp): the root's `values` (size()
  /// values, read on the root only) go one to each rank in 2 MPI calls, an MPI_Scatter of the
  /// byte counts and an MPI_Scatterv of the bytes; each rank decodes and returns its own.
  ///
  ///     std::vector<std::string> tasks(world.size(), "work");  // one per rank, read on the root
  ///     std::string mine = world.scatterv(thinmpi::serialized(tasks), 0,
  ///     thinmpi::exchange_counts);
  template <detail::serialized_payload Payload>
  [[nodiscard]] auto scatterv(const Payload& values, int root, exchange_counts_t) const {
    return Payload::scatterv(static_cast<const Comm&>(*this), values, root);
  }

  /// Starts scatter() into `into` (MPI_Iscatter). Named buffers are borrowed and must outlive
  /// the request; an `into` moved in is owned and handed back by wait(). A root `send` with
  /// fewer than size() blocks ends the job, as in scatter().
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
    // The same count on every rank (MPI requires it): an alike check.
    detail::alike_checks(kept->call,
                         [&] { detail::check_int_count(kept->call, in.count, in.type); });
    const detail::const_buffer out = root_blocks(send, kept->call, in);
    detail::agree_if_checked(kept->call);
    MPI_Request handle = MPI_REQUEST_NULL;
    detail::check_collective(MPI_Iscatter(out.data, detail::to_int(in.count), out.type, in.data,
                                          detail::to_int(in.count), in.type, root, comm(), &handle),
                             kept->call, in.count, in.type);
    return collective_request<state>(std::move(kept), handle);
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }

  /// The root's send buffer, checked to hold size() blocks of `in` (fewer end the job: the
  /// other ranks would receive data that is not this call's); nothing on other ranks.
  template <class Send>
  detail::const_buffer root_blocks(const Send& send, const detail::collective_call& call,
                                   const detail::mutable_buffer& in) const {
    if (detail::rank_in(comm()) != *call.root) return {nullptr, 0, in.type};
    const detail::const_buffer out = detail::send_buffer(send);
    const std::size_t needed = in.count * static_cast<std::size_t>(detail::size_of(comm()));
    if (out.count < needed) [[unlikely]] {
      too_few_blocks(call, out.count, out.type, in.count);
    }
    return out;
  }
  /// scatter() from a root with fewer than size() blocks: ends the job (checked: every rank
  /// throws).
  [[noreturn, gnu::cold, gnu::noinline]] static void too_few_blocks(
      const detail::collective_call& call, std::size_t count, MPI_Datatype type,
      std::size_t block) {
    detail::failed_check(call, [&] {
      detail::raise_collective(
          MPI_ERR_COUNT, call, count, type,
          "the root's send buffer of " + detail::describe_elements(count, type) +
              " is smaller than size() blocks of " + detail::counted(block, "element", "elements"));
    });
  }
  /// The root's counts and displacements (`layout` computes and checks them, a loop over the
  /// ranks, out of line) and its `out` against their extent; a failure ends the job.
  template <class Layout>
  static void root_layout_fits(const detail::collective_call& call, const detail::const_buffer& out,
                               Layout&& layout) {
    std::size_t extent = 0;
    const std::exception_ptr error = detail::failure_of([&] { extent = layout().extent; });
    if (error) [[unlikely]] {
      detail::failed_check(call, [error] { std::rethrow_exception(error); });
    }
    if (out.count < extent) [[unlikely]] {
      detail::failed_check(call, [call, out, extent] {
        detail::raise_room(call, out.count, extent, out.type, "send buffer",
                           "the blocks at displs, or the sum of sendcounts");
      });
    }
  }
};

}  // namespace thinmpi
