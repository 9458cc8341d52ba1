#pragma once
/// \file
/// The State of a nonblocking or persistent reduction (collective_request, persistent_request):
/// one heap block that owns what MPI reads or writes until completion: the buffers moved in
/// (a named buffer is borrowed, by address), the operation with its captured state, and the
/// operation's MPI_Op or trampoline slot (released when the block is destroyed, after MPI has
/// completed).

#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/persistent_calls.hpp"
#include "thinmpi/collectives/detail/reduction_call.hpp"
#include "thinmpi/collectives/detail/reduction_op.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/held.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/requests/collective_request.hpp"
#include "thinmpi/requests/persistent_request.hpp"

namespace thinmpi::detail {

/// The send side of an in-place reduction: nothing.
struct no_send {};

/// Whether take() hands back the result or, for a result only some ranks get (reduce's root,
/// exscan's ranks after 0), a std::optional of it.
enum class result_on { every_rank, some_ranks };

/// What a nonblocking or persistent reduction owns.
template <class Element, class Op, class Send, class Recv, result_on Result>
struct reduction_state {
  reduction_state(Send sent, Recv received, Op operation, const collective_call& context)
      : send(std::move(sent)),
        recv(std::move(received)),
        op(std::move(operation)),
        bound(bind_op<Element>(op)),
        call(context) {}
  reduction_state(const reduction_state&) = delete;
  reduction_state& operator=(const reduction_state&) = delete;

  Send send;
  Recv recv;
  Op op;
  bound_op_t<Element, Op> bound;  ///< points at op: declared after it
  collective_call call;
  std::size_t count = 0;  ///< for the error report
  MPI_Datatype type = MPI_DATATYPE_NULL;
  bool engaged = true;      ///< this rank gets a result (result_on::some_ranks)
  std::vector<int> counts;  ///< reduce_scatter's counts, which MPI reads until completion

  [[noreturn]] void raise(int rc) const { raise_collective(rc, call, count, type); }
  auto take() {
    if constexpr (Result == result_on::some_ranks) {
      using value = decltype(recv.take());
      return engaged ? std::optional<value>(recv.take()) : std::nullopt;
    } else {
      return recv.take();
    }
  }
};

/// Builds the state and posts the MPI call, post(state, &handle) -> rc, returning a Request
/// (collective_request, or persistent_request for an `_init` call).
template <template <class> class Request = collective_request,
          result_on Result = result_on::every_rank, class Send, class Recv, class Op, class Post>
[[nodiscard]] auto start_reduction(const collective_call& call, Send send, Recv recv, Op op,
                                   Post post) {
  using element = element_t<decltype(recv.get())>;
  using state_type = reduction_state<element, Op, Send, Recv, Result>;
  auto state = std::make_unique<state_type>(std::move(send), std::move(recv), std::move(op), call);
  MPI_Request handle = MPI_REQUEST_NULL;
  if (const int rc = post(*state, &handle); rc != MPI_SUCCESS) [[unlikely]] {
    state->raise(rc);
  }
  return Request<state_type>(std::move(state), handle);
}

/// The buffers, count and datatype of one reduction call, as MPI takes them.
struct reduction_args {
  const void* in;
  void* out;
  int count;
  MPI_Datatype type;
};

/// The part of a nonblocking reduction a rank whose receive buffer failed a check still does:
/// Call(send, scratch, ...) posted, then waited for (the others complete with their data).
template <class Post>
[[nodiscard]] auto scratch_part(Post post, const void* send) {
  if constexpr (std::is_same_v<Post, no_completion>) {
    static_cast<void>(send);
    return no_completion{};
  } else {
    return [post, send](void* scratch, int count) {
      MPI_Request request = MPI_REQUEST_NULL;
      int rc = post(send, scratch, count, &request);
      if (rc == MPI_SUCCESS) rc = MPI_Wait(&request, MPI_STATUS_IGNORE);
      return rc;
    };
  }
}

/// A reduction whose result has send's size on every rank (allreduce, scan, exscan): send (or
/// MPI_IN_PLACE) and recv, checked; sets the state's count and type for its error report. A
/// recv too small is this rank's alone: `into(scratch, count)` does the rank's part (a
/// nonblocking call posts into scratch and waits), no_completion ends the job (a persistent
/// call); then the rank throws. Checked: the ranks agree here, at post or init time.
template <class State, class Into>
[[nodiscard]] reduction_args all_args(State& s, Into into) {
  if constexpr (std::is_same_v<decltype(s.send), no_send>) {
    const mutable_buffer io = recv_buffer(s.recv.get());
    s.count = io.count;
    s.type = io.type;
    const int count = reduction_count(io.count, s.call, io.type);
    agree_if_checked(s.call);
    return {MPI_IN_PLACE, io.data, count, io.type};
  } else {
    const const_buffer in = send_buffer(s.send.get());
    s.count = in.count;
    s.type = in.type;
    void* out = reduction_target(
        s.recv.get(), in.count, [&](std::size_t room) __attribute__((always_inline)) {
          reduction_too_small(s.call, room, in.count, in.type, "the reduction's result",
                              scratch_part(into, in.data));
        });
    const int count = reduction_count(in.count, s.call, in.type);
    agree_if_checked(s.call);
    return {in.data, out, count, in.type};
  }
}

/// The nonblocking calls of one shape: Call(send, recv, count, type, op, comm, request).
using ireduce_all_function = int(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm,
                                 MPI_Request*);

/// Posts Call for a state: reduces send (or recv in place) into recv on every rank.
template <ireduce_all_function* Call>
struct post_all {
  template <class State>
  int operator()(State& s, MPI_Request* request) const {
    const reduction_args a =
        all_args(s, [&s](const void* send, void* scratch, int count, MPI_Request* r) {
          return Call(send, scratch, count, s.type, s.bound.get(), s.call.comm, r);
        });
    return Call(a.in, a.out, a.count, a.type, s.bound.get(), s.call.comm, request);
  }
};

/// Sets up the persistent call of the same shape for a state (MPI_Allreduce_init,
/// MPI_Scan_init, ...: detail/persistent_calls.hpp), MPI-4's info argument added. A recv too
/// small ends the job: the others would start their rounds alone.
template <persistent_collective Which>
struct init_all {
  template <class State>
  int operator()(State& s, MPI_Request* request) const {
    const reduction_args a = all_args(s, no_completion{});
    return persistent_call<Which>(a.in, a.out, a.count, a.type, s.bound.get(), s.call.comm,
                                  MPI_INFO_NULL, request);
  }
};

/// Fails to compile, with one sentence naming the fix, unless Op can reduce Send into Recv in
/// a nonblocking call.
template <class Send, class Recv, class Op>
consteval void require_nonblocking_reduction() {
  require_reduction<Send, Op>();
  require_nonblocking_target<Send, Recv>();
}
/// The same for a persistent call, which also needs named buffers (P: as forwarded, T& or T).
template <class Send, class Recv, class Op>
consteval void require_persistent_reduction() {
  require_nonblocking_reduction<Send, Recv, Op>();
  require_named_buffer<Send&&>();
  require_named_buffer<Recv&&>();
}

/// The nonblocking reduction of send into recv on every rank with Call (iallreduce, iscan,
/// iexscan): a named buffer is borrowed, a temporary moved in and handed back by wait().
template <ireduce_all_function* Call, class Send, class Recv, class Op>
[[nodiscard]] auto ireduce_all(const collective_call& call, Send&& send, Recv&& recv, Op op) {
  require_nonblocking_reduction<Send, Recv, Op>();
  return start_reduction(call, held(std::forward<Send>(send)), held(std::forward<Recv>(recv)),
                         std::move(op), post_all<Call>{});
}
/// The same into a new result, which wait() hands back.
template <ireduce_all_function* Call, class Send, class Op>
[[nodiscard]] auto ireduce_all_result(const collective_call& call, Send&& send, Op op) {
  require_reduction<Send, Op>();
  using result_type = reduction_result_t<Send>;
  auto result = make_result<result_type>(send_buffer(send).count);
  return start_reduction(call, held(std::forward<Send>(send)), held<result_type>(std::move(result)),
                         std::move(op), post_all<Call>{});
}
/// The same in place (MPI_IN_PLACE); a buffer moved in is handed back by wait().
template <ireduce_all_function* Call, class Buffer, class Op>
[[nodiscard]] auto ireduce_all_in_place(const collective_call& call, Buffer&& buffer, Op op) {
  require_reduction<Buffer, Op>();
  require_writable<Buffer>();
  return start_reduction(call, no_send{}, held(std::forward<Buffer>(buffer)), std::move(op),
                         post_all<Call>{});
}
/// The persistent reduction Which of send into recv on every rank (allreduce_init, scan_init,
/// exscan_init): both borrowed, the op owned, sizes checked once, here.
template <persistent_collective Which, class Send, class Recv, class Op>
[[nodiscard]] auto reduce_all_init(const collective_call& call, Send&& send, Recv&& recv, Op op) {
  require_persistent_reduction<Send, Recv, Op>();
  return start_reduction<persistent_request>(call, held(send), held(recv), std::move(op),
                                             init_all<Which>{});
}
/// The same in place (MPI_IN_PLACE) on a named buffer.
template <persistent_collective Which, class Buffer, class Op>
[[nodiscard]] auto reduce_all_in_place_init(const collective_call& call, Buffer&& buffer, Op op) {
  require_reduction<Buffer, Op>();
  require_writable<Buffer>();
  require_named_buffer<Buffer&&>();
  return start_reduction<persistent_request>(call, no_send{}, held(buffer), std::move(op),
                                             init_all<Which>{});
}

/// Where a reduction to root lands in `recv`: checked and shrunk on the root only (another
/// rank's buffer is not used). Asks for the rank only when the sizes differ. A root buffer too
/// small: `too_small(room)` (see reduction_target).
template <class Recv, class TooSmall>
[[nodiscard, gnu::always_inline]] inline void* root_target(Recv& recv, std::size_t count,
                                                           const collective_call& call,
                                                           TooSmall&& too_small) {
  const mutable_buffer out = recv_buffer(recv);
  if (out.count == count || rank_in(call.comm) != *call.root) [[likely]] {
    return out.data;
  }
  return reduction_target(recv, count, std::forward<TooSmall>(too_small));
}

/// A reduction to root's send side, receive address and count on this rank, in place or not;
/// sets the state's count and type for its error report. A root recv too small: `into` as for
/// all_args (ireduce posts into scratch and waits; reduce_init ends the job). Checked: the
/// ranks agree here.
template <class State, class Into>
[[nodiscard]] reduction_args rooted_buffers(State& s, bool is_root, Into into) {
  if constexpr (std::is_same_v<decltype(s.send), no_send>) {
    const mutable_buffer io = recv_buffer(s.recv.get());
    s.count = io.count;
    s.type = io.type;
    const int count = reduction_count(io.count, s.call, io.type);
    agree_if_checked(s.call);
    return {is_root ? MPI_IN_PLACE : io.data, io.data, count, io.type};
  } else {
    const const_buffer in = send_buffer(s.send.get());
    s.count = in.count;
    s.type = in.type;
    s.engaged = is_root;
    void* out = root_target(
        s.recv.get(), in.count, s.call, [&](std::size_t room) __attribute__((always_inline)) {
          reduction_too_small(s.call, room, in.count, in.type, "the reduction's result",
                              scratch_part(into, in.data));
        });
    const int count = reduction_count(in.count, s.call, in.type);
    agree_if_checked(s.call);
    return {in.data, out, count, in.type};
  }
}

}  // namespace thinmpi::detail
