#pragma once
/// \file
/// The one request that receives a value's encoded bytes, then decodes them: the kind behind
/// serialized_request (bytes of unknown size, probed: p2p) and framed_serialized_request (bytes
/// in frames: framed_channel). Either way the bytes arrive through another request's kind, and
/// once they have all arrived they are decoded once, errors naming the message's source and tag.

#include <cstddef>
#include <optional>
#include <span>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/p2p/requests.hpp"
#include "thinmpi/requests/detail/request_access.hpp"
#include "thinmpi/requests/request_face.hpp"
#include "thinmpi/serialization/codec.hpp"

namespace thinmpi::detail {

namespace serial {

/// The site a decode error of a received message names: its source and tag.
inline error_site received_site(MPI_Comm comm, const MPI_Status& raw) {
  return {.operation = "thinmpi::decode",
          .comm = comm,
          .peer_role = "source",
          .peer = raw.MPI_SOURCE,
          .tag = raw.MPI_TAG};
}

/// Decodes a received message as T, naming the receive in the error.
template <class T>
T decode_received(std::span<const std::byte> bytes, MPI_Comm comm, const MPI_Status& raw) {
  return decode_in<T>(bytes, received_site(comm, raw));
}

/// Decodes a received message into value (decode_into: value's storage reused, value emptied on
/// a failure), naming the receive in the error.
template <class T>
void decode_received_into(std::span<const std::byte> bytes, T& value, MPI_Comm comm,
                          const MPI_Status& raw) {
  decode_into(bytes, value, received_site(comm, raw));
}

}  // namespace serial

/// The kind (requests/request_face.hpp) of a request that receives a T's encoded bytes through
/// Bytes, the kind of a receive of wire_bytes with
///   wire_bytes result()                   the bytes, once arrived
///   thinmpi::status last_status() const   the message's status (of its first frame, if framed:
///                                         the source and tag the caller asked for)
///   MPI_Comm comm() const                 where the message came from
/// and decodes them as T when they have all arrived.
template <class Bytes, class T>
struct decoding_receive {
  Bytes bytes_{};
  std::optional<T> value_{};

  MPI_Request& posted_handle() noexcept { return request_access::handle(bytes_); }
  [[nodiscard]] bool awaiting_start() const noexcept {
    return request_access::awaiting_start(bytes_);
  }
  bool try_start() { return request_access::try_start(bytes_); }
  void start() { request_access::start(bytes_); }
  void give_up() noexcept { request_access::give_up(bytes_); }
  void complete_stage(int rc, const MPI_Status& raw) {
    request_access::complete(bytes_, rc, raw);
    if (request_access::active(bytes_) || was_cancelled(raw)) return;
    const MPI_Status first = bytes_.last_status().native();
    const wire_bytes bytes = bytes_.result();
    value_ = serial::decode_received<T>(bytes, bytes_.comm(), first);
  }
  T result() { return value_ ? std::move(*std::exchange(value_, std::nullopt)) : T{}; }
  [[nodiscard]] thinmpi::status last_status() const noexcept { return bytes_.last_status(); }
};

}  // namespace thinmpi::detail
