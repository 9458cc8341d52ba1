#pragma once
/// \file
/// comm_view::send and comm_view::ssend: one MPI_Send / MPI_Ssend of the payload's own bytes.

#include "thinmpi/communicator.hpp"
#include "thinmpi/concepts.hpp"
#include "thinmpi/detail/buffers.hpp"
#include "thinmpi/detail/calls.hpp"
#include "thinmpi/detail/p2p_errors.hpp"

namespace thinmpi {

template <class Payload>
void comm_view::send(const Payload& payload, int dest, int tag) const {
  detail::require_sendable<Payload>();
  const detail::const_buffer buffer = detail::send_buffer(payload);
  const int rc = detail::send(buffer.data, buffer.count, buffer.type, dest, tag, comm_);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    detail::raise_send(rc, {"MPI_Send", comm_, dest, tag}, buffer);
  }
}

template <class Payload>
void comm_view::ssend(const Payload& payload, int dest, int tag) const {
  detail::require_sendable<Payload>();
  const detail::const_buffer buffer = detail::send_buffer(payload);
  const int rc = detail::ssend(buffer.data, buffer.count, buffer.type, dest, tag, comm_);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    detail::raise_send(rc, {"MPI_Ssend", comm_, dest, tag}, buffer);
  }
}

}  // namespace thinmpi
