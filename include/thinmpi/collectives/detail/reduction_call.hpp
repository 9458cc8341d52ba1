#pragma once
/// \file
/// What the reduction families share: the payload checks, the result type of an allocating
/// reduction, the size checks made before MPI is called, and the calls whose arguments are
/// (send, recv, count, datatype, op, comm) (MPI_Allreduce, MPI_Scan, MPI_Exscan). A receive
/// buffer too small is this rank's alone: the rank reduces into scratch, then throws
/// (detail/root_checks.hpp); the count is the same on every rank, and so is its check.

#include <cstddef>
#include <cstdlib>
#include <optional>
#include <ranges>
#include <string>
#include <type_traits>
#include <vector>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/reduction_op.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/comm_queries.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/narrow.hpp"

namespace thinmpi::detail {

/// Fails to compile, with one sentence naming the fix, unless Op can reduce payload Send.
template <class Send, class Op>
consteval void require_reduction() {
  require_sendable<Send>();
  if constexpr (payload<std::remove_cvref_t<Send>>) {
    require_reduction_op<std::remove_cvref_t<Op>, element_t<Send>>();
  }
}

/// Fails to compile unless Send and Recv hold the same element type.
template <class Send, class Recv>
consteval void require_same_elements() {
  if constexpr (payload<std::remove_cvref_t<Send>> && payload<std::remove_cvref_t<Recv>>) {
    static_assert(std::is_same_v<element_t<Send>, element_t<Recv>>,
                  "thinmpi: a reduction's send and receive buffers must hold the same element "
                  "type");
  }
}

/// Fails to compile, with one sentence naming the fix, unless a blocking reduction of Send
/// can write into Recv (a named object or a view).
template <class Send, class Recv>
consteval void require_reduction_target() {
  require_receivable<Recv>();
  require_same_elements<Send, Recv>();
}

/// Fails to compile, with one sentence naming the fix, unless a nonblocking reduction of Send
/// can write into Recv (a named object, borrowed, or a temporary, moved in and handed back).
template <class Send, class Recv>
consteval void require_nonblocking_target() {
  require_writable<Recv>();
  require_same_elements<Send, Recv>();
}

/// Fails to compile, with one sentence naming the fix, unless P is a named buffer: a
/// persistent reduction reads and writes the same buffers on every round.
template <class P>
consteval void require_named_buffer() {
  static_assert(std::is_lvalue_reference_v<P>,
                "thinmpi: a persistent reduction uses the same buffers on every round; pass named "
                "buffers that outlive the request, not temporaries");
}

/// The element count of a reduction as MPI's int; thinmpi's reductions stop at INT_MAX
/// (MPI-3 has no large-count reduction, and a derived datatype cannot carry a predefined op).
/// (The call comes in parts, as to raise_collective_at: collective_call.hpp says why.)
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_too_many(const char* operation,
                                                                  MPI_Comm comm,
                                                                  std::optional<int> root,
                                                                  std::size_t count,
                                                                  MPI_Datatype type) {
  raise_collective(MPI_ERR_COUNT, collective_call{operation, comm, root}, count, type,
                   "thinmpi reduces at most INT_MAX elements in one call; split the reduction");
}
/// A collective reduction's count past INT_MAX: the count is the same on every rank (MPI
/// requires it), an alike check, so the job ends (checked: every rank throws; the callers
/// check the count before agree_if_checked).
[[noreturn, gnu::cold, gnu::noinline]] inline void too_many_fails(const char* operation,
                                                                  MPI_Comm comm,
                                                                  std::optional<int> root,
                                                                  std::size_t count,
                                                                  MPI_Datatype type) {
  alike_checks(collective_call{operation, comm, root},
               [&] { raise_too_many(operation, comm, root, count, type); });
  std::abort();  // the check failed
}

/// The count of a collective reduction as MPI's int (see too_many_fails).
[[nodiscard, gnu::always_inline]] inline int reduction_count(std::size_t count,
                                                             const collective_call& call,
                                                             MPI_Datatype type) {
  if (!fits_int(count)) [[unlikely]] {
    too_many_fails(call.operation, call.comm, call.root, count, type);
  }
  return to_int(count);
}

/// agree_if_checked for a reduction of `count` elements: checked, the count is checked first
/// (reduction_count), so that a count past INT_MAX goes through the agreement; unchecked it is
/// nothing, and the reduction_count in the MPI call's arguments checks it (computing it here
/// instead moved GCC 12's registers: 3 instructions more a reduce).
[[gnu::always_inline]] inline void agree_on_reduction(const collective_call& call,
                                                      std::size_t count, MPI_Datatype type) {
  if constexpr (checked_collectives) {
    static_cast<void>(reduction_count(count, call, type));
  } else {
    static_cast<void>(count);
    static_cast<void>(type);
  }
  agree_if_checked(call, {"counts", count, type});
}

/// Where a reduction of `count` elements writes in `recv`: checks the room before MPI is
/// called and shrinks a larger resizable container to `count`. Too little room is this rank's
/// alone (detail/root_checks.hpp): `too_small(room)`, called on the cold branch only, does the
/// rank's part into scratch and throws MPI_ERR_COUNT (or ends the job where it cannot).
/// Callers mark that lambda `__attribute__((always_inline))`: clang 14 otherwise calls it out
/// of line on the cold branch, and so builds the closure (the call, the payload, the op) on the
/// stack on the hot path too: ten stores and three address computations a call (GCC inlines it
/// either way).
template <class Recv, class TooSmall>
[[nodiscard, gnu::always_inline]] inline void* reduction_target(Recv& recv, std::size_t count,
                                                                TooSmall&& too_small) {
  mutable_buffer out = recv_buffer(recv);
  if (out.count != count) [[unlikely]] {
    if (out.count < count) too_small(out.count);
    if constexpr (resizable_payload<std::remove_cvref_t<Recv>>) {
      recv.resize(count);
      out.data = std::ranges::data(recv);
    }
  }
  return out.data;
}

/// A receive buffer of `room` elements too small for the `count` a reduction leaves on this
/// rank: `into(scratch)` does the rank's part (its own MPI call into scratch), then the rank
/// throws (receive_into_scratch; no_completion: the job ends). A count past INT_MAX enters
/// nothing (reduction_count ends the job, or checked, every rank throws).
template <class Into>
[[noreturn, gnu::cold, gnu::noinline]] void reduction_too_small(const collective_call& call,
                                                                std::size_t room, std::size_t count,
                                                                MPI_Datatype type, const char* why,
                                                                Into into) {
  if constexpr (std::is_same_v<Into, no_completion>) {
    receive_into_scratch(call, room, count, type, why, into);
  } else {
    receive_into_scratch(call, room, count, type, why, [&](void* scratch) {
      return fits_int(count) ? into(scratch, to_int(count)) : MPI_SUCCESS;
    });
  }
}

/// The shape of reduce_all's calls: Call(send, recv, count, type, op, comm).
using reduce_all_function = int(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);

/// reduce_all's recv too small (see reduction_too_small): its arguments in registers, the
/// call's operation and communicator too, so that the hot path only branches here.
template <reduce_all_function* Call>
[[noreturn, gnu::cold, gnu::noinline]] void reduce_all_too_small(const char* operation,
                                                                 MPI_Comm comm, const void* send,
                                                                 std::size_t count,
                                                                 MPI_Datatype type, MPI_Op op,
                                                                 std::size_t room) {
  reduction_too_small(collective_call{operation, comm}, room, count, type, "the reduction's result",
                      [&](void* scratch, int n) { return Call(send, scratch, n, type, op, comm); });
}

/// What an allocating reduction of Send returns: a scalar or std::array as it is, a vector or
/// string of the same type, any other range (span, C array) as a std::vector of its elements.
template <class Send>
struct reduction_result {
  using P = std::remove_cvref_t<Send>;
  using type = std::conditional_t<!contiguous_payload<P> || is_std_array<P>::value ||
                                      (resizable_payload<P> && std::is_default_constructible_v<P>),
                                  P, std::vector<element_t<P>>>;
};
template <class Send>
using reduction_result_t = typename reduction_result<Send>::type;

/// A result of `count` elements, to be written by MPI.
template <class R>
[[nodiscard]] R make_result(std::size_t count) {
  R result{};
  if constexpr (resizable_payload<R>) result.resize(count);
  return result;
}

/// The blocking reduction of send into recv on every rank with Call (allreduce, scan,
/// exscan): the payload checks, then one MPI call.
template <reduce_all_function* Call, class Send, class Recv, class Op>
[[gnu::always_inline]] inline void reduce_all(const collective_call& call, const Send& send,
                                              Recv&& recv, const Op& op) {
  require_reduction<Send, Op>();
  require_reduction_target<Send, Recv>();
  const const_buffer in = send_buffer(send);
  const auto bound = bind_op<element_t<Send>>(op);
  void* const out = reduction_target(
      recv, in.count, [&](std::size_t room) __attribute__((always_inline)) {
        reduce_all_too_small<Call>(call.operation, call.comm, in.data, in.count, in.type,
                                   bound.get(), room);
      });
  agree_on_reduction(call, in.count, in.type);
  check_collective(
      Call(in.data, out, reduction_count(in.count, call, in.type), in.type, bound.get(), call.comm),
      call, in.count, in.type);
}

/// The same into a new result: a value for a scalar, a container of the same kind for a range
/// (a std::vector for a span or C array).
template <reduce_all_function* Call, class Send, class Op>
[[nodiscard]] reduction_result_t<Send> reduce_all_result(const collective_call& call,
                                                         const Send& send, const Op& op) {
  require_reduction<Send, Op>();
  auto result = make_result<reduction_result_t<Send>>(send_buffer(send).count);
  reduce_all<Call>(call, send, result, op);
  return result;
}

/// The same in place (MPI_IN_PLACE): buffer is replaced by the result on every rank.
template <reduce_all_function* Call, class Buffer, class Op>
[[gnu::always_inline]] inline void reduce_all_in_place(const collective_call& call, Buffer&& buffer,
                                                       const Op& op) {
  require_reduction<Buffer, Op>();
  require_receivable<Buffer>();
  const mutable_buffer io = recv_buffer(buffer);
  const auto bound = bind_op<element_t<Buffer>>(op);
  agree_on_reduction(call, io.count, io.type);
  check_collective(Call(MPI_IN_PLACE, io.data, reduction_count(io.count, call, io.type), io.type,
                        bound.get(), call.comm),
                   call, io.count, io.type);
}

}  // namespace thinmpi::detail
