#pragma once
/// \file
/// scan and exscan: prefix reductions over the ranks in rank order (into a buffer, allocating,
/// in place). Operations as for allreduce (collectives/reduce.hpp).

#include <optional>

#include "thinmpi/concepts.hpp"
#include "thinmpi/detail/buffers.hpp"
#include "thinmpi/detail/collective_call.hpp"
#include "thinmpi/detail/mpi.hpp"
#include "thinmpi/detail/reduction_call.hpp"
#include "thinmpi/ops.hpp"

namespace thinmpi {

/// The prefix reductions of a communicator (comm_view derives from this family).
template <class Comm>
class collective_scan {
 public:
  /// recv on rank r = send of ranks 0..r reduced with op, element-wise (one MPI_Scan). recv
  /// needs room for send's elements (else mpi_error MPI_ERR_BUFFER before MPI is called); a
  /// larger vector or string is shrunk to them.
  ///
  ///     world.scan(mine, prefix, std::plus<>{});
  template <class Send, class Recv, class Op>
  void scan(const Send& send, Recv&& recv, Op op) const {
    detail::require_reduction<Send, Op>();
    detail::require_reduction_target<Send, Recv>();
    detail::reduce_into<&MPI_Scan>({"MPI_Scan", comm()}, send, recv, op);
  }

  /// The inclusive prefix reduction on this rank (one MPI_Scan), of send's type (a vector for
  /// a span or C array).
  ///
  ///     int offset_end = world.scan(my_count, std::plus<>{});
  template <class Send, class Op>
  [[nodiscard]] detail::reduction_result_t<Send> scan(const Send& send, Op op) const {
    detail::require_reduction<Send, Op>();
    auto result =
        detail::make_result<detail::reduction_result_t<Send>>(detail::send_buffer(send).count);
    detail::reduce_into<&MPI_Scan>({"MPI_Scan", comm()}, send, result, op);
    return result;
  }

  /// Replaces buffer with the inclusive prefix reduction (MPI_IN_PLACE, one MPI_Scan).
  template <class Buffer, class Op>
  void scan_in_place(Buffer&& buffer, Op op) const {
    detail::require_reduction<Buffer, Op>();
    detail::require_receivable<Buffer>();
    detail::reduce_in_place<&MPI_Scan>({"MPI_Scan", comm()}, buffer, op);
  }

  /// recv on rank r > 0 = send of ranks 0..r-1 reduced with op (one MPI_Exscan). On rank 0
  /// MPI defines no result: recv's contents there are undefined (the allocating form returns
  /// std::nullopt instead). Sizes checked as for scan.
  template <class Send, class Recv, class Op>
  void exscan(const Send& send, Recv&& recv, Op op) const {
    detail::require_reduction<Send, Op>();
    detail::require_reduction_target<Send, Recv>();
    detail::reduce_into<&MPI_Exscan>({"MPI_Exscan", comm()}, send, recv, op);
  }

  /// The exclusive prefix reduction on this rank, std::nullopt on rank 0 (where MPI defines
  /// none). MPI_Comm_rank (local) and one MPI_Exscan.
  ///
  ///     std::size_t offset = world.exscan(my_count, std::plus<>{}).value_or(0);
  template <class Send, class Op>
  [[nodiscard]] std::optional<detail::reduction_result_t<Send>> exscan(const Send& send,
                                                                       Op op) const {
    detail::require_reduction<Send, Op>();
    auto result =
        detail::make_result<detail::reduction_result_t<Send>>(detail::send_buffer(send).count);
    detail::reduce_into<&MPI_Exscan>({"MPI_Exscan", comm()}, send, result, op);
    if (detail::rank_in(comm()) == 0) return std::nullopt;
    return result;
  }

  /// Replaces buffer with the exclusive prefix reduction (MPI_IN_PLACE, one MPI_Exscan); rank
  /// 0's buffer is undefined afterwards, as MPI says.
  template <class Buffer, class Op>
  void exscan_in_place(Buffer&& buffer, Op op) const {
    detail::require_reduction<Buffer, Op>();
    detail::require_receivable<Buffer>();
    detail::reduce_in_place<&MPI_Exscan>({"MPI_Exscan", comm()}, buffer, op);
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
};

}  // namespace thinmpi
