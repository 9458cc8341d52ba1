#pragma once
/// \file
/// sendrecv and sendrecv_replace: a send and a receive in one MPI call.

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/core/status.hpp"
#include "thinmpi/p2p/detail/calls.hpp"
#include "thinmpi/p2p/detail/errors.hpp"

namespace thinmpi {

/// The combined send-receives of a communicator (comm_view derives from this family).
template <class Comm>
class p2p_sendrecv {
 public:
  /// Sends payload to dest and receives into `into` from source in one call (MPI_Sendrecv);
  /// `into` behaves as in recv().
  template <class Payload, class Into>
  status sendrecv(const Payload& payload, int dest, int send_tag, Into&& into, int source,
                  int recv_tag) const {
    const auto& wire = detail::wire_form(payload);  // a serialized payload's encoded bytes
    detail::require_sendable<decltype(wire)>();
    detail::require_receivable<Into&&>();
    const detail::const_buffer out = detail::send_buffer(wire);
    const detail::mutable_buffer in = detail::recv_buffer(into);
    MPI_Status raw{};
    const int rc = detail::sendrecv(out.data, out.count, out.type, dest, send_tag, in.data,
                                    in.count, in.type, source, recv_tag, comm(), &raw);
    if (rc != MPI_SUCCESS && detail::mpi_error_class(rc) != MPI_ERR_TRUNCATE) [[unlikely]] {
      detail::raise_sendrecv(rc, {"MPI_Sendrecv", comm(), dest, send_tag}, out, source, recv_tag);
    }
    detail::complete_receive(rc, into, "MPI_Sendrecv", comm(), source, recv_tag, in, raw,
                             detail::fill::up_to);
    return status(raw, in.type);
  }
  /// Sends payload to dest while receiving a new thinmpi::serialized<U> from source, and
  /// returns the U: MPI_Isend, then MPI_Mprobe + MPI_Mrecv and the decode, then MPI_Wait (the
  /// receive's size is not known, so it cannot be one MPI_Sendrecv).
  ///
  ///     std::vector<std::string> mine = {"ada", "grace"};
  ///     auto theirs = world.sendrecv<thinmpi::serialized<std::vector<std::string>>>(
  ///         thinmpi::serialized(mine), right, 0, left, 0);
  template <detail::serialized_payload T, class Payload>
  [[nodiscard]] detail::received_value_t<T> sendrecv(const Payload& payload, int dest, int send_tag,
                                                     int source, int recv_tag) const {
    const auto& wire = detail::wire_form(payload);
    detail::require_sendable<decltype(wire)>();
    MPI_Status raw{};
    return T::exchange(comm(), wire, dest, send_tag, source, recv_tag, raw);
  }
  /// Sends buffer to dest and replaces its contents with what arrives from source
  /// (MPI_Sendrecv_replace); a resizable buffer shrinks to what arrived.
  template <class Into>
  status sendrecv_replace(Into&& buffer, int dest, int send_tag, int source, int recv_tag) const {
    detail::require_receivable<Into&&>();
    const detail::mutable_buffer in = detail::recv_buffer(buffer);
    MPI_Status raw{};
    const int rc = detail::sendrecv_replace(in.data, in.count, in.type, dest, send_tag, source,
                                            recv_tag, comm(), &raw);
    detail::complete_receive(rc, buffer, "MPI_Sendrecv_replace", comm(), source, recv_tag, in, raw,
                             detail::fill::up_to);
    return status(raw, in.type);
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
};

}  // namespace thinmpi
