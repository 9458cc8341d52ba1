#pragma once
/// \file
/// reduce and allreduce (into a buffer, allocating, in place), and thinmpi::reduce_local.
///
/// The operation is std::plus<>{}, std::multiplies<>{}, std::logical_and<>{}, ...,
/// thinmpi::min, thinmpi::max, thinmpi::minloc, thinmpi::maxloc (MPI's predefined operations,
/// chosen at compile time) or any callable op(const T&, const T&) -> T (a user operation, see
/// detail/user_ops.hpp; non-commutative unless wrapped in thinmpi::commutative).

#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>

#include "thinmpi/concepts.hpp"
#include "thinmpi/detail/buffers.hpp"
#include "thinmpi/detail/collective_call.hpp"
#include "thinmpi/detail/mpi.hpp"
#include "thinmpi/detail/reduction_call.hpp"
#include "thinmpi/detail/reduction_op.hpp"
#include "thinmpi/ops.hpp"

namespace thinmpi {

namespace detail {

/// Where the root's reduction lands in `recv` when its size differs from `count`: checked and
/// shrunk on the root only (another rank's buffer is not used). Only called when the sizes
/// differ, so a matching call makes no MPI_Comm_rank.
template <class Recv>
[[gnu::cold, gnu::noinline]] void* rooted_target(Recv& recv, std::size_t count,
                                                 const collective_call& call, MPI_Datatype type) {
  if (rank_in(call.comm) != *call.root) return recv_buffer(recv).data;
  return reduction_target(recv, count, call, type);
}

}  // namespace detail

/// The reductions to one rank or to all ranks (comm_view derives from this family).
template <class Comm>
class collective_reduce {
 public:
  /// Reduces every rank's send element-wise with op into recv on every rank (one
  /// MPI_Allreduce). recv needs room for send's elements (else thinmpi::mpi_error
  /// MPI_ERR_BUFFER, before MPI is called); a larger vector or string is shrunk to them.
  ///
  ///     world.allreduce(local, totals, std::plus<>{});
  template <class Send, class Recv, class Op>
  void allreduce(const Send& send, Recv&& recv, Op op) const {
    detail::require_reduction<Send, Op>();
    detail::require_reduction_target<Send, Recv>();
    detail::reduce_into<&MPI_Allreduce>({"MPI_Allreduce", comm()}, send, recv, op);
  }

  /// The reduction of every rank's send, on every rank: a value for a scalar, a container of
  /// the same kind for a range (a std::vector for a span or C array). One MPI_Allreduce.
  ///
  ///     double total = world.allreduce(mine, std::plus<>{});
  template <class Send, class Op>
  [[nodiscard]] detail::reduction_result_t<Send> allreduce(const Send& send, Op op) const {
    detail::require_reduction<Send, Op>();
    auto result =
        detail::make_result<detail::reduction_result_t<Send>>(detail::send_buffer(send).count);
    detail::reduce_into<&MPI_Allreduce>({"MPI_Allreduce", comm()}, send, result, op);
    return result;
  }

  /// Replaces buffer on every rank with the reduction of every rank's buffer (MPI_IN_PLACE).
  template <class Buffer, class Op>
  void allreduce_in_place(Buffer&& buffer, Op op) const {
    detail::require_reduction<Buffer, Op>();
    detail::require_receivable<Buffer>();
    detail::reduce_in_place<&MPI_Allreduce>({"MPI_Allreduce", comm()}, buffer, op);
  }

  /// Reduces every rank's send with op into recv on root (one MPI_Reduce); recv is not used
  /// on the other ranks (it may be empty there). On root recv needs room for send's elements
  /// (else mpi_error MPI_ERR_BUFFER before MPI is called); a larger vector is shrunk. An
  /// invalid root is MPI's MPI_ERR_ROOT, naming the root.
  template <class Send, class Recv, class Op>
  void reduce(const Send& send, Recv&& recv, Op op, int root) const {
    detail::require_reduction<Send, Op>();
    detail::require_reduction_target<Send, Recv>();
    const detail::collective_call call{"MPI_Reduce", comm(), root};
    const detail::const_buffer in = detail::send_buffer(send);
    void* out = detail::recv_buffer(recv).data;
    if (detail::recv_buffer(recv).count != in.count) [[unlikely]] {
      out = detail::rooted_target(recv, in.count, call, in.type);
    }
    const auto bound = detail::bind_op<detail::element_t<Send>>(op);
    detail::check_collective(
        MPI_Reduce(in.data, out, detail::reduction_count(in.count, call, in.type), in.type,
                   bound.get(), root, comm()),
        call, in.count, in.type);
  }

  /// The reduction of every rank's send on root, std::nullopt elsewhere. MPI_Comm_rank (local)
  /// and one MPI_Reduce.
  ///
  ///     std::optional<double> total = world.reduce(mine, std::plus<>{}, 0);
  template <class Send, class Op>
  [[nodiscard]] std::optional<detail::reduction_result_t<Send>> reduce(const Send& send, Op op,
                                                                       int root) const {
    detail::require_reduction<Send, Op>();
    using result_type = detail::reduction_result_t<Send>;
    const detail::collective_call call{"MPI_Reduce", comm(), root};
    const detail::const_buffer in = detail::send_buffer(send);
    std::optional<result_type> result;
    void* out = nullptr;
    if (detail::rank_in(comm()) == root) {
      result.emplace(detail::make_result<result_type>(in.count));
      out = detail::recv_buffer(*result).data;
    }
    const auto bound = detail::bind_op<detail::element_t<Send>>(op);
    detail::check_collective(
        MPI_Reduce(in.data, out, detail::reduction_count(in.count, call, in.type), in.type,
                   bound.get(), root, comm()),
        call, in.count, in.type);
    return result;
  }

  /// Reduces every rank's buffer into root's buffer (MPI_IN_PLACE on root); the other ranks'
  /// buffers are only read. MPI_Comm_rank (local) and one MPI_Reduce.
  template <class Buffer, class Op>
  void reduce_in_place(Buffer&& buffer, Op op, int root) const {
    detail::require_reduction<Buffer, Op>();
    detail::require_receivable<Buffer>();
    const detail::collective_call call{"MPI_Reduce", comm(), root};
    const detail::mutable_buffer io = detail::recv_buffer(buffer);
    const void* in = detail::rank_in(comm()) == root ? MPI_IN_PLACE : io.data;
    const auto bound = detail::bind_op<detail::element_t<Buffer>>(op);
    detail::check_collective(
        MPI_Reduce(in, io.data, detail::reduction_count(io.count, call, io.type), io.type,
                   bound.get(), root, comm()),
        call, io.count, io.type);
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
};

/// Reduces in into inout element-wise on this process, inout[i] = op(in[i], inout[i]), with
/// no communication (one MPI_Reduce_local): MPI's own kernel for a predefined operation. The
/// two need the same number of elements, else mpi_error MPI_ERR_COUNT.
///
///     thinmpi::reduce_local(partial, totals, std::plus<>{});
template <class In, class InOut, class Op>
void reduce_local(const In& in, InOut&& inout, Op op) {
  detail::require_reduction<In, Op>();
  detail::require_reduction_target<In, InOut>();
  const detail::collective_call call{"MPI_Reduce_local", MPI_COMM_NULL};
  const detail::const_buffer source = detail::send_buffer(in);
  const detail::mutable_buffer target = detail::recv_buffer(inout);
  if (target.count != source.count) [[unlikely]] {
    detail::raise_collective(MPI_ERR_COUNT, call, source.count, source.type,
                             "inout holds " + std::to_string(target.count) +
                                 " elements, in holds " + std::to_string(source.count) +
                                 "; reduce_local needs the same number in both");
  }
  const auto bound = detail::bind_op<detail::element_t<In>>(op);
  detail::check_collective(
      MPI_Reduce_local(source.data, target.data,
                       detail::reduction_count(source.count, call, source.type), source.type,
                       bound.get()),
      call, source.count, source.type);
}

}  // namespace thinmpi
