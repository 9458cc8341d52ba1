#pragma once
/// \file
/// comm_view::send and comm_view::ssend: one MPI_Send / MPI_Ssend of the payload's own bytes.

#include "thinmpi/communicator.hpp"
#include "thinmpi/concepts.hpp"
#include "thinmpi/detail/buffers.hpp"
#include "thinmpi/detail/calls.hpp"
#include "thinmpi/detail/p2p_errors.hpp"

namespace thinmpi {

namespace detail {

/// One blocking send of payload through post (detail::send or detail::ssend).
template <class Payload, class Post>
void send_with(MPI_Comm comm, const Payload& payload, int dest, int tag, Post post,
               const char* operation) {
  require_sendable<Payload>();
  const const_buffer buffer = send_buffer(payload);
  const int rc = post(buffer.data, buffer.count, buffer.type, dest, tag, comm);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_send(rc, {operation, comm, dest, tag}, buffer);
  }
}

}  // namespace detail

template <class Payload>
void comm_view::send(const Payload& payload, int dest, int tag) const {
  detail::send_with(comm_, payload, dest, tag, &detail::send, "MPI_Send");
}

template <class Payload>
void comm_view::ssend(const Payload& payload, int dest, int tag) const {
  detail::send_with(comm_, payload, dest, tag, &detail::ssend, "MPI_Ssend");
}

}  // namespace thinmpi
