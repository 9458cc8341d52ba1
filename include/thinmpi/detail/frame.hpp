#pragma once
/// \file
/// The framed protocol's wire format (framed.hpp): how a payload of T splits into a frame and a
/// continuation, the header at the end of a full frame, and the storage a frame is received
/// into. Shared by the blocking receive and framed_request, so both read frames one way.
///
/// A frame holds the largest whole number of T within the channel's frame size F bytes:
/// frame_count = F / sizeof(T), frame_bytes = frame_count * sizeof(T). A payload of fewer than
/// frame_count elements is sent as itself. A larger one is sent as a full frame (frame_count
/// elements of T, whose last 16 bytes are a frame_header, the bytes before it the payload's
/// first bytes) and a continuation of the remaining bytes (MPI_BYTE) on the channel's private
/// communicator, with the tag the header names, from the same process.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <ranges>
#include <string>
#include <type_traits>
#include <vector>

#include "thinmpi/datatype.hpp"
#include "thinmpi/default_init_allocator.hpp"
#include "thinmpi/detail/mpi.hpp"
#include "thinmpi/detail/raise.hpp"

namespace thinmpi::detail {

/// The last 16 bytes of a full frame.
struct frame_header {
  std::uint64_t total_bytes;          ///< the whole payload's bytes (at least frame_bytes)
  std::uint32_t continuation_tag;     ///< tag of the continuation on the private communicator
  std::uint32_t magic = frame_magic;  ///< tells a frame from a plain message of the same size
  static constexpr std::uint32_t frame_magic = 0x7f4d5046;  // "FPM\x7f"
};
static_assert(sizeof(frame_header) == 16);

inline constexpr std::size_t frame_header_bytes = sizeof(frame_header);

/// How a payload of T splits for a channel of frame size F bytes.
struct frame_shape {
  std::size_t count;  ///< elements of T in a frame
  std::size_t bytes;  ///< bytes of a frame: count * sizeof(T)
  /// Payload bytes a full frame carries (the rest of it is the header).
  [[nodiscard]] std::size_t carried() const noexcept { return bytes - frame_header_bytes; }
};

/// Why a frame of T cannot be formed (cold: only after a check below failed).
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_frame_problem(bool padded,
                                                                       std::size_t frame_size,
                                                                       std::size_t element_size,
                                                                       MPI_Datatype type,
                                                                       const char* operation) {
  if (padded) {
    raise(MPI_ERR_TYPE,
          error_site{.operation = operation,
                     .type = type,
                     .problem = "the framed protocol moves elements as their bytes, and this "
                                "element type has padding that MPI does not carry; send it with "
                                "send()/recv<std::vector<T>>() instead"});
  }
  raise(MPI_ERR_ARG,
        error_site{.operation = operation,
                   .type = type,
                   .problem = "a frame of " + std::to_string(frame_size) +
                              " bytes has no room for an element of " +
                              std::to_string(element_size) + " bytes after its 16-byte header"});
}

/// How a payload of T splits, once checked that a frame of T can be formed: T's elements are
/// their bytes on the wire (no padding, which MPI would not carry) and a frame holds the header
/// and at least one element. Two comparisons on the hot path (one for predefined types).
template <class T>
[[gnu::always_inline]] inline frame_shape frame_for(std::size_t frame_size, const char* operation) {
  const frame_shape shape{frame_size / sizeof(T), frame_size / sizeof(T) * sizeof(T)};
  const bool padded = wire_size<T>() != sizeof(T);
  if (padded || shape.bytes <= frame_header_bytes) [[unlikely]] {
    raise_frame_problem(padded, frame_size, sizeof(T), datatype_of<T>(), operation);
  }
  return shape;
}

/// Whether Container can be sized without writing its elements, so a frame is received into the
/// container itself (std::vector with thinmpi::default_init_allocator); otherwise a frame goes
/// to scratch storage and the received elements are copied into a new container once.
template <class Container>
inline constexpr bool receives_in_place = false;
template <class T, class Base>
inline constexpr bool receives_in_place<std::vector<T, default_init_allocator<T, Base>>> = true;

/// The frame size F when a channel is given none: the largest message the MPI library sends
/// eagerly between two processes of one node, so that a frame is one eager message and never a
/// rendezvous of its own in front of the continuation. Measured with plain C ping-pongs on
/// Debian 12 (docs/library.md): Open MPI 4.1.4's shared-memory transport (vader) sends up to
/// 4040 payload bytes eagerly (4 KiB less its headers; 4048 bytes take 3.5x as long), MPICH
/// 4.0.2 (ch4:ucx) up to 8192 (8256 bytes take 3.9x as long). Both have rounded margins: a
/// frame of 4032 bytes (63 cache lines) and one of 8192.
#if defined(OPEN_MPI)
inline constexpr std::size_t default_frame_bytes = 4032;
#else
inline constexpr std::size_t default_frame_bytes = 8192;
#endif

/// Storage of one frame that is not the container: on the stack up to this size.
inline constexpr std::size_t stack_frame_bytes = 8192;

/// Heap storage for a frame, not zeroed.
[[nodiscard]] inline std::unique_ptr<std::byte[]> frame_storage(std::size_t bytes) {
  return std::unique_ptr<std::byte[]>(new std::byte[bytes]);
}

/// A new container of the `count` elements of T at `bytes` (a frame received into scratch):
/// one allocation and one copy, as std::vector and std::string cannot be sized unwritten.
template <class Container>
Container copied_from(const std::byte* bytes, std::size_t count) {
  using element = std::ranges::range_value_t<Container>;
  const auto* first = reinterpret_cast<const element*>(bytes);
  return Container(first, first + count);
}

/// The header at the end of a full frame.
[[nodiscard]] inline frame_header header_of(const std::byte* frame, const frame_shape& shape) {
  frame_header header{};
  std::memcpy(&header, frame + shape.carried(), sizeof header);
  return header;
}

/// Throws unless `header` is one framed_channel::send wrote for elements of `element_size`
/// bytes: a plain message of exactly one frame, or a frame of another frame size, is reported,
/// never misread.
inline void check_header(const frame_header& header, const frame_shape& shape,
                         std::size_t element_size, int tag_ub, const char* operation, MPI_Comm comm,
                         int source, int tag) {
  std::string problem;
  if (header.magic != frame_header::frame_magic) {
    problem = "a message of exactly one frame (" + std::to_string(shape.bytes) +
              " bytes) arrived without a frame header: a payload of one frame or more must be "
              "sent with framed_channel::send() with the same frame size";
  } else if (header.total_bytes < shape.bytes || header.total_bytes % element_size != 0 ||
             header.continuation_tag > static_cast<std::uint32_t>(tag_ub)) {
    problem = "the frame header is not valid for elements of " + std::to_string(element_size) +
              " bytes (total " + std::to_string(header.total_bytes) + " bytes, continuation tag " +
              std::to_string(header.continuation_tag) + ")";
  } else {
    return;
  }
  raise(MPI_ERR_OTHER, error_site{.operation = operation,
                                  .comm = comm,
                                  .peer_role = "source",
                                  .peer = source,
                                  .tag = tag,
                                  .incoming_bytes = shape.bytes,
                                  .problem = problem});
}

/// Throws for a continuation whose size is not what the header announced.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_short_continuation(
    std::size_t expected, std::size_t arrived, const char* operation, MPI_Comm comm, int source) {
  raise(MPI_ERR_TRUNCATE,
        error_site{.operation = operation,
                   .comm = comm,
                   .peer_role = "source",
                   .peer = source,
                   .incoming_bytes = arrived,
                   .problem = "the continuation of a framed message brought " +
                              std::to_string(arrived) + " bytes where its frame announced " +
                              std::to_string(expected)});
}

/// Fills `frame` (shape.bytes) with the payload's first bytes and the header.
inline void write_frame(std::byte* frame, const frame_shape& shape, const void* payload,
                        const frame_header& header) {
  std::memcpy(frame, payload, shape.carried());
  std::memcpy(frame + shape.carried(), &header, sizeof header);
}

}  // namespace thinmpi::detail
