#pragma once
/// \file
/// The hook through which the point-to-point and collective families, and framed_channel, accept
/// an explicitly serialized payload (thinmpi::serialized<T>, serialization/serialized.hpp)
/// without knowing how it is encoded.
///
/// A serialized payload type P names `P::thinmpi_serialized_value` (what a receive of P
/// returns) and gives, for point-to-point,
///   wire_bytes encode() const                          the bytes to send (one allocation)
///   static value receive(MPI_Comm, int src, int tag, MPI_Status&)   MPI_Mprobe + MPI_Mrecv +
///                                                      decode
///   void receive_into(MPI_Comm, int src, int tag, MPI_Status&) const
///                                                      MPI_Mprobe + MPI_Mrecv + decode into the
///                                                      value P names, for recv_reuse(P, ...)
///   P::receive_request, constructible from (MPI_Comm, int src, int tag)    for irecv<P>()
///   static value exchange(MPI_Comm, const W& wire, int dest, int send_tag, int src, int recv_tag,
///                         MPI_Status&)                 for sendrecv<P>()
/// for framed_channel (framed.hpp), which moves the bytes by its own protocol,
///   static value decode(std::span<const std::byte>, MPI_Comm, const MPI_Status&)
///                                                      one decode pass over received bytes;
///                                                      errors name the status's source and tag
/// and, for the collectives that exchange byte counts first (each family's overload taking
/// thinmpi::exchange_counts; Comm is the communicator, whose own calls move the counts and bytes),
///   static void bcast(const Comm&, const P&, int root)              the root's value into P's
///   static optional<vector<value>> gatherv(const Comm&, const P&, int root)      on the root
///   static vector<value> allgatherv(const Comm&, const P&)
///   static element scatterv(const Comm&, const P&, int root)        value: one element per rank
///   static vector<element> alltoallv(const Comm&, const P&)         value: one element per rank
/// The families test serialized_payload with `if constexpr` or a constraint; everything else is
/// P's.

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "thinmpi/core/default_init_allocator.hpp"

namespace thinmpi::detail {

/// The encoded bytes of a serialized payload: sized once, never zeroed.
using wire_bytes = std::vector<std::byte, default_init_allocator<std::byte>>;

/// P is an explicitly serialized payload (thinmpi::serialized<T>).
template <class P>
concept serialized_payload = requires {
  typename std::remove_cvref_t<P>::thinmpi_serialized_value;
};

/// What goes on the wire for payload: its encoded bytes if serialized (a new buffer), else the
/// payload itself.
template <class P>
decltype(auto) wire_form(P&& payload) {
  if constexpr (serialized_payload<P>) {
    return payload.encode();
  } else {
    return std::forward<P>(payload);
  }
}
/// The type of wire_form(payload) for a P&&.
template <class P>
using wire_form_t = decltype(wire_form(std::declval<P>()));

/// What recv<T>() returns: T, or the value of a serialized<T>.
template <class T>
struct received_value {
  using type = T;
};
template <serialized_payload T>
struct received_value<T> {
  using type = typename T::thinmpi_serialized_value;
};
template <class T>
using received_value_t = typename received_value<T>::type;

}  // namespace thinmpi::detail
