#pragma once
/// \file
/// comm_view::recv: into a buffer the caller has (one MPI_Recv), or into a new one (a matched
/// probe and receive for containers of unknown size, one MPI_Recv otherwise).

#include <cstddef>
#include <type_traits>

#include "thinmpi/communicator.hpp"
#include "thinmpi/concepts.hpp"
#include "thinmpi/detail/buffers.hpp"
#include "thinmpi/detail/calls.hpp"
#include "thinmpi/detail/p2p_errors.hpp"
#include "thinmpi/request.hpp"

namespace thinmpi {

namespace detail {

/// One MPI_Recv into `into`, then the checks of finish_receive.
template <class Into>
status receive_into(MPI_Comm comm, Into& into, int source, int tag, fill mode) {
  const mutable_buffer buffer = recv_buffer(into);
  MPI_Status raw;  // filled by MPI_Recv; read only after it returns
  const int rc = recv(buffer.data, buffer.count, buffer.type, source, tag, comm, &raw);
  complete_receive(rc, into, "MPI_Recv", comm, source, tag, buffer, raw, mode);
  return status(raw, buffer.type);
}

/// MPI_Mprobe, then a container of exactly the message's size, then MPI_Mrecv into it. `raw`
/// is the probe's status: the message it matched is the one received, so MPI_Mrecv's status
/// would say nothing new and is not asked for.
template <class Container>
Container receive_new(MPI_Comm comm, int source, int tag, MPI_Status& raw) {
  using element = std::ranges::range_value_t<Container>;
  MPI_Message message = MPI_MESSAGE_NULL;
  const p2p_call call{"MPI_Mprobe", comm, source, tag};
  if (const int rc = MPI_Mprobe(source, tag, comm, &message, &raw); rc != MPI_SUCCESS)
      [[unlikely]] {
    raise_receive(rc, call, no_buffer(datatype_of<element>()), raw);
  }
  Container arrived = sized_for<Container>(message, raw, call);
  const mutable_buffer buffer = recv_buffer(arrived);
  const int rc = mrecv(buffer.data, buffer.count, buffer.type, &message, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_receive(rc, {"MPI_Mrecv", comm, source, tag}, buffer, raw);
  }
  return arrived;
}

}  // namespace detail

template <class Into>
status comm_view::recv(Into&& into, int source, int tag) const {
  detail::require_receivable<Into&&>();
  return detail::receive_into(comm_, into, source, tag, detail::fill::up_to);
}

template <class T>
T comm_view::recv(int source, int tag) const {
  return recv_with_status<T>(source, tag).value;
}

template <class T>
received<T> comm_view::recv_with_status(int source, int tag) const {
  detail::require_writable<T&>();
  static_assert(std::is_default_constructible_v<T>,
                "thinmpi cannot create the T to receive into: it has no default constructor; "
                "receive into an object you construct with recv(object, source, tag)");
  if constexpr (resizable_payload<T>) {
    MPI_Status raw{};
    T value = detail::receive_new<T>(comm_, source, tag, raw);
    return {std::move(value), status(raw, datatype_of<std::ranges::range_value_t<T>>())};
  } else {
    received<T> result{};
    result.status = detail::receive_into(comm_, result.value, source, tag, detail::fill::exact);
    return result;
  }
}

}  // namespace thinmpi
