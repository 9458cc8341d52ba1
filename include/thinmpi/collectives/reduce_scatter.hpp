#pragma once
/// \file
/// reduce_scatter_block and reduce_scatter: an element-wise reduction whose result is split
/// among the ranks, in equal blocks or by counts (blocking, nonblocking `i...` and persistent
/// `..._init`). Operations as for allreduce (collectives/reduce.hpp).

#include <cstddef>
#include <cstdlib>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/persistent_calls.hpp"
#include "thinmpi/collectives/detail/reduction_call.hpp"
#include "thinmpi/collectives/detail/reduction_request.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/collectives/ops.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/requests/collective_request.hpp"
#include "thinmpi/requests/persistent_request.hpp"

namespace thinmpi {

namespace detail {

/// The block each rank receives of a reduce_scatter_block of `count` elements (the same on
/// every rank, as MPI requires, and so is this check); mpi_error MPI_ERR_COUNT unless count
/// splits evenly.
[[nodiscard]] inline std::size_t block_of(std::size_t count, int ranks, const collective_call& call,
                                          MPI_Datatype type) {
  std::size_t block = 0;
  alike_checks(call, [&] {
    block = equal_blocks(call, count, type, static_cast<std::size_t>(ranks), "send buffer");
  });
  return block;
}

/// The error of reduce_scatter counts that do not add up to what is sent.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_counts_sum(const collective_call& call,
                                                                    std::size_t total,
                                                                    std::size_t sent,
                                                                    MPI_Datatype type) {
  raise_collective(MPI_ERR_COUNT, call, sent, type,
                   "the counts add up to " + counted(total, "element", "elements") + ", but " +
                       std::to_string(sent) + (sent == 1 ? " is" : " are") +
                       " sent; they must be equal");
}

/// Checks the counts of a reduce_scatter against the communicator (one per rank, none
/// negative: the checks of every v-collective, detail/displacements.hpp) and the send buffer
/// (their sum), before MPI is called, and returns this rank's count. The counts and the send
/// count are the same on every rank (MPI requires it), and so are these checks. Always inlined:
/// clang 14 stopped inlining it once alike_checks had its handler (14 instructions a call).
[[nodiscard, gnu::always_inline]] inline std::size_t scatter_count(std::span<const int> counts,
                                                                   std::size_t sent,
                                                                   const collective_call& call,
                                                                   MPI_Datatype type) {
  alike_checks(call, [&] {
    const std::size_t total = counts_total(call, counts, size_of(call.comm), "recvcounts");
    if (total != sent) [[unlikely]] {
      raise_counts_sum(call, total, sent, type);
    }
  });
  return static_cast<std::size_t>(counts[static_cast<std::size_t>(rank_in(call.comm))]);
}

/// A nonblocking or persistent reduce_scatter_block's buffers, checked (count: the block);
/// sets the state's count and type for its error report. A recv too small: `into` as for
/// all_args (detail/reduction_request.hpp).
template <class State, class Into>
[[nodiscard]] reduction_args block_args(State& s, int ranks, Into into) {
  const const_buffer in = send_buffer(s.send.get());
  s.count = in.count;
  s.type = in.type;
  const std::size_t block = block_of(in.count, ranks, s.call, in.type);
  void* out = reduction_target(
      s.recv.get(), block, [&](std::size_t room) __attribute__((always_inline)) {
        reduction_too_small(s.call, room, block, in.type, "this rank's block of the result",
                            scratch_part(into, in.data));
      });
  const int count = reduction_count(block, s.call, in.type);
  agree_if_checked(s.call);
  return {in.data, out, count, in.type};
}

/// A nonblocking or persistent reduce_scatter's buffers, checked against counts, which the
/// state keeps (MPI reads them until the request is freed); MPI takes s.counts.data(), not
/// the returned count (the whole send, checked to fit an int).
template <class State, class Into>
[[nodiscard]] reduction_args scatter_args(State& s, std::span<const int> counts, Into into) {
  const const_buffer in = send_buffer(s.send.get());
  s.count = in.count;
  s.type = in.type;
  const std::size_t mine = scatter_count(counts, in.count, s.call, in.type);
  s.counts.assign(counts.begin(), counts.end());
  void* out = reduction_target(
      s.recv.get(), mine, [&](std::size_t room) __attribute__((always_inline)) {
        reduction_too_small(s.call, room, mine, in.type, "recvcounts[rank]",
                            scratch_part(into, in.data));
      });
  const int count = reduction_count(in.count, s.call, in.type);
  agree_if_checked(s.call);
  return {in.data, out, count, in.type};
}

}  // namespace detail

/// The reductions whose result is scattered (comm_view derives from this family).
template <class Comm>
class collective_reduce_scatter {
 public:
  /// Reduces every rank's send element-wise and gives rank r block r of the result, each
  /// block send.size() / ranks elements: MPI_Comm_size (local) and one
  /// MPI_Reduce_scatter_block. send must split evenly (else mpi_error MPI_ERR_COUNT on every
  /// rank, before MPI is called) and recv hold a block (a rank whose recv is too small takes
  /// part into scratch, then throws MPI_ERR_COUNT); a larger vector is shrunk to the block.
  template <class Send, class Recv, class Op>
  [[gnu::always_inline]] void reduce_scatter_block(const Send& send, Recv&& recv, Op op) const {
    detail::require_reduction<Send, Op>();
    detail::require_reduction_target<Send, Recv>();
    const detail::collective_call call{"MPI_Reduce_scatter_block", comm()};
    const detail::const_buffer in = detail::send_buffer(send);
    // Scalars only on the hot path: the division is the equal-blocks check; its failing branch
    // and the receive room's rebuild their context out of line.
    const auto ranks = static_cast<std::size_t>(detail::size_of(call.comm));
    const std::size_t block = in.count / ranks;
    if (in.count % ranks != 0) [[unlikely]] {
      uneven(call.comm, in.count, ranks, in.type);
    }
    const auto bound = detail::bind_op<detail::element_t<Send>>(op);
    void* out = detail::reduction_target(
        recv, block, [&](std::size_t room) __attribute__((always_inline)) {
          block_too_small(call.comm, in.data, in.type, bound.get(), block, room);
        });
    detail::agree_on_reduction(call, block, in.type);
    detail::check_collective(
        MPI_Reduce_scatter_block(in.data, out, detail::reduction_count(block, call, in.type),
                                 in.type, bound.get(), comm()),
        call, in.count, in.type);
  }

  /// This rank's block of the reduction, as a std::vector (see above).
  ///
  ///     std::vector<double> all_parts(n * world.size(), 1.0);  // n for each rank
  ///     std::vector<double> mine = world.reduce_scatter_block(all_parts, std::plus<>{});
  template <class Send, class Op>
  [[nodiscard]] std::vector<detail::element_t<Send>> reduce_scatter_block(const Send& send,
                                                                          Op op) const {
    std::vector<detail::element_t<Send>> result;
    const std::size_t count = detail::send_buffer(send).count;
    const int ranks = detail::size_of(comm());
    if (count % static_cast<std::size_t>(ranks) == 0) {
      result.resize(count / static_cast<std::size_t>(ranks));
    }
    reduce_scatter_block(send, result, op);
    return result;
  }

  /// The reduction of every rank's buffer, rank r's block left at the start of its buffer
  /// (MPI_IN_PLACE); a vector or string is shrunk to the block. MPI_Comm_size (local) and one
  /// MPI_Reduce_scatter_block.
  template <class Buffer, class Op>
  void reduce_scatter_block_in_place(Buffer&& buffer, Op op) const {
    detail::require_reduction<Buffer, Op>();
    detail::require_receivable<Buffer>();
    const detail::collective_call call{"MPI_Reduce_scatter_block", comm()};
    const detail::mutable_buffer io = detail::recv_buffer(buffer);
    const std::size_t block = detail::block_of(io.count, detail::size_of(comm()), call, io.type);
    const auto bound = detail::bind_op<detail::element_t<Buffer>>(op);
    detail::agree_on_reduction(call, block, io.type);
    detail::check_collective(MPI_Reduce_scatter_block(MPI_IN_PLACE, io.data,
                                                      detail::reduction_count(block, call, io.type),
                                                      io.type, bound.get(), comm()),
                             call, io.count, io.type);
    if constexpr (resizable_payload<std::remove_cvref_t<Buffer>>) buffer.resize(block);
  }

  /// Reduces every rank's send element-wise and gives rank r the counts[r] elements after
  /// those of the ranks before it (one MPI_Reduce_scatter, after local MPI_Comm_size and
  /// MPI_Comm_rank). counts must have one entry per rank, none negative (else mpi_error
  /// MPI_ERR_ARG), adding up to send.size() (else MPI_ERR_COUNT), checked on every rank before
  /// MPI is called; recv needs room for counts[rank] (a rank whose recv is too small takes part
  /// into scratch, then throws MPI_ERR_COUNT); a larger vector is shrunk.
  template <class Send, class Recv, class Op>
  void reduce_scatter(const Send& send, Recv&& recv, std::span<const int> counts, Op op) const {
    detail::require_reduction<Send, Op>();
    detail::require_reduction_target<Send, Recv>();
    const detail::collective_call call{"MPI_Reduce_scatter", comm()};
    const detail::const_buffer in = detail::send_buffer(send);
    const std::size_t mine = detail::scatter_count(counts, in.count, call, in.type);
    static_cast<void>(detail::reduction_count(in.count, call, in.type));
    const auto bound = detail::bind_op<detail::element_t<Send>>(op);
    void* out = detail::reduction_target(
        recv, mine, [&](std::size_t room) __attribute__((always_inline)) {
          counts_too_small(call, in, counts, bound.get(), mine, room);
        });
    detail::agree_if_checked(call);
    detail::check_collective(
        MPI_Reduce_scatter(in.data, out, counts.data(), in.type, bound.get(), comm()), call,
        in.count, in.type);
  }

  /// This rank's counts[rank] elements of the reduction, as a std::vector (see above).
  template <class Send, class Op>
  [[nodiscard]] std::vector<detail::element_t<Send>> reduce_scatter(const Send& send,
                                                                    std::span<const int> counts,
                                                                    Op op) const {
    std::vector<detail::element_t<Send>> result(share_of(counts));
    reduce_scatter(send, result, counts, op);
    return result;
  }

  /// Starts a reduce_scatter_block into recv (MPI_Comm_size, local, and one
  /// MPI_Ireduce_scatter_block). A named send or recv is borrowed and must outlive the request;
  /// a temporary is moved in, and wait() hands recv back if it was. Sizes checked as for
  /// reduce_scatter_block, before MPI is called.
  template <class Send, class Recv, class Op>
  [[nodiscard]] auto ireduce_scatter_block(Send&& send, Recv&& recv, Op op) const {
    detail::require_nonblocking_reduction<Send, Recv, Op>();
    const int ranks = detail::size_of(comm());
    return detail::start_reduction(
        {"MPI_Ireduce_scatter_block", comm()}, detail::held(std::forward<Send>(send)),
        detail::held(std::forward<Recv>(recv)), std::move(op),
        [ranks](auto& s, MPI_Request* request) {
          const detail::reduction_args a = detail::block_args(
              s, ranks, [&s](const void* in, void* scratch, int count, MPI_Request* r) {
                return MPI_Ireduce_scatter_block(in, scratch, count, s.type, s.bound.get(),
                                                 s.call.comm, r);
              });
          return MPI_Ireduce_scatter_block(a.in, a.out, a.count, a.type, s.bound.get(), s.call.comm,
                                           request);
        });
  }

  /// Starts a reduce_scatter_block whose wait() hands back this rank's block as a
  /// std::vector.
  template <class Send, class Op>
  [[nodiscard]] auto ireduce_scatter_block(Send&& send, Op op) const {
    const std::size_t count = detail::send_buffer(send).count;
    const auto ranks = static_cast<std::size_t>(detail::size_of(comm()));
    std::vector<detail::element_t<Send>> result(count % ranks == 0 ? count / ranks : 0);
    return ireduce_scatter_block(std::forward<Send>(send), std::move(result), std::move(op));
  }

  /// Starts a reduce_scatter with counts into recv (local MPI_Comm_size and MPI_Comm_rank,
  /// one MPI_Ireduce_scatter); the request keeps a copy of counts. Buffers held as for
  /// ireduce_scatter_block, sizes checked as for reduce_scatter, before MPI is called.
  template <class Send, class Recv, class Op>
  [[nodiscard]] auto ireduce_scatter(Send&& send, Recv&& recv, std::span<const int> counts,
                                     Op op) const {
    detail::require_nonblocking_reduction<Send, Recv, Op>();
    return detail::start_reduction(
        {"MPI_Ireduce_scatter", comm()}, detail::held(std::forward<Send>(send)),
        detail::held(std::forward<Recv>(recv)), std::move(op),
        [counts](auto& s, MPI_Request* request) {
          const detail::reduction_args a = detail::scatter_args(
              s, counts, [&s](const void* in, void* scratch, int, MPI_Request* r) {
                return MPI_Ireduce_scatter(in, scratch, s.counts.data(), s.type, s.bound.get(),
                                           s.call.comm, r);
              });
          return MPI_Ireduce_scatter(a.in, a.out, s.counts.data(), a.type, s.bound.get(),
                                     s.call.comm, request);
        });
  }

  /// Starts a reduce_scatter with counts whose wait() hands back this rank's counts[rank]
  /// elements as a std::vector.
  template <class Send, class Op>
  [[nodiscard]] auto ireduce_scatter(Send&& send, std::span<const int> counts, Op op) const {
    std::vector<detail::element_t<Send>> result(share_of(counts));
    return ireduce_scatter(std::forward<Send>(send), std::move(result), counts, std::move(op));
  }

  /// A persistent reduce_scatter_block of send into recv (MPI-4 MPI_Reduce_scatter_block_init;
  /// Open MPI 4.1: MPIX_Reduce_scatter_block_init; MPI_Comm_size, local, first): each start()
  /// / wait() round reduces send's current contents and leaves this rank's block in recv. Both
  /// are borrowed (named buffers that outlive the request; a temporary does not compile); the
  /// op is owned. Sizes are checked once, here, as for reduce_scatter_block.
  template <class Send, class Recv, class Op>
  [[nodiscard]] auto reduce_scatter_block_init(Send&& send, Recv&& recv, Op op) const {
    detail::require_persistent_reduction<Send, Recv, Op>();
    const int ranks = detail::size_of(comm());
    return detail::start_reduction<persistent_request>(
        {"MPI_Reduce_scatter_block_init", comm()}, detail::held(send), detail::held(recv),
        std::move(op), [ranks](auto& s, MPI_Request* request) {
          const detail::reduction_args a = detail::block_args(s, ranks, detail::no_completion{});
          return detail::persistent_call<detail::persistent_collective::reduce_scatter_block>(
              a.in, a.out, a.count, a.type, s.bound.get(), s.call.comm, MPI_INFO_NULL, request);
        });
  }

  /// A persistent reduce_scatter with counts (MPI_Reduce_scatter_init /
  /// MPIX_Reduce_scatter_init; MPI_Comm_size and MPI_Comm_rank, local, first): each round
  /// leaves this rank's counts[rank] elements of the reduction of send's current contents in
  /// recv. The request keeps its own copy of counts; buffers borrowed and sizes checked once,
  /// as for reduce_scatter_block_init.
  template <class Send, class Recv, class Op>
  [[nodiscard]] auto reduce_scatter_init(Send&& send, Recv&& recv, std::span<const int> counts,
                                         Op op) const {
    detail::require_persistent_reduction<Send, Recv, Op>();
    return detail::start_reduction<persistent_request>(
        {"MPI_Reduce_scatter_init", comm()}, detail::held(send), detail::held(recv), std::move(op),
        [counts](auto& s, MPI_Request* request) {
          const detail::reduction_args a = detail::scatter_args(s, counts, detail::no_completion{});
          return detail::persistent_call<detail::persistent_collective::reduce_scatter>(
              a.in, a.out, s.counts.data(), a.type, s.bound.get(), s.call.comm, MPI_INFO_NULL,
              request);
        });
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
  /// reduce_scatter_block()'s recv too small for the block: this rank reduces into scratch,
  /// then throws (detail::reduction_too_small).
  /// reduce_scatter_block()'s send count that does not split into equal blocks: block_of's
  /// error (the same on every rank).
  [[noreturn, gnu::cold, gnu::noinline]] static void uneven(MPI_Comm comm, std::size_t count,
                                                            std::size_t ranks, MPI_Datatype type) {
    static_cast<void>(
        detail::block_of(count, static_cast<int>(ranks), {"MPI_Reduce_scatter_block", comm}, type));
    std::abort();  // the check failed
  }
  /// reduce_scatter_block()'s recv too small for its block (its parts as scalars: a
  /// const_buffer by value would be passed in memory, stored on the hot path).
  [[noreturn, gnu::cold, gnu::noinline]] static void block_too_small(MPI_Comm comm,
                                                                     const void* data,
                                                                     MPI_Datatype type, MPI_Op op,
                                                                     std::size_t block,
                                                                     std::size_t room) {
    const detail::collective_call call{"MPI_Reduce_scatter_block", comm};
    detail::reduction_too_small(call, room, block, type, "this rank's block of the result",
                                [&](void* scratch, int n) {
                                  return MPI_Reduce_scatter_block(data, scratch, n, type, op, comm);
                                });
  }
  /// reduce_scatter()'s recv too small for counts[rank]: the same.
  [[noreturn, gnu::cold, gnu::noinline]] static void counts_too_small(
      const detail::collective_call& call, const detail::const_buffer& in,
      std::span<const int> counts, MPI_Op op, std::size_t mine, std::size_t room) {
    detail::reduction_too_small(
        call, room, mine, in.type, "recvcounts[rank]", [&](void* scratch, int) {
          return MPI_Reduce_scatter(in.data, scratch, counts.data(), in.type, op, call.comm);
        });
  }
  /// The size of this rank's result for counts: counts[rank], or 0 where counts are wrong
  /// (the call then reports them, before MPI is called).
  [[nodiscard]] std::size_t share_of(std::span<const int> counts) const {
    const auto rank = static_cast<std::size_t>(detail::rank_in(comm()));
    return rank < counts.size() && counts[rank] > 0 ? static_cast<std::size_t>(counts[rank]) : 0;
  }
};

}  // namespace thinmpi
