#pragma once
/// \file
/// comm_view::isend, issend and irecv. What the request does with the buffer follows from how
/// it was passed: a named object or a view is borrowed, anything else is owned by the request.

#include <type_traits>
#include <utility>

#include "thinmpi/communicator.hpp"
#include "thinmpi/concepts.hpp"
#include "thinmpi/detail/buffers.hpp"
#include "thinmpi/detail/calls.hpp"
#include "thinmpi/detail/p2p_errors.hpp"
#include "thinmpi/request.hpp"

namespace thinmpi {

namespace detail {

/// Checks, on completion of a receive into a fixed range (which may be a temporary view), that
/// whole elements arrived.
template <class E>
receive_problem finish_elements(void*, const MPI_Status& status) {
  return status_bytes(status) % wire_size<E>() == 0 ? receive_problem::none
                                                    : receive_problem::partial_element;
}

/// What a borrowed receive into `into` checks or changes when it completes.
template <class Into>
receive_finisher finisher_for(Into& into) {
  using target = std::remove_cvref_t<Into>;
  if constexpr (resizable_payload<target> || !contiguous_payload<target>) {
    return {std::addressof(into), &finish_borrowed<target>};
  } else {
    return {nullptr, &finish_elements<element_t<target>>};
  }
}

/// Posts MPI_Irecv into `into`'s buffer and returns the request that completes it; `finisher`
/// is what a borrowed receive does on completion (an owning request finishes its own buffer).
template <class Into>
request post_receive(Into& into, const p2p_call& call, receive_finisher finisher = {}) {
  const mutable_buffer buffer = recv_buffer(into);
  MPI_Request handle = MPI_REQUEST_NULL;
  const int rc =
      irecv(buffer.data, buffer.count, buffer.type, call.peer, call.tag, call.comm, &handle);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_receive(rc, call, buffer, MPI_Status{});
  }
  return request(handle, call, buffer, true, finisher);
}

/// The request's record of a buffer, for error reports: its shape, not its address.
inline mutable_buffer shape_of(const const_buffer& buffer) noexcept {
  return {nullptr, buffer.count, buffer.type};
}

}  // namespace detail

template <class Payload, class Post>
isend_request_t<Payload> comm_view::start_send(Payload&& payload, int dest, int tag, Post post,
                                               const char* operation) const {
  detail::require_sendable<Payload>();
  const detail::p2p_call call{operation, comm_, dest, tag};
  const auto start = [&](const detail::const_buffer& buffer) {
    MPI_Request handle = MPI_REQUEST_NULL;
    const int rc = post(buffer.data, buffer.count, buffer.type, dest, tag, comm_, &handle);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_send(rc, call, buffer);
    }
    return request(handle, call, detail::shape_of(buffer), false);
  };
  if constexpr (detail::borrows<Payload>) {
    return start(detail::send_buffer(payload));
  } else {
    using owned = std::remove_cvref_t<Payload>;
    detail::pinned<owned> buffer(owned(std::forward<Payload>(payload)));
    request posted = start(detail::send_buffer(buffer.get()));
    return owning_request<owned>(std::move(buffer), std::move(posted), false, detail::fill::up_to);
  }
}

template <class Payload>
isend_request_t<Payload> comm_view::isend(Payload&& payload, int dest, int tag) const {
  return start_send(std::forward<Payload>(payload), dest, tag, &detail::isend, "MPI_Isend");
}

template <class Payload>
isend_request_t<Payload> comm_view::issend(Payload&& payload, int dest, int tag) const {
  return start_send(std::forward<Payload>(payload), dest, tag, &detail::issend, "MPI_Issend");
}

template <class Into>
irecv_request_t<Into> comm_view::irecv(Into&& into, int source, int tag) const {
  detail::require_writable<Into&&>();
  const detail::p2p_call call{"MPI_Irecv", comm_, source, tag};
  if constexpr (detail::borrows<Into>) {
    return detail::post_receive(into, call, detail::finisher_for(into));
  } else {
    using owned = std::remove_cvref_t<Into>;
    detail::pinned<owned> kept(std::move(into));
    request posted = detail::post_receive(kept.get(), call);
    return owning_request<owned>(std::move(kept), std::move(posted), true, detail::fill::up_to);
  }
}

template <class T>
irecv_new_request_t<T> comm_view::irecv(int source, int tag) const {
  detail::require_writable<T&>();
  if constexpr (resizable_payload<T>) {
    probing_request<T> pending(comm_, source, tag);
    // One MPI_Improbe now: bad arguments fail here, and a message already there is started.
    static_cast<void>(detail::request_access::try_match(pending));
    return pending;
  } else {
    const detail::p2p_call call{"MPI_Irecv", comm_, source, tag};
    detail::pinned<T> kept(T{});
    request posted = detail::post_receive(kept.get(), call);
    return owning_request<T>(std::move(kept), std::move(posted), true, detail::fill::exact);
  }
}

}  // namespace thinmpi
