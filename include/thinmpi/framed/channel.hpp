#pragma once
/// \file
/// framed_channel: an opt-in protocol for receives of unknown size that costs what a receive of
/// known size costs. A payload smaller than the frame size F is sent as itself (one message of
/// its bytes, the bytes send() sends); the receiver posts one MPI_Recv of F bytes and needs no
/// probe. A payload of F bytes or more goes as a frame that the receive tells by its size (a
/// full frame of F bytes: its first bytes, then a 16-byte header with its length; or, for
/// elements wider than a byte from 2F up, a short frame of the header and one byte) and one
/// continuation, which only this channel's private communicator carries. detail/frame.hpp has
/// the wire format, detail/receive.hpp the receiving steps, requests.hpp the nonblocking
/// requests. A serialized value (thinmpi::serialized, reached through
/// detail/serialized_hook.hpp) travels as its encoded bytes.
///
///     thinmpi::framed_channel channel(world);             // collective: one MPI_Comm_dup
///     std::vector<int> values(n);
///     channel.send(values, 1, tag);                        // 1 message, 2 from F bytes up
///     auto got = channel.recv<std::vector<int>>(0, tag);   // 1 MPI_Recv, 2 from F bytes up
///     std::vector<std::string> names = {"ada", "grace"};
///     channel.send(thinmpi::serialized(names), 1, tag);    // encoded once, then framed
///     auto decoded = channel.recv<thinmpi::serialized<std::vector<std::string>>>(0, tag);

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <ranges>
#include <string>
#include <type_traits>
#include <utility>

#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/core/status.hpp"
#include "thinmpi/framed/detail/frame.hpp"
#include "thinmpi/framed/detail/receive.hpp"
#include "thinmpi/framed/requests.hpp"
#include "thinmpi/p2p/detail/calls.hpp"
#include "thinmpi/p2p/detail/errors.hpp"
#include "thinmpi/p2p/recv.hpp"

namespace thinmpi {

/// The framed protocol between the ranks of a communicator: receives of unknown size with no
/// probe. Construction is collective (one MPI_Comm_dup, for continuations only, and a check that
/// every rank gave the same frame size). A payload of fewer than F bytes (F = frame_size, in
/// whole elements) is one message of its own bytes, as send() sends it, which any receive may
/// take; from F bytes up a payload is two messages and must be received by this channel's
/// recv/irecv with the same frame size. Thread-safe as MPI is (MPI_THREAD_MULTIPLE for several
/// threads): a continuation is matched by the exact source of its frame and a tag the frame
/// names, on a communicator only the channel uses, so no other receive can take it. Move-only.
///
///     thinmpi::framed_channel channel(world, 4096);
///     channel.send(std::string("hello"), 1, 0);
///     auto text = channel.recv<std::string>(thinmpi::any_source, 0);
class framed_channel {
 public:
  /// The frame size when none is given: the largest message the MPI library sends eagerly
  /// within a node (4032 bytes on Open MPI, 8192 on MPICH), so a frame is never a rendezvous.
  static constexpr std::size_t default_frame_size = detail::default_frame_bytes;

  /// Collective over comm: duplicates it for continuations (MPI_Comm_dup) and checks that every
  /// rank passed the same frame_size (at least 64 bytes), else throws on every rank.
  explicit framed_channel(comm_view comm, std::size_t frame_size = default_frame_size);

  /// Takes over other's private communicator (other is left without one) and continuation tags.
  framed_channel(framed_channel&& other) noexcept
      : comm_(other.comm_),
        continuation_(std::move(other.continuation_)),
        frame_size_(other.frame_size_),
        tag_ub_(other.tag_ub_),
        next_tag_(other.next_tag_.load(std::memory_order_relaxed)) {}
  /// Takes over other's private communicator and continuation tags (this one's own is freed).
  framed_channel& operator=(framed_channel&& other) noexcept {
    comm_ = other.comm_;
    continuation_ = std::move(other.continuation_);
    frame_size_ = other.frame_size_;
    tag_ub_ = other.tag_ub_;
    next_tag_.store(other.next_tag_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
  }

  /// The communicator first frames and small payloads travel on.
  [[nodiscard]] comm_view comm() const noexcept { return comm_; }
  /// The frame size F in bytes: payloads below it are one message.
  [[nodiscard]] std::size_t frame_size() const noexcept { return frame_size_; }
  /// The communicator continuations travel on (MPI_Comm_dup of comm()), for inspection.
  [[nodiscard]] comm_view continuation_comm() const noexcept { return continuation_; }

  /// Sends a contiguous payload (vector, string, span, array...): below the frame size, one
  /// MPI_Send exactly as comm().send(payload, ...); from it up, a frame and a continuation.
  /// A serialized payload (thinmpi::serialized(x)) is encoded first (one size pass, one
  /// allocation, one copy pass), then its bytes are sent so. Inlined into the caller, so that
  /// below the frame size it is a compare and the MPI_Send there (a call of its own cost 20
  /// instructions a message more, gcc 12); frames are sent out of line.
  template <class Payload>
  [[gnu::always_inline]] inline void send(const Payload& payload, int dest, int tag) const;
  /// send() without blocking; a named payload must outlive the returned request, a
  /// serialized payload's encoded bytes are owned by the request.
  template <class Payload>
  [[nodiscard]] framed_send_request isend(const Payload& payload, int dest, int tag) const;
  /// isend() of a temporary, or of a payload moved in: the request owns it until the send
  /// completes, as comm().isend() does (one allocation for the holder; a vector's or string's
  /// elements are moved, not copied).
  ///
  ///     auto sent = channel.isend(std::string(1000, 'q'), peer, tag);
  template <class Payload>
  requires(!std::is_lvalue_reference_v<Payload> && !detail::serialized_payload<Payload>)
      [[nodiscard]] framed_send_request isend(Payload&& payload, int dest, int tag) const;

  /// Receives a std::vector or std::string of any size sent by send()/isend(): one MPI_Recv of
  /// a frame; a second, from the frame's source, for payloads of a frame or more. For
  /// thinmpi::serialized<T>, receives the encoded bytes so (into one byte buffer) and returns
  /// the decoded T; a malformed encoding throws thinmpi::serialization_error.
  template <class Container>
  [[nodiscard, gnu::always_inline]] detail::received_value_t<Container> recv(int source,
                                                                             int tag) const {
    if constexpr (detail::serialized_payload<Container>) {
      return recv_with_status<Container>(source, tag).value;
    } else {
      MPI_Status raw;  // filled by the frame's MPI_Recv; nothing more is read from it here
      return receive_range<Container>(source, tag, raw);
    }
  }
  /// recv() with the status of the first frame, whose count is the whole payload's (in bytes
  /// for a serialized payload).
  template <class Container>
  [[nodiscard]] received<detail::received_value_t<Container>> recv_with_status(int source,
                                                                               int tag) const;
  /// Starts a framed receive without blocking (MPI_Irecv of a frame): a framed_request<C>, or
  /// for thinmpi::serialized<T> a framed_serialized_request that decodes on completion.
  template <class Container>
  [[nodiscard]] framed_irecv_t<Container> irecv(int source, int tag) const;

 private:
  template <class Container>
  static void require_framed_container() {
    static_assert(resizable_payload<Container>,
                  "thinmpi's framed protocol receives a std::vector or std::string of unknown "
                  "size; receive fixed-size payloads with comm().recv()");
    detail::require_writable<Container&>();
  }
  /// The framed protocol for a contiguous payload (send after any encoding). Inline: a payload
  /// smaller than a frame is a compare and the MPI_Send at the call site.
  template <class Payload>
  [[gnu::always_inline]] inline void send_range(const Payload& payload, int dest, int tag) const;
  /// send_range from one frame up (`total_bytes` of payload in elements of `element_size`
  /// bytes): a frame and its continuation.
  void send_frames(const void* payload, std::size_t total_bytes, std::size_t element_size, int dest,
                   int tag) const;
  template <class Payload>
  void start_isend(detail::framed_send& sending, const Payload& payload, int dest, int tag) const;
  /// The framed receive of a contiguous Container; raw gets the first frame's status. A payload
  /// smaller than a frame costs a compare and a copy after the MPI_Recv (as the same protocol
  /// in C does); frames, and frames larger than the stack's scratch, are received out of line
  /// (detail::received_rest, detail::receive_unstacked). Inlined with recv() into the caller,
  /// as C's receive is in its loop, so the caller's frame holds the 8 KiB scratch: out of line,
  /// the call, six saved registers and the returned container's address cost 28 instructions
  /// a message more (gcc 12, Open MPI).
  template <class Container>
  [[nodiscard, gnu::always_inline]] inline Container receive_range(int source, int tag,
                                                                   MPI_Status& raw) const;
  [[nodiscard]] detail::frame_route route() const noexcept {
    return {comm_.native(), continuation_.native(), tag_ub_};
  }
  /// The tag of the next continuation: distinct for the next tag_ub + 1 large payloads.
  [[nodiscard]] int next_continuation_tag() const noexcept {
    const std::uint32_t n = next_tag_.fetch_add(1, std::memory_order_relaxed);
    return static_cast<int>(n % (static_cast<std::uint32_t>(tag_ub_) + 1));
  }

  comm_view comm_;
  communicator continuation_;
  std::size_t frame_size_ = default_frame_size;
  int tag_ub_ = 32767;
  mutable std::atomic<std::uint32_t> next_tag_{0};
};

inline framed_channel::framed_channel(comm_view comm, std::size_t frame_size)
    : comm_(comm), frame_size_(frame_size) {
  continuation_ = comm.dup();
  tag_ub_ = comm.tag_ub();
  // Every rank must cut payloads the same way: compare the smallest and largest frame size.
  const long long mine = frame_size > static_cast<std::size_t>(1) << 40
                             ? 1LL << 40
                             : static_cast<long long>(frame_size);
  const long long given[2] = {mine, -mine};
  long long extremes[2] = {0, 0};
  detail::check(MPI_Allreduce(given, extremes, 2, MPI_LONG_LONG, MPI_MAX, comm.native()),
                "MPI_Allreduce", comm.native());
  if (extremes[0] != -extremes[1] || frame_size < detail::min_frame_bytes) {
    detail::raise(MPI_ERR_ARG,
                  detail::error_site{.operation = "thinmpi::framed_channel",
                                     .comm = comm.native(),
                                     .problem = "the frame size must be at least 64 bytes and the "
                                                "same on every rank; ranks gave " +
                                                std::to_string(-extremes[1]) + " to " +
                                                std::to_string(extremes[0]) + " bytes"});
  }
}

template <class Payload>
[[gnu::always_inline]] inline void framed_channel::send(const Payload& payload, int dest,
                                                        int tag) const {
  if constexpr (detail::serialized_payload<Payload>) {
    send_range(payload.encode(), dest, tag);
  } else {
    send_range(payload, dest, tag);
  }
}

template <class Payload>
[[gnu::always_inline]] inline void framed_channel::send_range(const Payload& payload, int dest,
                                                              int tag) const {
  static_assert(contiguous_payload<Payload>,
                "thinmpi's framed protocol sends contiguous ranges (vector, string, span, array); "
                "send a scalar with comm().send()");
  using element = std::ranges::range_value_t<Payload>;
  const detail::frame_shape shape = detail::frame_for<element>(frame_size_, "framed_channel::send");
  const detail::const_buffer whole = detail::send_buffer(payload);
  if (whole.count < shape.count) [[likely]] {
    const int rc = detail::send(whole.data, whole.count * sizeof(element), MPI_BYTE, dest, tag,
                                comm_.native());
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_send_of(rc, "MPI_Send", comm_.native(), dest, tag, payload);
    }
    return;
  }
  send_frames(whole.data, whole.count * sizeof(element), sizeof(element), dest, tag);
}

// Out of line (the frame's scratch is 8 KiB of stack), so send() inlines only its small path.
[[gnu::noinline]] inline void framed_channel::send_frames(const void* payload,
                                                          std::size_t total_bytes,
                                                          std::size_t element_size, int dest,
                                                          int tag) const {
  const detail::frame_shape shape = detail::shape_of(frame_size_, element_size);
  const detail::const_buffer whole{payload, total_bytes, MPI_BYTE};
  const detail::frame_header header{total_bytes,
                                    static_cast<std::uint32_t>(next_continuation_tag())};
  const detail::frame_plan plan = detail::frame_plan::sent_for(shape, header.total_bytes);
  const detail::const_buffer rest = detail::continuation_sent(whole, plan, header);
  const int continuation_tag = static_cast<int>(header.continuation_tag);
  // The frame's storage: the stack up to 8 KiB (every default frame), else the heap.
  alignas(std::max_align_t) std::byte stacked[detail::stack_frame_bytes];
  std::unique_ptr<std::byte[]> heap;
  std::byte* const frame = plan.bytes <= detail::stack_frame_bytes
                               ? stacked
                               : (heap = detail::frame_storage(plan.bytes)).get();
  detail::write_frame(frame, plan, whole.data, header);
  // The frame goes with MPI_Isend so that the continuation follows it at once rather than after
  // the frame's completion (one latency less from the receiver's view); it is waited for before
  // its storage goes, whatever the continuation's send returned.
  const detail::p2p_call call{"MPI_Isend", comm_.native(), dest, tag};
  const detail::const_buffer first{frame, plan.bytes, MPI_BYTE};
  MPI_Request frame_sent = MPI_REQUEST_NULL;
  const int rc =
      detail::isend(first.data, first.count, first.type, dest, tag, call.comm, &frame_sent);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    detail::raise_send(rc, call, first);
  }
  const int rest_rc =
      detail::send(rest.data, rest.count, MPI_BYTE, dest, continuation_tag, continuation_.native());
  const int frame_rc = MPI_Wait(&frame_sent, MPI_STATUS_IGNORE);
  if (rest_rc != MPI_SUCCESS) [[unlikely]] {
    detail::raise_send(
        rest_rc, {"MPI_Send (framed continuation)", continuation_.native(), dest, continuation_tag},
        rest);
  }
  if (frame_rc != MPI_SUCCESS) [[unlikely]] {
    detail::raise_send(frame_rc, {"MPI_Wait (framed frame)", call.comm, dest, tag}, first);
  }
}

template <class Payload>
framed_send_request framed_channel::isend(const Payload& payload, int dest, int tag) const {
  framed_send_request request;
  detail::framed_send& sending = request.kind();
  if constexpr (detail::serialized_payload<Payload>) {
    sending.encoded_ = payload.encode();  // the request owns what it sends
    start_isend(sending, sending.encoded_, dest, tag);
  } else {
    start_isend(sending, payload, dest, tag);
  }
  return request;
}

template <class Payload>
requires(!std::is_lvalue_reference_v<Payload> && !detail::serialized_payload<Payload>)
    framed_send_request framed_channel::isend(Payload&& payload, int dest, int tag)
const {
  framed_send_request request;
  detail::framed_send& sending = request.kind();
  // The holder's address never changes while the request moves, and neither do the elements.
  auto owned = std::make_shared<const std::remove_cvref_t<Payload>>(std::move(payload));
  const auto& held = *owned;
  sending.owned_ = std::move(owned);
  start_isend(sending, held, dest, tag);
  return request;
}

template <class Payload>
void framed_channel::start_isend(detail::framed_send& sending, const Payload& payload, int dest,
                                 int tag) const {
  static_assert(contiguous_payload<Payload>,
                "thinmpi's framed protocol sends contiguous ranges (vector, string, span, array); "
                "send a scalar with comm().isend()");
  detail::require_sendable<Payload>();
  using element = std::ranges::range_value_t<Payload>;
  const detail::frame_shape shape =
      detail::frame_for<element>(frame_size_, "framed_channel::isend");
  const detail::const_buffer whole = detail::send_buffer(payload);
  sending.call_ = {"MPI_Isend", comm_.native(), dest, tag};
  const auto post = [&](const detail::const_buffer& buffer, MPI_Comm comm, int message_tag,
                        MPI_Request& handle) {
    const int rc =
        detail::isend(buffer.data, buffer.count, buffer.type, dest, message_tag, comm, &handle);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_send(rc, {"MPI_Isend", comm, dest, message_tag}, buffer);
    }
  };
  if (whole.count < shape.count) [[likely]] {
    post({whole.data, whole.count * sizeof(element), MPI_BYTE}, comm_.native(), tag,
         sending.handles_[0]);
    return;
  }
  const detail::frame_header header{whole.count * sizeof(element),
                                    static_cast<std::uint32_t>(next_continuation_tag())};
  const detail::frame_plan plan = detail::frame_plan::sent_for(shape, header.total_bytes);
  sending.frame_ = detail::frame_storage(plan.bytes);
  detail::write_frame(sending.frame_.get(), plan, whole.data, header);
  post({sending.frame_.get(), plan.bytes, MPI_BYTE}, comm_.native(), tag, sending.handles_[0]);
  post(detail::continuation_sent(whole, plan, header), continuation_.native(),
       static_cast<int>(header.continuation_tag), sending.handles_[1]);
}

template <class Container>
received<detail::received_value_t<Container>> framed_channel::recv_with_status(int source,
                                                                               int tag) const {
  MPI_Status raw;  // filled by the frame's MPI_Recv before it is read
  if constexpr (detail::serialized_payload<Container>) {
    // Frame and continuation land in one byte buffer (received in place), decoded from there.
    const auto bytes = receive_range<detail::wire_bytes>(source, tag, raw);
    return {Container::decode(bytes, comm_.native(), raw), status(raw, MPI_BYTE)};
  } else {
    using element = std::ranges::range_value_t<Container>;
    Container value = receive_range<Container>(source, tag, raw);
    return {std::move(value), status(raw, datatype_of<element>())};
  }
}

template <class Container>
[[gnu::always_inline]] inline Container framed_channel::receive_range(int source, int tag,
                                                                      MPI_Status& raw) const {
  require_framed_container<Container>();
  using element = std::ranges::range_value_t<Container>;
  const detail::frame_shape shape = detail::frame_for<element>(frame_size_, "framed_channel::recv");
  if (shape.bytes > detail::stack_frame_bytes) [[unlikely]] {
    return detail::receive_unstacked<Container>(frame_size_, route(), source, tag, raw);
  }
  // As the same protocol in C: the frame into scratch, a payload smaller than a frame copied
  // into a container of its size (one allocation, one copy).
  alignas(std::max_align_t) std::byte frame[detail::stack_frame_bytes];
  if (detail::received_whole<element>(frame, shape, comm_.native(), source, tag, raw)) [[likely]] {
    // Read back through a volatile: knowing the count below 8 KiB, GCC 12 copies with an inline
    // rep movsq, slower than libc's memcpy (which C calls) for payloads of tens to hundreds of
    // bytes on this machine's CPUs; a load and a store keep the libc call.
    const volatile std::size_t count = detail::status_bytes(raw) / sizeof(element);
    return detail::copied_from<Container>(frame, count);
  }
  return detail::received_rest<Container>(frame, frame_size_, route(), source, tag, raw);
}

template <class Container>
framed_irecv_t<Container> framed_channel::irecv(int source, int tag) const {
  if constexpr (detail::serialized_payload<Container>) {
    return framed_serialized_request<Container>(irecv<detail::wire_bytes>(source, tag));
  } else {
    require_framed_container<Container>();
    using element = std::ranges::range_value_t<Container>;
    return framed_request<Container>(
        route(), detail::frame_for<element>(frame_size_, "framed_channel::irecv"), source, tag);
  }
}

}  // namespace thinmpi
