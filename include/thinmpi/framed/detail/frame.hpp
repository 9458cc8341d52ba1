#pragma once
/// \file
/// The framed protocol's wire format (framed/channel.hpp): how a payload of T splits into a frame
/// and a continuation, the header at the end of a full frame, and the storage a frame is received
/// into. Shared by the blocking receive and framed_request, so both read frames one way.
///
/// A frame holds the largest whole number of T within the channel's frame size F bytes:
/// frame_count = F / sizeof(T), frame_bytes = frame_count * sizeof(T). A payload of fewer than
/// frame_count elements is sent as itself. A larger one is sent as a first message that the
/// receive of one frame recognises by its size, then a continuation (MPI_BYTE) on the channel's
/// private communicator, with the tag the header names, from the same process:
/// - a full frame: frame_bytes, whose last 16 bytes are the frame_header and the bytes before
///   it the payload's first bytes; the continuation is the rest. Bytes (std::string, serialized
///   encodings) are always framed so, as every smaller size is a payload; wider elements are
///   from one frame up to two, where the frame carries most of the payload and the rest is
///   small (on Open MPI both messages are then eager, where the payload alone would not be);
/// - a short frame, for elements wider than a byte from two frames up: the 16-byte frame_header
///   in whole elements and one byte more (17 bytes for 2-, 4-, 8- and 16-byte elements), a size
///   no plain payload of whole elements can have; the continuation is the whole payload, so
///   the frame costs what a tiny message costs and nothing is copied.
/// Every message of the protocol is MPI_BYTE (a short frame is not whole elements).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <ranges>
#include <string>
#include <type_traits>
#include <vector>

#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/default_init_allocator.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"

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
  std::size_t count;        ///< elements of T in a full frame
  std::size_t bytes;        ///< bytes of a full frame: count * sizeof(T)
  std::size_t short_bytes;  ///< bytes of a short frame; 0 where frames are full (see above)
  /// Payload bytes a full frame carries (the rest of it is the header).
  [[nodiscard]] std::size_t carried() const noexcept { return bytes - frame_header_bytes; }
};

/// The first message of a framed payload: its size, where its header is, and how many of the
/// payload's bytes it carries (the continuation starts there).
struct frame_plan {
  std::size_t bytes;
  std::size_t header_at;
  std::size_t carried;
  /// A full frame: the payload's first bytes, the header at its end.
  [[nodiscard]] static frame_plan full(const frame_shape& shape) noexcept {
    return {shape.bytes, shape.carried(), shape.carried()};
  }
  /// A short frame: the header, then padding; it carries none of the payload.
  [[nodiscard]] static frame_plan shortened(const frame_shape& shape) noexcept {
    return {shape.short_bytes, 0, 0};
  }
  /// The first message a sender makes for a payload of `total` bytes (a frame or more): short
  /// from two frames up where elements have one, else full.
  [[nodiscard]] static frame_plan sent_for(const frame_shape& shape, std::size_t total) noexcept {
    return shape.short_bytes != 0 && total >= 2 * shape.bytes ? shortened(shape) : full(shape);
  }
  [[nodiscard]] bool is_short() const noexcept { return carried == 0; }
};

/// Bytes of a short frame for elements of `element_size` bytes: the header rounded up to whole
/// elements, and one byte more. 0 for bytes, or where it would not fit in a full frame.
[[nodiscard]] constexpr std::size_t short_frame_bytes(std::size_t element_size,
                                                      std::size_t frame_bytes) noexcept {
  if (element_size < 2) return 0;
  const std::size_t size =
      (frame_header_bytes + element_size - 1) / element_size * element_size + 1;
  return size < frame_bytes ? size : 0;
}

/// How a payload of elements of `element_size` bytes splits (frame_for has checked that it can).
[[nodiscard]] inline frame_shape shape_of(std::size_t frame_size, std::size_t element_size) {
  const std::size_t bytes = frame_size / element_size * element_size;
  return {frame_size / element_size, bytes, short_frame_bytes(element_size, bytes)};
}

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
  raise(MPI_ERR_ARG, error_site{.operation = operation,
                                .type = type,
                                .problem = "a frame of " + std::to_string(frame_size) +
                                           " bytes has no room for an element of " +
                                           counted(element_size, "byte", "bytes") +
                                           " after its 16-byte header"});
}

/// The smallest frame size a channel accepts (framed_channel's constructor checks it).
inline constexpr std::size_t min_frame_bytes = 64;

/// How a payload of T splits in a channel's frame of `frame_size` bytes, once checked that a
/// frame of T can be formed: T's elements are their bytes on the wire (no padding, which MPI
/// would not carry) and a frame holds the header and at least one element. A channel's frame is
/// at least min_frame_bytes (its constructor throws otherwise); said to the compiler, the room
/// check folds away for elements of up to 48 bytes (one compare and branch less on every send
/// and receive) and stays a run-time compare for wider ones. It must stay written: without it
/// GCC 12 cannot tell that the payload's share of a frame (bytes - 16) does not wrap, and
/// rejects the copy that fills the frame (-Wstringop-overflow).
template <class T>
[[gnu::always_inline]] inline frame_shape frame_for(std::size_t frame_size, const char* operation) {
  if (frame_size < min_frame_bytes) __builtin_unreachable();
  const frame_shape shape = shape_of(frame_size, sizeof(T));
  const bool padded = wire_size<T>() != sizeof(T);
  if (padded || shape.bytes <= frame_header_bytes) [[unlikely]] {
    raise_frame_problem(padded, frame_size, sizeof(T), datatype_of<T>(), operation);
  }
  return shape;
}

/// Whether Container can be sized without writing its elements (std::vector with
/// thinmpi::default_init_allocator): a frame larger than the stack's scratch is then received
/// into the container itself, and a small payload copied into it unzeroed. Otherwise a frame
/// goes to scratch storage and the received elements are copied into a new container once.
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
/// one allocation of exactly the payload and one copy (std::vector and std::string cannot be
/// sized unwritten; a vector with default_init_allocator is sized unwritten, then copied into).
template <class Container>
[[gnu::always_inline]] inline Container copied_from(const std::byte* bytes, std::size_t count) {
  using element = std::ranges::range_value_t<Container>;
  if constexpr (receives_in_place<Container>) {
    Container result(count);  // writes nothing
    if (count != 0) std::memcpy(result.data(), bytes, count * sizeof(element));
    return result;
  } else {
    const auto* first = reinterpret_cast<const element*>(bytes);
    return Container(first, first + count);
  }
}

/// The header of a first message received as `plan` says.
[[nodiscard]] inline frame_header header_of(const std::byte* frame, const frame_plan& plan) {
  frame_header header{};
  std::memcpy(&header, frame + plan.header_at, sizeof header);
  return header;
}

/// Reports a first message whose `header` check_header refused (cold: the report is built only
/// here).
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_bad_header(
    const frame_header& header, const frame_shape& shape, const frame_plan& plan,
    std::size_t element_size, const char* operation, MPI_Comm comm, int source, int tag) {
  std::string problem;
  if (header.magic != frame_header::frame_magic) {
    problem =
        (plan.is_short()
             ? "a message of " + counted(plan.bytes, "byte", "bytes") + " (partial elements of " +
                   counted(element_size, "byte", "bytes") + ", a short frame's size)"
             : "a message of exactly one frame (" + std::to_string(shape.bytes) + " bytes)") +
        " arrived without a frame header: a payload of one frame or more must be "
        "sent with framed_channel::send() with the same frame size";
  } else {
    problem = "the frame header is not valid for elements of " +
              counted(element_size, "byte", "bytes") + " (total " +
              std::to_string(header.total_bytes) + " bytes, continuation tag " +
              std::to_string(header.continuation_tag) + ")";
  }
  raise(MPI_ERR_OTHER, error_site{.operation = operation,
                                  .comm = comm,
                                  .peer_role = "source",
                                  .peer = source,
                                  .tag = tag,
                                  .incoming_bytes = plan.bytes,
                                  .problem = problem});
}

/// Throws unless `header` is one framed_channel::send wrote for elements of `element_size`
/// bytes: a plain message of exactly one frame, a message of partial elements of the short
/// frame's size, or a frame of another frame size, is reported, never misread.
inline void check_header(const frame_header& header, const frame_shape& shape,
                         const frame_plan& plan, std::size_t element_size, int tag_ub,
                         const char* operation, MPI_Comm comm, int source, int tag) {
  if (header.magic != frame_header::frame_magic || header.total_bytes < shape.bytes ||
      header.total_bytes % element_size != 0 ||
      header.continuation_tag > static_cast<std::uint32_t>(tag_ub)) [[unlikely]] {
    raise_bad_header(header, shape, plan, element_size, operation, comm, source, tag);
  }
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
                              counted(arrived, "byte", "bytes") + " where its frame announced " +
                              std::to_string(expected)});
}

/// Fills `frame` (plan.bytes) with the payload's first bytes (a full frame), the header, and
/// zeros after it (a short frame's last bytes).
inline void write_frame(std::byte* frame, const frame_plan& plan, const void* payload,
                        const frame_header& header) {
  std::memcpy(frame, payload, plan.carried);
  std::memcpy(frame + plan.header_at, &header, sizeof header);
  const std::size_t end = plan.header_at + sizeof header;
  std::memset(frame + end, 0, plan.bytes - end);
}

/// What a sender posts after the first message: the payload's bytes from where the frame's
/// carried bytes end (the twin of continuation_of on the receiving side).
inline const_buffer continuation_sent(const const_buffer& whole, const frame_plan& plan,
                                      const frame_header& header) noexcept {
  return {static_cast<const std::byte*>(whole.data) + plan.carried,
          static_cast<std::size_t>(header.total_bytes) - plan.carried, MPI_BYTE};
}

}  // namespace thinmpi::detail
