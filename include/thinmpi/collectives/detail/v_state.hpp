#pragma once
/// \file
/// The State block of a nonblocking or persistent collective that moves blocks between a send
/// and a receive buffer (iallgather(v), ialltoall(v), their `_init` forms, and the
/// neighborhood forms built on a topology): the two payloads held (borrowed or owned,
/// core/detail/held.hpp), the counts and displacements MPI reads until completion, and the
/// error context. One state serves every such family: a family fills what its MPI call reads.

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <utility>

#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/displacements.hpp"
#include "thinmpi/collectives/detail/routed_exchange.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/held.hpp"
#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi::detail {

/// What a nonblocking or persistent block-moving collective owns. A resizable receive buffer
/// is shrunk to what will arrive (receive()) before the call is posted; a shrinking resize
/// never moves the elements.
template <class Send, class Into, bool Persistent = false>
struct v_state {
  v_state(Send&& send_payload, Into&& into_payload, collective_call context)
      : send(std::forward<Send>(send_payload)),
        into(std::forward<Into>(into_payload)),
        call(context) {}

  held<Send> send;
  held<Into> into;
  collective_call call;
  std::size_t arrived = 0;  ///< elements the receive buffer holds once complete
  v_arrays arrays{};
  /// A neighborhood alltoall that thinmpi routes itself on this topology (a neighbor repeats:
  /// topology/detail/neighbor_routes.hpp), else null: MPI's own call.
  std::unique_ptr<routed_exchange> routed{};

  [[nodiscard]] const_buffer out() { return send_buffer(send.get()); }
  [[nodiscard]] mutable_buffer in() { return recv_buffer(into.get()); }
  /// Records that `count` elements will arrive and shrinks a larger resizable buffer to them.
  void receive(std::size_t count) {
    arrived = count;
    shrink_to(into.get(), count);
  }

  [[noreturn]] void raise(int rc) const {
    raise_collective(rc, call, std::nullopt, datatype_of<element_t<Into>>());
  }
  /// A nonblocking call hands back an owned receive buffer (a borrowed one is the caller's
  /// already); a persistent one, kept for the next round, a view of the received elements.
  auto take() {
    if constexpr (Persistent) {
      return std::span<element_t<Into>>(static_cast<element_t<Into>*>(in().data), arrived);
    } else if constexpr (held<Into>::owned) {
      return into.take();
    }
  }
};

/// The state of a block-moving collective on `send` and `into`, once the payloads pass the
/// checks every such family makes (one element type, a receive buffer MPI may write).
template <bool Persistent, class Send, class Into>
[[nodiscard]] auto make_v_state(Send&& send, Into&& into, collective_call call) {
  require_sendable<Send>();
  require_writable<Into&&>();
  require_same_element<Send, Into>();
  return std::make_unique<v_state<Send, Into, Persistent>>(std::forward<Send>(send),
                                                           std::forward<Into>(into), call);
}

/// Posts a state's MPI call, post(state, &handle) -> rc, and hands both to a Request
/// (collective_request, or persistent_request for an `_init` call). A failed call throws with
/// the send side's count and datatype.
template <template <class> class Request, class State, class Post>
[[nodiscard]] Request<State> post_state(std::unique_ptr<State> state, Post post) {
  MPI_Request handle = MPI_REQUEST_NULL;
  if (const int rc = post(*state, &handle); rc != MPI_SUCCESS) [[unlikely]] {
    const const_buffer out = state->out();
    raise_collective(rc, state->call, out.count, out.type);
  }
  return Request<State>(std::move(state), handle);
}

}  // namespace thinmpi::detail
