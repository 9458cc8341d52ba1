#pragma once
/// \file
/// thinmpi::serialized: the explicit form that sends a non-trivial value (strings in
/// containers, maps, structs holding strings, ...) as one message of its encoded bytes.
///
///     std::vector<std::string> names = {"ada", "grace"};
///     world.send(thinmpi::serialized(names), 1, 0);           // size pass, 1 allocation, MPI_Send
///     auto got = world.recv<thinmpi::serialized<std::vector<std::string>>>(0, 0);
///                                                             // MPI_Mprobe + MPI_Mrecv, 1 decode
///
/// thinmpi::to_bytes and thinmpi::from_bytes do the encoding alone.

#include <cstddef>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/core/status.hpp"
#include "thinmpi/p2p/detail/calls.hpp"
#include "thinmpi/p2p/detail/errors.hpp"
#include "thinmpi/p2p/recv.hpp"
#include "thinmpi/p2p/requests.hpp"
#include "thinmpi/requests/detail/request_access.hpp"
#include "thinmpi/requests/request_face.hpp"
#include "thinmpi/serialization/codec.hpp"
#include "thinmpi/serialization/collectives.hpp"
#include "thinmpi/serialization/decoding_request.hpp"
#include "thinmpi/serialization/wire.hpp"

namespace thinmpi {

/// The encoded bytes of a value: std::vector<std::byte> that is sized without being zeroed.
using serialized_bytes = detail::wire_bytes;

/// The number of bytes value encodes to (the size pass of to_bytes).
template <class T>
[[nodiscard]] std::size_t serialized_size(const T& value) {
  return detail::serial::wire_size(value);
}

/// value's encoding: one size pass, one allocation, one copy pass. Native byte order, 64-bit
/// lengths; see docs/library.md for the format.
///
///     thinmpi::serialized_bytes bytes = thinmpi::to_bytes(std::map<int, std::string>{{1, "a"}});
template <class T>
[[nodiscard]] serialized_bytes to_bytes(const T& value) {
  return detail::serial::encode<serialized_bytes>(value);
}

/// Decodes bytes made by to_bytes as a T. Every read is checked against the bytes left and
/// every length before anything is allocated; a malformed input (too short, a length past the
/// end, an invalid tag, bytes left over) throws thinmpi::serialization_error naming the type
/// being decoded and the byte offset.
template <class T>
[[nodiscard]] T from_bytes(std::span<const std::byte> bytes) {
  return detail::serial::decode_in<T>(bytes, {.operation = "thinmpi::from_bytes"});
}

template <class T>
class serialized_request;

/// A value sent or received as its encoded bytes, one message: the explicit form for types that
/// have no MPI datatype. `serialized(x)` refers to x (or holds a temporary moved in);
/// `recv<serialized<T>>()` returns the T. In a collective it exchanges the byte counts first,
/// which thinmpi::exchange_counts says (serialization/collectives.hpp).
///
///     std::map<int, std::string> table = {{1, "one"}};
///     world.send(thinmpi::serialized(table), 1, 0);
///     table = world.recv<thinmpi::serialized<decltype(table)>>(0, 0);
///     world.bcast(thinmpi::serialized(table), 0, thinmpi::exchange_counts);
///     world.recv_reuse(thinmpi::serialized(table), 0, 0);  // decoded into table's nodes
template <class T>
class serialized {
 public:
  /// The decoded type, what a receive returns (the hook for the point-to-point families).
  using thinmpi_serialized_value = std::remove_cvref_t<T>;
  /// The request irecv<serialized<T>>() returns.
  using receive_request = serialized_request<thinmpi_serialized_value>;

  /// Refers to (a reference T) or takes (a value T) the value to send.
  explicit serialized(T value) : value_(static_cast<T&&>(value)) {}

  /// The value.
  [[nodiscard]] const thinmpi_serialized_value& value() const noexcept { return value_; }
  /// The encoded bytes: one size pass, one allocation, one copy pass.
  [[nodiscard]] serialized_bytes encode() const { return to_bytes(value_); }

  /// MPI_Mprobe, one allocation of the message's size, MPI_Mrecv, one decode pass.
  static thinmpi_serialized_value receive(MPI_Comm comm, int source, int tag, MPI_Status& raw) {
    const serialized_bytes bytes = detail::receive_new<serialized_bytes>(comm, source, tag, raw);
    return decode(bytes, comm, raw);
  }
  /// recv_reuse(serialized(x), src, tag): MPI_Mprobe, one allocation of the message's size,
  /// MPI_Mrecv, one decode pass into x, which keeps its storage where the new value fits (its
  /// strings' and vectors' buffers, its maps' and sets' nodes). On any failure x is emptied.
  void receive_into(MPI_Comm comm, int source, int tag, MPI_Status& raw) const {
    static_assert(std::is_lvalue_reference_v<T> && !std::is_const_v<std::remove_reference_t<T>>,
                  "thinmpi: recv_reuse(thinmpi::serialized(x), source, tag) decodes the message "
                  "into x: pass a named, non-const x");
    const serialized_bytes bytes = detail::receive_new<serialized_bytes>(comm, source, tag, raw);
    detail::serial::decode_received_into(bytes, value_, comm, raw);
  }
  /// One decode pass over bytes that arrived some other way (framed_channel) from the message
  /// whose status is raw (its source and tag name it in an error).
  static thinmpi_serialized_value decode(std::span<const std::byte> bytes, MPI_Comm comm,
                                         const MPI_Status& raw) {
    return detail::serial::decode_received<thinmpi_serialized_value>(bytes, comm, raw);
  }

  /// Sends wire (MPI_Isend) while receiving a serialized value (MPI_Mprobe + MPI_Mrecv), then
  /// waits for the send: two messages may cross without deadlock.
  template <class Wire>
  static thinmpi_serialized_value exchange(MPI_Comm comm, const Wire& wire, int dest, int send_tag,
                                           int source, int recv_tag, MPI_Status& raw) {
    const detail::const_buffer out = detail::send_buffer(wire);
    MPI_Request sending = MPI_REQUEST_NULL;
    const detail::p2p_call call{"MPI_Isend", comm, dest, send_tag};
    if (const int rc = detail::isend(out.data, out.count, out.type, dest, send_tag, comm, &sending);
        rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_send(rc, call, out);
    }
    request sent(sending, call, {nullptr, out.count, out.type}, detail::direction::send);
    thinmpi_serialized_value value = receive(comm, source, recv_tag, raw);
    static_cast<void>(sent.wait());
    return value;
  }

  /// bcast(serialized(x), root, exchange_counts): MPI_Bcast of the byte size, MPI_Bcast of the
  /// bytes; x on the other ranks becomes the root's x (decoded once).
  template <class Comm>
  static void bcast(const Comm& comm, const serialized& payload, int root) {
    static_assert(std::is_lvalue_reference_v<T> && !std::is_const_v<std::remove_reference_t<T>>,
                  "thinmpi: bcast of thinmpi::serialized(x) writes the root's value into x on the "
                  "other ranks: pass a named, non-const x");
    detail::serial::bcast_value(comm, payload.value_, root);
  }
  /// gatherv(serialized(x), root, exchange_counts): MPI_Gather of the byte counts,
  /// MPI_Gatherv of the bytes; every rank's x, in rank order, on the root only.
  template <class Comm>
  static std::optional<std::vector<thinmpi_serialized_value>> gatherv(const Comm& comm,
                                                                      const serialized& payload,
                                                                      int root) {
    return detail::serial::gather_values(comm, payload.value(), root);
  }
  /// allgatherv(serialized(x), exchange_counts): MPI_Allgather of the byte counts,
  /// MPI_Allgatherv of the bytes; every rank's x, in rank order.
  template <class Comm>
  static std::vector<thinmpi_serialized_value> allgatherv(const Comm& comm,
                                                          const serialized& payload) {
    return detail::serial::allgather_values(comm, payload.value());
  }
  /// scatterv(serialized(values), root, exchange_counts): MPI_Scatter of the byte counts,
  /// MPI_Scatterv of the bytes; rank r gets the root's values[r].
  template <class Comm>
  static auto scatterv(const Comm& comm, const serialized& payload, int root) {
    detail::serial::require_one_per_rank<thinmpi_serialized_value>();
    return detail::serial::scatter_values(comm, payload.value(), root);
  }
  /// alltoallv(serialized(values), exchange_counts): MPI_Alltoall of the byte counts,
  /// MPI_Alltoallv of the bytes; values[d] goes to rank d, and the result holds what each rank
  /// sent this one, in rank order.
  template <class Comm>
  static auto alltoallv(const Comm& comm, const serialized& payload) {
    detail::serial::require_one_per_rank<thinmpi_serialized_value>();
    return detail::serial::alltoall_values(comm, payload.value());
  }

 private:
  T value_;
};

/// serialized(x) of a named x refers to it (a collective that receives into it, bcast, may
/// write it).
template <class T>
serialized(T&) -> serialized<T&>;
/// serialized(x) of a temporary holds it.
template <class T>
serialized(T&&) -> serialized<T>;

/// A nonblocking receive of a serialized T of unknown size: as probing_request, it matches the
/// message when tested or waited on (MPI_Improbe / MPI_Mprobe), receives its bytes (MPI_Imrecv)
/// and decodes them once they have arrived; wait() and test() hand over the T, last_status()
/// reports the message (its count in bytes). Works with wait_all / wait_any. Move-only.
///
///     auto r = world.irecv<thinmpi::serialized<std::vector<std::string>>>(0, 7);
///     std::vector<std::string> names = r.wait();
template <class T>
class [[nodiscard]] serialized_request
    : public detail::request_face<
          detail::decoding_receive<detail::probing_receive<serialized_bytes>, T>> {
  using face =
      detail::request_face<detail::decoding_receive<detail::probing_receive<serialized_bytes>, T>>;

 public:
  /// A request that matches nothing.
  serialized_request() = default;
  /// Will receive from source with tag on comm; asks once (MPI_Improbe) whether it is there.
  serialized_request(MPI_Comm comm, int source, int tag)
      : face(std::in_place, detail::probing_receive<serialized_bytes>(comm, source, tag)) {
    static_cast<void>(detail::request_access::try_start(*this));
  }
};

}  // namespace thinmpi
