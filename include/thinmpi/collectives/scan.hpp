#pragma once
/// \file
/// scan and exscan: prefix reductions over the ranks in rank order (into a buffer, allocating,
/// in place; blocking, nonblocking `i...` and persistent `..._init`). Operations as for
/// allreduce (collectives/reduce.hpp).

#include <optional>
#include <utility>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/persistent_calls.hpp"
#include "thinmpi/collectives/detail/reduction_call.hpp"
#include "thinmpi/collectives/detail/reduction_request.hpp"
#include "thinmpi/collectives/ops.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/requests/collective_request.hpp"
#include "thinmpi/requests/persistent_request.hpp"

namespace thinmpi {

/// The prefix reductions of a communicator (comm_view derives from this family).
template <class Comm>
class collective_scan {
 public:
  /// recv on rank r = send of ranks 0..r reduced with op, element-wise (one MPI_Scan). recv
  /// needs room for send's elements; a larger vector or string is shrunk to them. A rank whose
  /// recv is too small still takes part, into scratch, then throws mpi_error MPI_ERR_COUNT.
  ///
  ///     std::vector<int> mine(n, 1), prefix(n);
  ///     world.scan(mine, prefix, std::plus<>{});
  template <class Send, class Recv, class Op>
  [[gnu::always_inline]] void scan(const Send& send, Recv&& recv, Op op) const {
    detail::reduce_all<&MPI_Scan>({"MPI_Scan", comm()}, send, std::forward<Recv>(recv), op);
  }

  /// The inclusive prefix reduction on this rank (one MPI_Scan), of send's type (a vector for
  /// a span or C array).
  ///
  ///     int my_count = 3;
  ///     int offset_end = world.scan(my_count, std::plus<>{});
  template <class Send, class Op>
  [[nodiscard]] detail::reduction_result_t<Send> scan(const Send& send, Op op) const {
    return detail::reduce_all_result<&MPI_Scan>({"MPI_Scan", comm()}, send, op);
  }

  /// Replaces buffer with the inclusive prefix reduction (MPI_IN_PLACE, one MPI_Scan).
  template <class Buffer, class Op>
  void scan_in_place(Buffer&& buffer, Op op) const {
    detail::reduce_all_in_place<&MPI_Scan>({"MPI_Scan", comm()}, std::forward<Buffer>(buffer), op);
  }

  /// recv on rank r > 0 = send of ranks 0..r-1 reduced with op (one MPI_Exscan). On rank 0
  /// MPI defines no result: recv's contents there are undefined (the allocating form returns
  /// std::nullopt instead). Sizes checked as for scan.
  template <class Send, class Recv, class Op>
  [[gnu::always_inline]] void exscan(const Send& send, Recv&& recv, Op op) const {
    detail::reduce_all<&MPI_Exscan>({"MPI_Exscan", comm()}, send, std::forward<Recv>(recv), op);
  }

  /// The exclusive prefix reduction on this rank, std::nullopt on rank 0 (where MPI defines
  /// none). MPI_Comm_rank (local) and one MPI_Exscan.
  ///
  ///     std::size_t my_count = 3;
  ///     std::size_t offset = world.exscan(my_count, std::plus<>{}).value_or(0);
  template <class Send, class Op>
  [[nodiscard]] std::optional<detail::reduction_result_t<Send>> exscan(const Send& send,
                                                                       Op op) const {
    auto result = detail::reduce_all_result<&MPI_Exscan>({"MPI_Exscan", comm()}, send, op);
    if (detail::rank_in(comm()) == 0) return std::nullopt;
    return result;
  }

  /// Replaces buffer with the exclusive prefix reduction (MPI_IN_PLACE, one MPI_Exscan); rank
  /// 0's buffer is undefined afterwards, as MPI says.
  template <class Buffer, class Op>
  void exscan_in_place(Buffer&& buffer, Op op) const {
    detail::reduce_all_in_place<&MPI_Exscan>({"MPI_Exscan", comm()}, std::forward<Buffer>(buffer),
                                             op);
  }

  /// Starts a scan into recv (one MPI_Iscan). A named send or recv is borrowed and must
  /// outlive the request; a temporary is moved in, and wait() hands recv back if it was.
  template <class Send, class Recv, class Op>
  [[nodiscard]] auto iscan(Send&& send, Recv&& recv, Op op) const {
    return detail::ireduce_all<&MPI_Iscan>({"MPI_Iscan", comm()}, std::forward<Send>(send),
                                           std::forward<Recv>(recv), std::move(op));
  }

  /// Starts a scan whose result wait() hands back (as scan(send, op) returns it).
  template <class Send, class Op>
  [[nodiscard]] auto iscan(Send&& send, Op op) const {
    return detail::ireduce_all_result<&MPI_Iscan>({"MPI_Iscan", comm()}, std::forward<Send>(send),
                                                  std::move(op));
  }

  /// Starts a scan in place (MPI_IN_PLACE); a buffer moved in is handed back by wait().
  template <class Buffer, class Op>
  [[nodiscard]] auto iscan_in_place(Buffer&& buffer, Op op) const {
    return detail::ireduce_all_in_place<&MPI_Iscan>({"MPI_Iscan", comm()},
                                                    std::forward<Buffer>(buffer), std::move(op));
  }

  /// Starts an exscan into recv (one MPI_Iexscan); rank 0's recv is undefined afterwards.
  template <class Send, class Recv, class Op>
  [[nodiscard]] auto iexscan(Send&& send, Recv&& recv, Op op) const {
    return detail::ireduce_all<&MPI_Iexscan>({"MPI_Iexscan", comm()}, std::forward<Send>(send),
                                             std::forward<Recv>(recv), std::move(op));
  }

  /// Starts an exscan whose wait() hands back the result, std::nullopt on rank 0.
  /// MPI_Comm_rank (local) and one MPI_Iexscan.
  template <class Send, class Op>
  [[nodiscard]] auto iexscan(Send&& send, Op op) const {
    detail::require_reduction<Send, Op>();
    using result_type = detail::reduction_result_t<Send>;
    auto result = detail::make_result<result_type>(detail::send_buffer(send).count);
    const bool first_rank = detail::rank_in(comm()) == 0;
    return detail::start_reduction<collective_request, detail::result_on::some_ranks>(
        {"MPI_Iexscan", comm()}, detail::held(std::forward<Send>(send)),
        detail::held<result_type>(std::move(result)), std::move(op),
        [first_rank](auto& s, MPI_Request* request) {
          s.engaged = !first_rank;
          return detail::post_all<&MPI_Iexscan>{}(s, request);
        });
  }

  /// Starts an exscan in place (MPI_IN_PLACE); rank 0's buffer is undefined afterwards.
  template <class Buffer, class Op>
  [[nodiscard]] auto iexscan_in_place(Buffer&& buffer, Op op) const {
    return detail::ireduce_all_in_place<&MPI_Iexscan>({"MPI_Iexscan", comm()},
                                                      std::forward<Buffer>(buffer), std::move(op));
  }

  /// A persistent scan of send into recv (MPI-4 MPI_Scan_init; Open MPI 4.1: MPIX_Scan_init):
  /// each start() / wait() round reduces send's current contents into recv. Both are borrowed
  /// (named buffers that outlive the request; a temporary does not compile); the op is owned.
  /// Sizes are checked once, here.
  ///
  ///     std::vector<int> counts(n), offsets(n);
  ///     auto prefix = world.scan_init(counts, offsets, std::plus<>{});
  ///     for (int step = 0; step < steps; ++step) {
  ///       update(counts);  prefix.start();  prefix.wait();  use(offsets);
  ///     }
  template <class Send, class Recv, class Op>
  [[nodiscard]] auto scan_init(Send&& send, Recv&& recv, Op op) const {
    return detail::reduce_all_init<detail::persistent_collective::scan>(
        {"MPI_Scan_init", comm()}, std::forward<Send>(send), std::forward<Recv>(recv),
        std::move(op));
  }

  /// A persistent scan in place: each round replaces buffer with the inclusive prefix
  /// reduction of the buffers (MPI_IN_PLACE).
  template <class Buffer, class Op>
  [[nodiscard]] auto scan_in_place_init(Buffer&& buffer, Op op) const {
    return detail::reduce_all_in_place_init<detail::persistent_collective::scan>(
        {"MPI_Scan_init", comm()}, std::forward<Buffer>(buffer), std::move(op));
  }

  /// A persistent exscan of send into recv (MPI_Exscan_init / MPIX_Exscan_init): each round
  /// reduces send's current contents into recv; rank 0's recv is undefined after every round.
  /// Buffers borrowed, sizes checked once, as for scan_init.
  template <class Send, class Recv, class Op>
  [[nodiscard]] auto exscan_init(Send&& send, Recv&& recv, Op op) const {
    return detail::reduce_all_init<detail::persistent_collective::exscan>(
        {"MPI_Exscan_init", comm()}, std::forward<Send>(send), std::forward<Recv>(recv),
        std::move(op));
  }

  /// A persistent exscan in place (MPI_IN_PLACE); rank 0's buffer is undefined after every
  /// round.
  template <class Buffer, class Op>
  [[nodiscard]] auto exscan_in_place_init(Buffer&& buffer, Op op) const {
    return detail::reduce_all_in_place_init<detail::persistent_collective::exscan>(
        {"MPI_Exscan_init", comm()}, std::forward<Buffer>(buffer), std::move(op));
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
};

}  // namespace thinmpi
