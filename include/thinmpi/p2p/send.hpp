#pragma once
/// \file
/// send and ssend: one MPI_Send / MPI_Ssend of the payload's own bytes.

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/p2p/detail/calls.hpp"
#include "thinmpi/p2p/detail/errors.hpp"

namespace thinmpi {

namespace detail {

/// One blocking send of payload through post (detail::send or detail::ssend). Always inlined:
/// clang 14 kept it out of line for a struct payload (its datatype's first-use guard made it too
/// big), a call with six saved registers around every send.
template <class Payload, class Post>
[[gnu::always_inline]] inline void send_with(MPI_Comm comm, const Payload& payload, int dest,
                                             int tag, Post post, const char* operation) {
  require_sendable<Payload>();
  const const_buffer buffer = send_buffer(payload);
  const int rc = post(buffer.data, buffer.count, buffer.type, dest, tag, comm);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_send_of(rc, operation, comm, dest, tag, payload);
  }
}

}  // namespace detail

/// The blocking sends of a communicator (comm_view derives from this family).
template <class Comm>
class p2p_send {
 public:
  /// Sends payload to dest as one message: a scalar as count 1, a contiguous range as data()
  /// and size() (MPI_Send). No size message, no serialization unless asked for:
  /// thinmpi::serialized(x) sends x's encoded bytes (serialization/serialized.hpp).
  ///
  ///     world.send(std::vector<double>{1, 2, 3}, 1, 0);
  template <class Payload>
  [[gnu::always_inline]] void send(const Payload& payload, int dest, int tag) const {
    detail::send_with(comm(), detail::wire_form(payload), dest, tag, &detail::send, "MPI_Send");
  }
  /// send() that completes only once the receive has started (MPI_Ssend).
  template <class Payload>
  [[gnu::always_inline]] void ssend(const Payload& payload, int dest, int tag) const {
    detail::send_with(comm(), detail::wire_form(payload), dest, tag, &detail::ssend, "MPI_Ssend");
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
};

}  // namespace thinmpi
