#pragma once
/// \file
/// What a node_channel receive does with a message once its header is known (the sinks of
/// detail/inbox.hpp): the element check every message gets, then one of three targets, the
/// caller's memory (bounded or exact), a new container of the message's size, or the encoded
/// bytes of a serialized value. Each also receives the same payload from another node through
/// the framed protocol (from_remote).

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/core/detail/status_bytes.hpp"
#include "thinmpi/core/status.hpp"
#include "thinmpi/framed/channel.hpp"
#include "thinmpi/node/detail/inbox.hpp"
#include "thinmpi/node/detail/ring.hpp"
#include "thinmpi/p2p/detail/sized_for.hpp"

namespace thinmpi::detail::node {

/// What a message's elements are, checked by the receive (with their size).
enum element_kind : std::uint8_t {
  signed_integer = 1,
  unsigned_integer = 2,
  floating = 3,
  character = 4,  ///< char, signed/unsigned char, char8_t, std::byte: bytes of text or data
  boolean = 5,
  complex_number = 6,
  record = 7,   ///< any other trivially copyable type: checked by its size only
  encoded = 8,  ///< the bytes of a serialized value
};

template <class>
inline constexpr bool is_complex = false;
template <class F>
inline constexpr bool is_complex<std::complex<F>> = true;

template <class E>
constexpr std::uint8_t kind_of() {
  if constexpr (std::is_enum_v<E>) {
    return kind_of<std::underlying_type_t<E>>();
  } else if constexpr (std::is_same_v<E, bool>) {
    return boolean;
  } else if constexpr (std::is_same_v<E, char> || std::is_same_v<E, signed char> ||
                       std::is_same_v<E, unsigned char> || std::is_same_v<E, char8_t> ||
                       std::is_same_v<E, std::byte>) {
    return character;
  } else if constexpr (std::is_floating_point_v<E>) {
    return floating;
  } else if constexpr (std::is_integral_v<E>) {
    return std::is_signed_v<E> ? signed_integer : unsigned_integer;
  } else if constexpr (is_complex<E>) {
    return complex_number;
  } else {
    return record;
  }
}

inline const char* kind_name(std::uint8_t kind) noexcept {
  switch (kind & ~kind_by_mpi) {
    case signed_integer:
      return "signed integer";
    case unsigned_integer:
      return "unsigned integer";
    case floating:
      return "floating-point";
    case character:
      return "character or byte";
    case boolean:
      return "bool";
    case complex_number:
      return "complex";
    case record:
      return "record";
    case encoded:
      return "serialized";
    default:
      return "unknown";
  }
}

/// The size a header records for elements of `bytes` bytes (255 stands for 255 or more).
[[nodiscard]] constexpr std::uint8_t size_code(std::size_t bytes) noexcept {
  return bytes < 255 ? static_cast<std::uint8_t>(bytes) : std::uint8_t{255};
}

/// The header of a message of `bytes` bytes of E (or of encoded bytes).
template <class E>
[[nodiscard]] constexpr message_header header_of(int tag, int source, std::size_t bytes,
                                                 std::uint8_t kind = kind_of<E>()) noexcept {
  return {tag, static_cast<std::uint16_t>(source), size_code(sizeof(E)), kind,
          static_cast<std::uint32_t>(bytes)};
}

/// Whether a message of header `h` may be received as elements of E (kind `kind`); sets
/// `problem` if not.
template <class E>
[[nodiscard]] bool element_fits(const message_header& h, std::string& problem,
                                std::uint8_t kind = kind_of<E>()) {
  const std::uint8_t sent = h.kind & static_cast<std::uint8_t>(~kind_by_mpi);
  if (sent == kind && h.element_size == size_code(sizeof(E)) && h.bytes % sizeof(E) == 0)
    return true;
  problem = "the message holds " + std::to_string(h.bytes) + " bytes of " + kind_name(sent) +
            " elements of " + std::to_string(h.element_size) + (h.element_size == 255 ? "+" : "") +
            " bytes; the receive asked for " + kind_name(kind) + " elements of " +
            std::to_string(sizeof(E)) + " bytes";
  return false;
}

/// An MPI_Status that says what a node_channel receive got.
[[nodiscard]] inline MPI_Status make_status(int source, int tag, std::size_t bytes) noexcept {
  MPI_Status raw{};
  raw.MPI_SOURCE = source;
  raw.MPI_TAG = tag;
  raw.MPI_ERROR = MPI_SUCCESS;
  set_status_bytes(raw, bytes);
  return raw;
}

/// Why a message of `arrived` bytes from another node does not fit `capacity` elements of
/// `size` bytes (unknown_count: any number).
inline std::string remote_unfit(std::size_t arrived, std::size_t size, std::size_t capacity,
                                bool exact) {
  if (arrived % size != 0) {
    return "the message holds " + std::to_string(arrived) + " bytes, not a whole number of " +
           std::to_string(size) + "-byte elements (the message was taken and dropped)";
  }
  return "the message holds " + std::to_string(arrived / size) + " elements; the receive " +
         (exact ? "needs exactly " : "has room for ") + std::to_string(capacity) +
         " (the message was taken and dropped)";
}

/// Throws MPI_ERR_TRUNCATE for a message of `arrived` bytes from another node (status `got`)
/// that does not fit `capacity` elements of `size` bytes (unknown_count: any number).
[[noreturn]] inline void raise_remote_unfit(const framed_channel& remote, const status& got,
                                            std::size_t arrived, std::size_t size,
                                            std::size_t capacity, bool exact) {
  raise(MPI_ERR_TRUNCATE,
        error_site{.operation = "thinmpi::node_channel::recv",
                   .comm = remote.comm().native(),
                   .peer_role = "source",
                   .peer = got.source(),
                   .tag = got.tag(),
                   .count = capacity == unknown_count ? std::nullopt
                                                      : std::optional<std::size_t>(capacity),
                   .incoming_bytes = arrived,
                   .problem = remote_unfit(arrived, size, capacity, exact)});
}

/// Into memory the caller has: `capacity` elements of E at `data`; `exact`: the message
/// must fill them.
template <class E>
struct buffer_sink {
  E* data;
  std::size_t capacity;
  bool exact;
  std::size_t bytes = 0;
  std::int32_t tag = 0;
  int node_source = 0;

  std::byte* open(const message_header& h, std::string& problem) {
    if (!element_fits<E>(h, problem)) return nullptr;
    const std::size_t count = h.bytes / sizeof(E);
    if (count > capacity || (exact && count != capacity)) {
      problem = "the message holds " + std::to_string(count) + " elements; the receive " +
                (exact ? "needs exactly " : "has room for ") + std::to_string(capacity);
      return nullptr;
    }
    return reinterpret_cast<std::byte*>(data);
  }
  void close(const message_header& h) noexcept {
    bytes = h.bytes;
    tag = h.tag;
    node_source = h.source;
  }
  [[nodiscard]] std::size_t received_bytes() const noexcept { return bytes; }
  /// The same from a rank of another node: a framed receive of the bytes, then a copy into
  /// the caller's memory (another node's message costs one copy more than one of this node,
  /// and carries no element kind: only its size is checked).
  MPI_Status from_remote(const framed_channel& remote, int source, int tag_asked) {
    auto got = remote.recv_with_status<std::vector<std::byte>>(source, tag_asked);
    const std::size_t arrived = got.value.size();
    const std::size_t count = arrived / sizeof(E);
    if (arrived % sizeof(E) != 0 || count > capacity || (exact && count != capacity)) {
      raise_remote_unfit(remote, got.status, arrived, sizeof(E), capacity, exact);
    }
    if (arrived != 0) std::memcpy(data, got.value.data(), arrived);
    return make_status(got.status.source(), got.status.tag(), arrived);
  }
};

/// Into a new container C (std::vector, std::string) of the message's size.
template <class C>
struct container_sink {
  using element = std::ranges::range_value_t<C>;
  C value{};
  std::int32_t tag = 0;
  int node_source = 0;

  std::byte* open(const message_header& h, std::string& problem) {
    if (!element_fits<element>(h, problem)) return nullptr;
    value = with_count<C>(h.bytes / sizeof(element));
    // A zero-length container's data() may be null: any non-null address does for no bytes.
    return value.empty() ? reinterpret_cast<std::byte*>(this)
                         : reinterpret_cast<std::byte*>(std::ranges::data(value));
  }
  void close(const message_header& h) noexcept {
    tag = h.tag;
    node_source = h.source;
  }
  [[nodiscard]] std::size_t received_bytes() const noexcept {
    return value.size() * sizeof(element);
  }
  /// The same from a rank of another node: its bytes by the framed protocol, then copied.
  MPI_Status from_remote(const framed_channel& remote, int source, int tag_asked) {
    auto got = remote.recv_with_status<std::vector<std::byte>>(source, tag_asked);
    const std::size_t arrived = got.value.size();
    if (arrived % sizeof(element) != 0) {
      raise_remote_unfit(remote, got.status, arrived, sizeof(element), unknown_count, false);
    }
    value = with_count<C>(arrived / sizeof(element));
    if (arrived != 0) std::memcpy(std::ranges::data(value), got.value.data(), arrived);
    return make_status(got.status.source(), got.status.tag(), arrived);
  }
};

/// The encoded bytes of serialized payload P, decoded on arrival.
template <class P>
struct encoded_sink {
  using value_type = typename P::thinmpi_serialized_value;
  std::optional<value_type> value;
  wire_bytes bytes;
  std::int32_t tag = 0;
  int node_source = 0;

  std::byte* open(const message_header& h, std::string& problem) {
    if (!element_fits<std::byte>(h, problem, encoded)) return nullptr;
    bytes.resize(h.bytes);
    return bytes.empty() ? reinterpret_cast<std::byte*>(this) : bytes.data();
  }
  void close(const message_header& h) noexcept {
    tag = h.tag;
    node_source = h.source;
  }
  [[nodiscard]] std::size_t received_bytes() const noexcept { return bytes.size(); }
  /// Decodes the bytes received from this node (errors name `raw`'s source and tag).
  void decode(MPI_Comm comm, const MPI_Status& raw) {
    value.emplace(P::decode(std::span<const std::byte>(bytes.data(), bytes.size()), comm, raw));
  }
  MPI_Status from_remote(const framed_channel& remote, int source, int tag_asked) {
    auto got = remote.recv_with_status<P>(source, tag_asked);
    value.emplace(std::move(got.value));
    return got.status.native();
  }
};

}  // namespace thinmpi::detail::node
