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
#include <utility>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/persistent_calls.hpp"
#include "thinmpi/collectives/detail/reduction_call.hpp"
#include "thinmpi/collectives/detail/reduction_op.hpp"
#include "thinmpi/collectives/detail/reduction_request.hpp"
#include "thinmpi/collectives/ops.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/requests/collective_request.hpp"
#include "thinmpi/requests/persistent_request.hpp"

namespace thinmpi {

namespace detail {

/// reduce()'s root buffer too small (see reduction_too_small): the root reduces into scratch,
/// then throws.
[[noreturn, gnu::cold, gnu::noinline]] inline void reduce_root_too_small(
    const collective_call& call, const void* send, std::size_t count, MPI_Datatype type, MPI_Op op,
    std::size_t room) {
  reduction_too_small(call, room, count, type, "the reduction's result", [&](void* scratch, int n) {
    return MPI_Reduce(send, scratch, n, type, op, *call.root, call.comm);
  });
}

/// ireduce()'s part into scratch on a root whose buffer is too small.
template <class State>
[[nodiscard]] auto ireduce_part(State& s, int root) {
  return [&s, root](const void* send, void* scratch, int count, MPI_Request* request) {
    return MPI_Ireduce(send, scratch, count, s.type, s.bound.get(), root, s.call.comm, request);
  };
}

}  // namespace detail

/// The reductions to one rank or to all ranks (comm_view derives from this family).
template <class Comm>
class collective_reduce {
 public:
  /// Reduces every rank's send element-wise with op into recv on every rank (one
  /// MPI_Allreduce). recv needs room for send's elements; a larger vector or string is shrunk
  /// to them. A recv too small on a rank is that rank's alone: it still reduces, into scratch,
  /// then throws mpi_error MPI_ERR_COUNT; the others get their result.
  ///
  ///     std::vector<double> local(n, 1.0), totals(n);
  ///     world.allreduce(local, totals, std::plus<>{});
  template <class Send, class Recv, class Op>
  [[gnu::always_inline]] void allreduce(const Send& send, Recv&& recv, Op op) const {
    detail::reduce_all<&MPI_Allreduce>({"MPI_Allreduce", comm()}, send, std::forward<Recv>(recv),
                                       op);
  }

  /// The reduction of every rank's send, on every rank: a value for a scalar, a container of
  /// the same kind for a range (a std::vector for a span or C array). One MPI_Allreduce.
  ///
  ///     double mine = 0.5 * world.rank();
  ///     double total = world.allreduce(mine, std::plus<>{});
  template <class Send, class Op>
  [[nodiscard, gnu::always_inline]] detail::reduction_result_t<Send> allreduce(const Send& send,
                                                                               Op op) const {
    return detail::reduce_all_result<&MPI_Allreduce>({"MPI_Allreduce", comm()}, send, op);
  }

  /// Replaces buffer on every rank with the reduction of every rank's buffer (MPI_IN_PLACE).
  template <class Buffer, class Op>
  void allreduce_in_place(Buffer&& buffer, Op op) const {
    detail::reduce_all_in_place<&MPI_Allreduce>({"MPI_Allreduce", comm()},
                                                std::forward<Buffer>(buffer), op);
  }

  /// Reduces every rank's send with op into recv on root (one MPI_Reduce); recv is not used
  /// on the other ranks (it may be empty there). On root recv needs room for send's elements;
  /// a larger vector is shrunk. A root recv too small still receives the reduction, into
  /// scratch, then the root throws mpi_error MPI_ERR_COUNT; the other ranks return. An invalid
  /// root is MPI's MPI_ERR_ROOT on every rank, naming the root.
  template <class Send, class Recv, class Op>
  void reduce(const Send& send, Recv&& recv, Op op, int root) const {
    detail::require_reduction<Send, Op>();
    detail::require_reduction_target<Send, Recv>();
    const detail::collective_call call{"MPI_Reduce", comm(), root};
    const detail::const_buffer in = detail::send_buffer(send);
    const auto bound = detail::bind_op<detail::element_t<Send>>(op);
    void* out = detail::root_target(
        recv, in.count, call, [&](std::size_t room) __attribute__((always_inline)) {
          detail::reduce_root_too_small(call, in.data, in.count, in.type, bound.get(), room);
        });
    detail::agree_on_reduction(call, in.count, in.type);
    detail::check_collective(
        MPI_Reduce(in.data, out, detail::reduction_count(in.count, call, in.type), in.type,
                   bound.get(), root, comm()),
        call, in.count, in.type);
  }

  /// The reduction of every rank's send on root, std::nullopt elsewhere. MPI_Comm_rank (local)
  /// and one MPI_Reduce.
  ///
  ///     double mine = 0.5 * world.rank();
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
    detail::agree_on_reduction(call, in.count, in.type);  // checked: as every form does
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
    detail::agree_on_reduction(call, io.count, io.type);
    detail::check_collective(
        MPI_Reduce(in, io.data, detail::reduction_count(io.count, call, io.type), io.type,
                   bound.get(), root, comm()),
        call, io.count, io.type);
  }

  /// Starts an allreduce into recv (one MPI_Iallreduce). A named send or recv is borrowed and
  /// must outlive the request; a temporary is moved in, and wait() hands recv back if it was.
  /// The operation (with its captured state) is owned by the request. Sizes as for allreduce.
  ///
  ///     auto op = [](double a, double b) { return a > b ? a : b; };  // a user operation
  ///     auto r = world.iallreduce(std::vector<double>(n, 1.0), std::vector<double>(n), op);
  ///     std::vector<double> sums = r.wait();
  template <class Send, class Recv, class Op>
  [[nodiscard]] auto iallreduce(Send&& send, Recv&& recv, Op op) const {
    return detail::ireduce_all<&MPI_Iallreduce>({"MPI_Iallreduce", comm()},
                                                std::forward<Send>(send), std::forward<Recv>(recv),
                                                std::move(op));
  }

  /// Starts an allreduce whose result wait() hands back (as allreduce(send, op) returns it).
  ///
  ///     std::vector<double> local(n, 1.0);
  ///     auto r = world.iallreduce(local, std::plus<>{});  // ... overlap work ...
  ///     std::vector<double> totals = r.wait();
  template <class Send, class Op>
  [[nodiscard]] auto iallreduce(Send&& send, Op op) const {
    return detail::ireduce_all_result<&MPI_Iallreduce>({"MPI_Iallreduce", comm()},
                                                       std::forward<Send>(send), std::move(op));
  }

  /// Starts an allreduce in place (MPI_IN_PLACE); a buffer moved in is handed back by wait().
  template <class Buffer, class Op>
  [[nodiscard]] auto iallreduce_in_place(Buffer&& buffer, Op op) const {
    return detail::ireduce_all_in_place<&MPI_Iallreduce>(
        {"MPI_Iallreduce", comm()}, std::forward<Buffer>(buffer), std::move(op));
  }

  /// Starts a reduce to root into recv (one MPI_Ireduce); buffers held as for iallreduce, sizes
  /// checked as for reduce.
  template <class Send, class Recv, class Op>
  [[nodiscard]] auto ireduce(Send&& send, Recv&& recv, Op op, int root) const {
    detail::require_nonblocking_reduction<Send, Recv, Op>();
    return detail::start_reduction(
        {"MPI_Ireduce", comm(), root}, detail::held(std::forward<Send>(send)),
        detail::held(std::forward<Recv>(recv)), std::move(op),
        [root](auto& s, MPI_Request* request) {
          const detail::reduction_args a =
              detail::rooted_buffers(s, true, detail::ireduce_part(s, root));
          return MPI_Ireduce(a.in, a.out, a.count, a.type, s.bound.get(), root, s.call.comm,
                             request);
        });
  }

  /// Starts a reduce to root whose wait() hands back the result on root, std::nullopt
  /// elsewhere. MPI_Comm_rank (local) and one MPI_Ireduce.
  template <class Send, class Op>
  [[nodiscard]] auto ireduce(Send&& send, Op op, int root) const {
    detail::require_reduction<Send, Op>();
    using result_type = detail::reduction_result_t<Send>;
    const bool is_root = detail::rank_in(comm()) == root;
    auto result = detail::make_result<result_type>(is_root ? detail::send_buffer(send).count : 0);
    return detail::start_reduction<collective_request, detail::result_on::some_ranks>(
        {"MPI_Ireduce", comm(), root}, detail::held(std::forward<Send>(send)),
        detail::held<result_type>(std::move(result)), std::move(op),
        [root, is_root](auto& s, MPI_Request* request) {
          const detail::reduction_args a =
              detail::rooted_buffers(s, is_root, detail::ireduce_part(s, root));
          return MPI_Ireduce(a.in, is_root ? a.out : nullptr, a.count, a.type, s.bound.get(), root,
                             s.call.comm, request);
        });
  }

  /// Starts a reduce into root's buffer in place (MPI_IN_PLACE on root). MPI_Comm_rank (local)
  /// and one MPI_Ireduce.
  template <class Buffer, class Op>
  [[nodiscard]] auto ireduce_in_place(Buffer&& buffer, Op op, int root) const {
    detail::require_reduction<Buffer, Op>();
    detail::require_writable<Buffer>();
    const bool is_root = detail::rank_in(comm()) == root;
    return detail::start_reduction({"MPI_Ireduce", comm(), root}, detail::no_send{},
                                   detail::held(std::forward<Buffer>(buffer)), std::move(op),
                                   [root, is_root](auto& s, MPI_Request* request) {
                                     const detail::reduction_args a = detail::rooted_buffers(
                                         s, is_root, detail::ireduce_part(s, root));
                                     return MPI_Ireduce(a.in, a.out, a.count, a.type, s.bound.get(),
                                                        root, s.call.comm, request);
                                   });
  }

  /// A persistent allreduce of send into recv (MPI-4 MPI_Allreduce_init; Open MPI 4.1:
  /// MPIX_Allreduce_init): each start() / wait() round reduces send's current contents into
  /// recv. Both are borrowed (named buffers that outlive the request); the op is owned. Sizes
  /// are checked once, here.
  ///
  ///     std::vector<double> local(n), totals(n);
  ///     auto sum = world.allreduce_init(local, totals, std::plus<>{});
  ///     for (int step = 0; step < steps; ++step) {
  ///       update(local);  sum.start();  sum.wait();  use(totals);
  ///     }
  template <class Send, class Recv, class Op>
  [[nodiscard]] auto allreduce_init(Send&& send, Recv&& recv, Op op) const {
    return detail::reduce_all_init<detail::persistent_collective::allreduce>(
        {"MPI_Allreduce_init", comm()}, std::forward<Send>(send), std::forward<Recv>(recv),
        std::move(op));
  }

  /// A persistent allreduce in place: each round replaces buffer with the reduction of every
  /// rank's buffer (MPI_IN_PLACE).
  template <class Buffer, class Op>
  [[nodiscard]] auto allreduce_in_place_init(Buffer&& buffer, Op op) const {
    return detail::reduce_all_in_place_init<detail::persistent_collective::allreduce>(
        {"MPI_Allreduce_init", comm()}, std::forward<Buffer>(buffer), std::move(op));
  }

  /// A persistent reduce to root (MPI_Reduce_init / MPIX_Reduce_init): each round reduces
  /// send's current contents into recv on root. Buffers borrowed, sizes checked once, as for
  /// reduce; a root recv too small ends the job (the others would start rounds alone).
  template <class Send, class Recv, class Op>
  [[nodiscard]] auto reduce_init(Send&& send, Recv&& recv, Op op, int root) const {
    detail::require_persistent_reduction<Send, Recv, Op>();
    return detail::start_reduction<persistent_request>(
        {"MPI_Reduce_init", comm(), root}, detail::held(send), detail::held(recv), std::move(op),
        [root](auto& s, MPI_Request* request) {
          const detail::reduction_args a = detail::rooted_buffers(s, true, detail::no_completion{});
          return detail::persistent_call<detail::persistent_collective::reduce>(
              a.in, a.out, a.count, a.type, s.bound.get(), root, s.call.comm, MPI_INFO_NULL,
              request);
        });
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
};

/// Reduces in into inout element-wise on this process, inout[i] = op(in[i], inout[i]), with
/// no communication (one MPI_Reduce_local): MPI's own kernel for a predefined operation. The
/// two need the same number of elements, else mpi_error MPI_ERR_COUNT.
///
///     std::vector<double> partial(n, 1.0), totals(n);
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
                             "inout holds " + detail::counted(target.count, "element", "elements") +
                                 ", in holds " + std::to_string(source.count) +
                                 "; reduce_local needs the same number in both");
  }
  // Not reduction_count: no other rank takes part, so a count past INT_MAX throws here.
  if (!detail::fits_int(source.count)) [[unlikely]] {
    detail::raise_too_many(call.operation, call.comm, call.root, source.count, source.type);
  }
  const auto bound = detail::bind_op<detail::element_t<In>>(op);
  detail::check_collective(MPI_Reduce_local(source.data, target.data, detail::to_int(source.count),
                                            source.type, bound.get()),
                           call, source.count, source.type);
}

}  // namespace thinmpi
