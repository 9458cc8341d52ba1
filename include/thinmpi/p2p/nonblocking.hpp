#pragma once
/// \file
/// isend, issend and irecv. What the request does with the buffer follows from how it was
/// passed: a named object or a view is borrowed, anything else is owned by the request.

#include <type_traits>
#include <utility>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/p2p/detail/calls.hpp"
#include "thinmpi/p2p/detail/errors.hpp"
#include "thinmpi/p2p/requests.hpp"
#include "thinmpi/requests/detail/request_access.hpp"

namespace thinmpi {

namespace detail {

/// Checks, on completion of a receive into a fixed range or a strided or sub-array view (which
/// may be temporaries), that whole elements arrived.
template <class E>
receive_problem finish_elements(void*, const MPI_Status& status) {
  return status_bytes(status) % wire_size<E>() == 0 ? receive_problem::none
                                                    : receive_problem::partial_element;
}

/// What a borrowed receive into `into` checks or changes when it completes.
template <class Into>
receive_finisher finisher_for(Into& into) {
  using target = std::remove_cvref_t<Into>;
  if constexpr (resizable_payload<target> ||
                (!contiguous_payload<target> && !view_payload<target>)) {
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
  return request(handle, call, buffer, direction::receive, finisher);
}

/// The request's record of a buffer, for error reports: its shape, not its address.
inline mutable_buffer shape_of(const const_buffer& buffer) noexcept {
  return {nullptr, buffer.count, buffer.type};
}

}  // namespace detail

/// The nonblocking point-to-point operations of a communicator (comm_view derives from this
/// family).
template <class Comm>
class p2p_nonblocking {
 public:
  /// Starts sending payload (MPI_Isend). A payload moved in (or any temporary) is owned by the
  /// returned owning_request and handed back by wait(); a named payload or a view is borrowed and
  /// must outlive the returned request. thinmpi::serialized(x) is encoded now, and the request
  /// owns the encoded bytes.
  template <class Payload>
  [[nodiscard]] isend_request_t<detail::wire_form_t<Payload>> isend(Payload&& payload, int dest,
                                                                    int tag) const {
    return start_send(detail::wire_form(std::forward<Payload>(payload)), dest, tag, &detail::isend,
                      "MPI_Isend");
  }
  /// isend() in synchronous mode (MPI_Issend).
  template <class Payload>
  [[nodiscard]] isend_request_t<detail::wire_form_t<Payload>> issend(Payload&& payload, int dest,
                                                                     int tag) const {
    return start_send(detail::wire_form(std::forward<Payload>(payload)), dest, tag, &detail::issend,
                      "MPI_Issend");
  }
  /// Starts receiving into `into` (MPI_Irecv), which behaves as in recv() once complete. A
  /// buffer moved in is owned by the request and handed back by wait().
  template <class Into>
  [[nodiscard]] irecv_request_t<Into> irecv(Into&& into, int source, int tag) const {
    detail::require_writable<Into&&>();
    const detail::p2p_call call{"MPI_Irecv", comm(), source, tag};
    if constexpr (detail::borrows<Into>) {
      return detail::post_receive(into, call, detail::finisher_for(into));
    } else {
      using owned = std::remove_cvref_t<Into>;
      detail::held<owned, detail::holder_site::moving> kept(std::move(into));
      request posted = detail::post_receive(kept.get(), call);
      return owning_request<owned>(std::move(kept), std::move(posted), detail::fill::up_to);
    }
  }
  /// Starts receiving a new T. For std::vector and std::string of unknown size this does not
  /// block: the request matches the message (MPI_Improbe) when tested or waited on, then
  /// receives it (MPI_Imrecv). For a scalar or fixed-size T, one MPI_Irecv. For
  /// thinmpi::serialized<U>, as for a vector, then the request decodes the U.
  template <class T>
  [[nodiscard]] detail::irecv_new_result_t<T> irecv(int source, int tag) const {
    if constexpr (detail::serialized_payload<T>) {
      return typename T::receive_request(comm(), source, tag);
    } else {
      return irecv_new<T>(source, tag);
    }
  }

 private:
  template <class T>
  irecv_new_request_t<T> irecv_new(int source, int tag) const {
    detail::require_writable<T&>();
    if constexpr (resizable_payload<T>) {
      probing_request<T> pending(comm(), source, tag);
      // One MPI_Improbe now: bad arguments fail here, and a message already there is started.
      static_cast<void>(detail::request_access::try_start(pending));
      return pending;
    } else {
      const detail::p2p_call call{"MPI_Irecv", comm(), source, tag};
      detail::held<T, detail::holder_site::moving> kept(T{});
      request posted = detail::post_receive(kept.get(), call);
      return owning_request<T>(std::move(kept), std::move(posted), detail::fill::exact);
    }
  }

  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }

  template <class Payload, class Post>
  isend_request_t<Payload> start_send(Payload&& payload, int dest, int tag, Post post,
                                      const char* operation) const {
    detail::require_sendable<Payload>();
    const detail::p2p_call call{operation, comm(), dest, tag};
    const auto start = [&](const detail::const_buffer& buffer) {
      MPI_Request handle = MPI_REQUEST_NULL;
      const int rc = post(buffer.data, buffer.count, buffer.type, dest, tag, call.comm, &handle);
      if (rc != MPI_SUCCESS) [[unlikely]] {
        detail::raise_send(rc, call, buffer);
      }
      return request(handle, call, detail::shape_of(buffer), detail::direction::send);
    };
    if constexpr (detail::borrows<Payload>) {
      return start(detail::send_buffer(payload));
    } else {
      using owned = std::remove_cvref_t<Payload>;
      detail::held<owned, detail::holder_site::moving> buffer(
          owned(std::forward<Payload>(payload)));
      request posted = start(detail::send_buffer(buffer.get()));
      return owning_request<owned>(std::move(buffer), std::move(posted), detail::fill::up_to);
    }
  }
};

}  // namespace thinmpi
