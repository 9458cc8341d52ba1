#pragma once
/// \file
/// Persistent point-to-point: send_init, ssend_init and recv_init set a message up once
/// (MPI_Send_init, MPI_Ssend_init, MPI_Recv_init) and return a thinmpi::persistent_request
/// that start() posts every round (MPI_Start) and wait() / wait_all complete, as a stencil
/// code posts its halo exchange once and starts it every step. The payload is borrowed when it
/// is a named object or a view (it must outlive the request, and each round sends what its
/// elements hold then: write into them; a vector assigned a new one or resized has moved, and
/// start() says so, MPI_ERR_BUFFER); a send's payload moved in is owned and sent unchanged
/// every round. A receive's target
/// is borrowed only (its contents are the round's result); each round's wait() returns the
/// elements that came, and a message too large is an mpi_error (MPI_ERR_TRUNCATE) as recv's.
///
///     std::vector<double> out(n, 1.0), in(n);
///     auto sending = world.send_init(out, right, 0);
///     auto receiving = world.recv_init(in, left, 0);
///     for (int step = 0; step < steps; ++step) {
///       sending.start();
///       receiving.start();
///       thinmpi::wait_all(sending, receiving);
///     }

#include <cstddef>
#include <memory>
#include <ranges>
#include <string>
#include <type_traits>
#include <utility>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/held.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/status_bytes.hpp"
#include "thinmpi/p2p/detail/errors.hpp"
#include "thinmpi/requests/persistent_request.hpp"

namespace thinmpi {
namespace detail {

/// MPI_Send_init, MPI_Ssend_init or MPI_Recv_init with std::size_t counts.
using init_call = int (*)(void*, std::size_t, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);

/// The State of a persistent send (Receive false) or receive: the payload, and the call for
/// its error reports.
template <class P, bool Receive>
struct p2p_persistent_state {
  held<P> payload;
  p2p_call call;
  mutable_buffer shape;  ///< count and datatype, for error reports
  std::size_t received = 0;
  const void* registered = nullptr;  ///< the address MPI was given, for check_start()
  init_call init = nullptr;          ///< how the request was set up, for renew()

  /// The request set up again on the same buffer (MPI_REQUEST_NULL if that fails).
  MPI_Request renew() noexcept {
    MPI_Request handle = MPI_REQUEST_NULL;
    if (init(const_cast<void*>(registered), shape.count, shape.type, call.peer, call.tag, call.comm,
             &handle) != MPI_SUCCESS) {
      return MPI_REQUEST_NULL;
    }
    return handle;
  }

  /// Before a round: a borrowed range must still be where MPI was told it is, as large (a
  /// vector assigned a new one, or resized, has moved its elements: MPI would read freed
  /// memory or write past the new end).
  void check_start() {
    if constexpr (contiguous_payload<std::remove_cvref_t<P>>) {
      const auto& range = payload.get();
      if (std::ranges::data(range) != registered || std::ranges::size(range) != shape.count)
          [[unlikely]] {
        error_site site{.operation = "MPI_Start",
                        .comm = call.comm,
                        .peer_role = Receive ? "source" : "dest",
                        .peer = call.peer,
                        .tag = call.tag,
                        .count = shape.count,
                        .type = shape.type};
        site.problem = std::string("the buffer given to ") + call.operation +
                       " has moved or changed size since (a vector assigned or resized): "
                       "write into its elements instead, or set the request up again";
        detail::raise(MPI_ERR_BUFFER, site);
      }
    }
  }

  [[noreturn]] void raise(int rc) const {
    if constexpr (Receive) {
      raise_receive(rc, call, shape, MPI_Status{});
    } else {
      raise_send(rc, call, const_buffer{nullptr, shape.count, shape.type});
    }
  }
  /// A receive's round ended: a failure throws (a truncation with the incoming size where MPI
  /// gives it); else it counts the whole elements that came. (A send reads no status: its
  /// round waits with MPI_STATUS_IGNORE and a failure goes to raise().)
  void finish(int rc, const MPI_Status& status) requires Receive {
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_receive(rc, call, shape, status);
    }
    using E = element_t<std::remove_cvref_t<P>>;
    const std::size_t bytes = status_bytes(status);
    if (bytes % wire_size<E>() != 0) [[unlikely]] {
      raise_problem(receive_problem::partial_element, call, shape, status);
    }
    received = bytes / wire_size<E>();
  }
  /// What wait() returns: the elements a receive's round brought; nothing for a send.
  auto take() const {
    if constexpr (Receive) {
      return received;
    }
  }
};

inline int send_init(void* buf, std::size_t n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                     MPI_Request* request) {
  return counted_call<&MPI_Send_init, THINMPI_LARGE_COUNT_CALL(MPI_Send_init)>(
      counts_at<1>{}, buf, n, t, dest, tag, comm, request);
}
inline int ssend_init(void* buf, std::size_t n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
                      MPI_Request* request) {
  return counted_call<&MPI_Ssend_init, THINMPI_LARGE_COUNT_CALL(MPI_Ssend_init)>(
      counts_at<1>{}, buf, n, t, dest, tag, comm, request);
}
inline int recv_init(void* buf, std::size_t n, MPI_Datatype t, int source, int tag, MPI_Comm comm,
                     MPI_Request* request) {
  return counted_call<&MPI_Recv_init, THINMPI_LARGE_COUNT_CALL(MPI_Recv_init)>(
      counts_at<1>{}, buf, n, t, source, tag, comm, request);
}

/// Sets a persistent send up through `call`.
template <class P>
persistent_request<p2p_persistent_state<P, false>> persistent_send(P&& payload, p2p_call where,
                                                                   init_call call) {
  auto state = std::make_unique<p2p_persistent_state<P, false>>(
      p2p_persistent_state<P, false>{held<P>(std::forward<P>(payload)), where, {}, 0});
  const const_buffer buffer = send_buffer(state->payload.get());
  state->shape = mutable_buffer{nullptr, buffer.count, buffer.type};
  state->registered = buffer.data;
  state->init = call;
  MPI_Request handle = MPI_REQUEST_NULL;
  const int rc = call(const_cast<void*>(buffer.data), buffer.count, buffer.type, where.peer,
                      where.tag, where.comm, &handle);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_send(rc, where, buffer);
  }
  return {std::move(state), handle};
}

}  // namespace detail

/// The persistent point-to-point operations of a communicator (comm_view derives from this
/// family).
template <class Comm>
class p2p_persistent {
 public:
  /// A send set up once (MPI_Send_init), posted by each start(); see the file comment.
  template <class P>
  [[nodiscard]] persistent_request<detail::p2p_persistent_state<P, false>> send_init(
      P&& payload, int dest, int tag) const {
    detail::require_sendable<P>();
    return detail::persistent_send(std::forward<P>(payload), {"MPI_Send_init", comm(), dest, tag},
                                   &detail::send_init);
  }
  /// send_init() in synchronous mode (MPI_Ssend_init): a round completes once the receive has
  /// started.
  template <class P>
  [[nodiscard]] persistent_request<detail::p2p_persistent_state<P, false>> ssend_init(
      P&& payload, int dest, int tag) const {
    detail::require_sendable<P>();
    return detail::persistent_send(std::forward<P>(payload), {"MPI_Ssend_init", comm(), dest, tag},
                                   &detail::ssend_init);
  }
  /// A receive set up once into `into` (MPI_Recv_init), a named buffer or a view that the
  /// request borrows; each round's wait() returns the elements that came.
  template <class Into>
  [[nodiscard]] persistent_request<detail::p2p_persistent_state<Into, true>> recv_init(
      Into&& into, int source, int tag) const {
    detail::require_receivable<Into>();
    const detail::p2p_call where{"MPI_Recv_init", comm(), source, tag};
    auto state = std::make_unique<detail::p2p_persistent_state<Into, true>>(
        detail::p2p_persistent_state<Into, true>{
            detail::held<Into>(std::forward<Into>(into)), where, {}, 0});
    const detail::mutable_buffer buffer = detail::recv_buffer(state->payload.get());
    state->shape = detail::mutable_buffer{nullptr, buffer.count, buffer.type};
    state->registered = buffer.data;
    state->init = &detail::recv_init;
    MPI_Request handle = MPI_REQUEST_NULL;
    const int rc =
        detail::recv_init(buffer.data, buffer.count, buffer.type, source, tag, comm(), &handle);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_receive(rc, where, buffer, MPI_Status{});
    }
    return {std::move(state), handle};
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
};

}  // namespace thinmpi
