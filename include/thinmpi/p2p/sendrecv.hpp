#pragma once
/// \file
/// comm_view::sendrecv and comm_view::sendrecv_replace: a send and a receive in one MPI call.

#include "thinmpi/communicator.hpp"
#include "thinmpi/concepts.hpp"
#include "thinmpi/detail/buffers.hpp"
#include "thinmpi/detail/calls.hpp"
#include "thinmpi/detail/p2p_errors.hpp"

namespace thinmpi {

template <class Payload, class Into>
status comm_view::sendrecv(const Payload& payload, int dest, int send_tag, Into&& into, int source,
                           int recv_tag) const {
  detail::require_sendable<Payload>();
  detail::require_receivable<Into&&>();
  const detail::const_buffer out = detail::send_buffer(payload);
  const detail::mutable_buffer in = detail::recv_buffer(into);
  MPI_Status raw{};
  const int rc = detail::sendrecv(out.data, out.count, out.type, dest, send_tag, in.data, in.count,
                                  in.type, source, recv_tag, comm_, &raw);
  if (rc != MPI_SUCCESS && detail::mpi_error_class(rc) != MPI_ERR_TRUNCATE) [[unlikely]] {
    detail::raise_sendrecv(rc, {"MPI_Sendrecv", comm_, dest, send_tag}, out, source, recv_tag);
  }
  detail::complete_receive(rc, into, "MPI_Sendrecv", comm_, source, recv_tag, in, raw,
                           detail::fill::up_to);
  return status(raw, in.type);
}

template <class Into>
status comm_view::sendrecv_replace(Into&& buffer, int dest, int send_tag, int source,
                                   int recv_tag) const {
  detail::require_receivable<Into&&>();
  const detail::mutable_buffer in = detail::recv_buffer(buffer);
  MPI_Status raw{};
  const int rc = detail::sendrecv_replace(in.data, in.count, in.type, dest, send_tag, source,
                                          recv_tag, comm_, &raw);
  detail::complete_receive(rc, buffer, "MPI_Sendrecv_replace", comm_, source, recv_tag, in, raw,
                           detail::fill::up_to);
  return status(raw, in.type);
}

}  // namespace thinmpi
