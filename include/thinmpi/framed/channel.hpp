#pragma once
/// \file
/// framed_channel: an opt-in protocol for receives of unknown size that costs what a receive of
/// known size costs. A payload smaller than the frame size F is sent as itself (one message of
/// its bytes, the bytes send() sends); the receiver posts one MPI_Recv of F bytes and needs no
/// probe. A payload of F bytes or more goes as a frame that the receive tells by its size (a
/// full frame of F bytes: its first bytes, then a 16-byte header with its length; or, for
/// elements wider than a byte from 2F up, a short frame of the header and one byte) and one
/// continuation, which only this channel's private communicator carries. detail/frame.hpp has
/// the wire format. A serialized value (thinmpi::serialized, reached through
/// detail/serialized_hook.hpp) travels as its encoded bytes.
///
///     thinmpi::framed_channel channel(world);             // collective: one MPI_Comm_dup
///     channel.send(values, 1, tag);                         // 1 message, 2 from F bytes up
///     auto got = channel.recv<std::vector<int>>(0, tag);   // 1 MPI_Recv, 2 from F bytes up
///     channel.send(thinmpi::serialized(names), 1, tag);     // encoded once, then framed
///     auto names = channel.recv<thinmpi::serialized<std::vector<std::string>>>(0, tag);

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <type_traits>
#include <utility>

#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/core/status.hpp"
#include "thinmpi/framed/detail/frame.hpp"
#include "thinmpi/p2p/detail/calls.hpp"
#include "thinmpi/p2p/detail/errors.hpp"
#include "thinmpi/p2p/recv.hpp"
#include "thinmpi/p2p/requests.hpp"
#include "thinmpi/requests/detail/request_access.hpp"

namespace thinmpi {

namespace detail {

/// Where the frames of one receive arrive and what they are checked against.
struct frame_route {
  MPI_Comm comm;          ///< the user's communicator: first frames and small messages
  MPI_Comm continuation;  ///< the channel's private communicator: continuations only
  int tag_ub;
};

/// What a framed payload's first message announced: its continuation's tag and where in the
/// payload the continuation starts.
struct announced {
  frame_header header;
  std::size_t carried;  ///< payload bytes the first message carried
};

/// After a first frame arrived at `frame` with status `raw`: makes `result` the whole payload if
/// it was small (returns true), or, for a full or a short frame, sizes `result` for the whole
/// payload, places a full frame's bytes at its start and fills `next` with the continuation to
/// receive (returns false).
/// In place (receives_in_place), `frame` is result.data() and a full frame is not copied.
template <class Container>
bool accept_frame(Container& result, const std::byte* frame, const MPI_Status& raw,
                  const frame_shape& shape, const frame_route& route, const p2p_call& call,
                  announced& next) {
  using element = std::ranges::range_value_t<Container>;
  const std::size_t bytes = status_bytes(raw);
  const bool whole_elements = bytes % sizeof(element) == 0;
  if (bytes < shape.bytes && whole_elements) [[likely]] {
    if constexpr (receives_in_place<Container>) {
      result.resize(bytes / sizeof(element));  // shrinks: writes nothing
    } else {
      result = copied_from<Container>(frame, bytes / sizeof(element));
    }
    return true;
  }
  if (!whole_elements && bytes != shape.short_bytes) [[unlikely]] {
    raise_problem(receive_problem::partial_element, call,
                  {nullptr, shape.count, datatype_of<element>()}, raw);
  }
  const frame_plan plan = whole_elements ? frame_plan::full(shape) : frame_plan::shortened(shape);
  next = {header_of(frame, plan), plan.carried};
  check_header(next.header, shape, plan, sizeof(element), route.tag_ub, call.operation, call.comm,
               raw.MPI_SOURCE, raw.MPI_TAG);
  const auto count = static_cast<std::size_t>(next.header.total_bytes / sizeof(element));
  if constexpr (receives_in_place<Container>) {
    if (plan.is_short()) result.clear();  // nothing of the payload to keep
    result.resize(count);                 // keeps a full frame's elements; writes nothing else
  } else {
    result.resize(count);
    std::memcpy(std::ranges::data(result), frame, plan.carried);
  }
  return false;
}

/// The continuation's place in `result` and its size in bytes.
template <class Container>
mutable_buffer continuation_of(Container& result, const announced& next) {
  auto* whole = reinterpret_cast<std::byte*>(std::ranges::data(result));
  return {whole + next.carried, static_cast<std::size_t>(next.header.total_bytes) - next.carried,
          MPI_BYTE};
}

/// After the continuation arrived with status `rest`: checks its size and makes `first` (the
/// first frame's status) report the whole payload's bytes.
inline void finish_continuation(MPI_Status& first, const MPI_Status& rest,
                                const mutable_buffer& expected, std::size_t carried,
                                const p2p_call& call) {
  if (status_bytes(rest) != expected.count) [[unlikely]] {
    raise_short_continuation(expected.count, status_bytes(rest), call.operation, call.comm,
                             first.MPI_SOURCE);
  }
  const auto total = static_cast<MPI_Count>(carried + expected.count);
  check(MPI_Status_set_elements_x(&first, MPI_BYTE, total), "MPI_Status_set_elements_x");
}

/// What a sender posts after the first message: the payload's bytes from where the frame's
/// carried bytes end (the twin of continuation_of on the receiving side).
inline const_buffer continuation_sent(const const_buffer& whole, const frame_plan& plan,
                                      const frame_header& header) noexcept {
  return {static_cast<const std::byte*>(whole.data) + plan.carried,
          static_cast<std::size_t>(header.total_bytes) - plan.carried, MPI_BYTE};
}

/// The blocking framed receive once the frame's storage is chosen: `frame` is where the first
/// frame goes (result.data() in place, else scratch).
template <class Container>
void receive_framed(Container& result, std::byte* frame, const frame_shape& shape,
                    const frame_route& route, int source, int tag, MPI_Status& raw) {
  using element = std::ranges::range_value_t<Container>;
  const p2p_call call{"MPI_Recv", route.comm, source, tag};
  const int rc = recv(frame, shape.bytes, MPI_BYTE, source, tag, route.comm, &raw);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_receive(rc, call, {frame, shape.count, datatype_of<element>()}, raw);
  }
  announced next{};
  if (accept_frame(result, frame, raw, shape, route, call, next)) [[likely]] {
    return;
  }
  const mutable_buffer rest = continuation_of(result, next);
  const p2p_call continued{"MPI_Recv (framed continuation)", route.continuation, raw.MPI_SOURCE,
                           static_cast<int>(next.header.continuation_tag)};
  MPI_Status rest_status;
  const int rest_rc = recv(rest.data, rest.count, MPI_BYTE, continued.peer, continued.tag,
                           route.continuation, &rest_status);
  if (rest_rc != MPI_SUCCESS) [[unlikely]] {
    raise_receive(rest_rc, continued, rest, rest_status);
  }
  finish_continuation(raw, rest_status, rest, next.carried, continued);
}

}  // namespace detail

/// A framed receive in progress (framed_channel::irecv): one MPI_Irecv of a frame, and, when a
/// full or short frame arrives, one MPI_Irecv of the continuation from the frame's source. Works
/// with wait_all/wait_any. Must complete before its channel is destroyed. Move-only.
///
///     auto r = channel.irecv<std::vector<int>>(thinmpi::any_source, 7);
///     std::vector<int> got = r.wait();
template <class Container>
class [[nodiscard]] framed_request {
 public:
  /// A request that receives nothing.
  framed_request() = default;
  /// Posts the frame's receive (MPI_Irecv of one frame) from source with tag on route.comm.
  framed_request(const detail::frame_route& route, const detail::frame_shape& shape, int source,
                 int tag)
      : buffer_(Container{}), route_(route), shape_(shape), source_(source), tag_(tag) {
    std::byte* frame = nullptr;
    if constexpr (detail::receives_in_place<Container>) {
      buffer_.get().resize(shape.count);
      frame = reinterpret_cast<std::byte*>(buffer_.get().data());
    } else {
      scratch_ = detail::frame_storage(shape.bytes);
      frame = scratch_.get();
    }
    const int rc = detail::irecv(frame, shape.bytes, MPI_BYTE, source, tag, route.comm, &handle_);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_receive(rc, call(), {frame, shape.count, datatype_of<element>()}, MPI_Status{});
    }
    stage_ = stage::frame;
  }

  framed_request(framed_request&& other) noexcept { take(other); }
  framed_request& operator=(framed_request&& other) noexcept {
    if (this != &other) {
      detail::abandon(*this);
      take(other);
    }
    return *this;
  }
  framed_request(const framed_request&) = delete;
  framed_request& operator=(const framed_request&) = delete;
  /// A frame not yet arrived is cancelled; a continuation under way is waited for.
  ~framed_request() { detail::abandon(*this); }

  /// Blocks until the whole payload has arrived, then hands it over.
  Container wait() {
    detail::progress(*this, true);
    return buffer_.take();
  }
  /// The payload if it has arrived whole, else nothing (never blocks).
  [[nodiscard]] std::optional<Container> test() {
    if (!detail::progress(*this, false)) return std::nullopt;
    return buffer_.take();
  }
  /// Whether part of the payload is still awaited.
  [[nodiscard]] bool active() const noexcept { return handle_ != MPI_REQUEST_NULL; }
  /// Blocks until complete (the payload staying in the request), then returns the status of
  /// the first frame, whose byte count is the whole payload's.
  [[nodiscard]] status last_status() {
    detail::progress(*this, true);
    return status(status_, datatype_of<element>());
  }

 private:
  friend struct detail::request_access;
  template <class Payload>
  friend class framed_serialized_request;  // decodes with the first frame's status
  using element = std::ranges::range_value_t<Container>;
  enum class stage { done, frame, rest };

  [[nodiscard]] detail::p2p_call call() const noexcept {
    return {"MPI_Irecv", route_.comm, source_, tag_};
  }
  MPI_Request& posted_handle() noexcept { return handle_; }
  void give_up() noexcept {
    // Only a frame can be cancelled: once it has come, its continuation is on its way.
    if (stage_ == stage::frame && handle_ != MPI_REQUEST_NULL) MPI_Cancel(&handle_);
  }
  void complete_stage(int rc, const MPI_Status& raw);

  void take(framed_request& other) noexcept {
    buffer_ = std::move(other.buffer_);
    scratch_ = std::move(other.scratch_);
    handle_ = std::exchange(other.handle_, MPI_REQUEST_NULL);
    status_ = other.status_;
    route_ = other.route_;
    shape_ = other.shape_;
    rest_ = other.rest_;
    carried_ = other.carried_;
    source_ = other.source_;
    tag_ = other.tag_;
    stage_ = std::exchange(other.stage_, stage::done);
  }

  detail::held<Container, detail::holder_site::moving>
      buffer_;  // declared first, destroyed last: after the receive
  std::unique_ptr<std::byte[]> scratch_;
  MPI_Request handle_ = MPI_REQUEST_NULL;
  MPI_Status status_{};
  detail::frame_route route_{MPI_COMM_NULL, MPI_COMM_NULL, 0};
  detail::frame_shape shape_{0, 0, 0};
  detail::mutable_buffer rest_{nullptr, 0, MPI_BYTE};
  std::size_t carried_ = 0;  // payload bytes the first frame carried
  int source_ = MPI_PROC_NULL;
  int tag_ = 0;
  stage stage_ = stage::done;
};

template <class Container>
void framed_request<Container>::complete_stage(int rc, const MPI_Status& raw) {
  if (stage_ == stage::rest) {
    stage_ = stage::done;
    const detail::p2p_call continued{"MPI_Irecv (framed continuation)", route_.continuation,
                                     status_.MPI_SOURCE, 0};
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_receive(rc, continued, rest_, raw);
    }
    detail::finish_continuation(status_, raw, rest_, carried_, continued);
    return;
  }
  stage_ = stage::done;
  status_ = raw;
  if (rc != MPI_SUCCESS) [[unlikely]] {
    detail::raise_receive(rc, call(), {nullptr, shape_.count, datatype_of<element>()}, raw);
  }
  if (detail::was_cancelled(raw)) return;
  const std::byte* frame = detail::receives_in_place<Container>
                               ? reinterpret_cast<const std::byte*>(buffer_.get().data())
                               : scratch_.get();
  detail::announced next{};
  const bool whole = detail::accept_frame(buffer_.get(), frame, raw, shape_, route_, call(), next);
  scratch_.reset();
  if (whole) return;
  rest_ = detail::continuation_of(buffer_.get(), next);
  carried_ = next.carried;
  const int continuation_tag = static_cast<int>(next.header.continuation_tag);
  const int posted = detail::irecv(rest_.data, rest_.count, MPI_BYTE, raw.MPI_SOURCE,
                                   continuation_tag, route_.continuation, &handle_);
  if (posted != MPI_SUCCESS) [[unlikely]] {
    detail::raise_receive(
        posted,
        {"MPI_Irecv (framed continuation)", route_.continuation, raw.MPI_SOURCE, continuation_tag},
        rest_, MPI_Status{});
  }
  stage_ = stage::rest;
}

/// A framed receive of a serialized value (framed_channel::irecv<thinmpi::serialized<T>>): the
/// encoded bytes arrive as a framed_request of bytes (one MPI_Irecv of a frame, a second for the
/// continuation from one frame up, both into one byte buffer), then are decoded once, through
/// Payload::decode (detail/serialized_hook.hpp). Works with wait_all/wait_any. Must complete
/// before its channel is destroyed. Move-only.
///
///     auto r = channel.irecv<thinmpi::serialized<std::vector<std::string>>>(0, 7);
///     std::vector<std::string> names = r.wait();
template <class Payload>
class [[nodiscard]] framed_serialized_request {
 public:
  /// What wait() returns: the T of serialized<T>.
  using value_type = detail::received_value_t<Payload>;

  /// A request that receives nothing.
  framed_serialized_request() = default;
  /// Decodes what `bytes` receives once it has arrived whole.
  explicit framed_serialized_request(framed_request<detail::wire_bytes>&& bytes)
      : bytes_(std::move(bytes)) {}
  framed_serialized_request(framed_serialized_request&&) noexcept = default;
  framed_serialized_request& operator=(framed_serialized_request&&) noexcept = default;
  framed_serialized_request(const framed_serialized_request&) = delete;
  framed_serialized_request& operator=(const framed_serialized_request&) = delete;
  ~framed_serialized_request() = default;  // bytes_ completes itself if still active

  /// Blocks until the bytes have arrived and been decoded, then hands the value over.
  value_type wait() {
    detail::progress(*this, true);
    return take();
  }
  /// The value if its bytes have arrived (decoded), else nothing (never blocks).
  [[nodiscard]] std::optional<value_type> test() {
    if (!detail::progress(*this, false)) return std::nullopt;
    return take();
  }
  /// Whether part of the bytes is still awaited.
  [[nodiscard]] bool active() const noexcept { return bytes_.active(); }
  /// Blocks until complete (the value staying in the request), then returns the status of the
  /// first frame, whose count is the whole encoding's bytes.
  [[nodiscard]] status last_status() {
    detail::progress(*this, true);
    return bytes_.last_status();
  }

 private:
  friend struct detail::request_access;
  using access = detail::request_access;

  MPI_Request& posted_handle() noexcept { return access::handle(bytes_); }
  void give_up() noexcept { access::give_up(bytes_); }
  void complete_stage(int rc, const MPI_Status& raw) {
    access::complete(bytes_, rc, raw);
    if (access::active(bytes_) || detail::was_cancelled(raw)) return;
    // The first frame's status: the source and tag the caller asked for, not the continuation's.
    const MPI_Status first = bytes_.status_;
    const detail::wire_bytes bytes = bytes_.wait();
    value_ = Payload::decode(bytes, bytes_.route_.comm, first);
  }
  value_type take() {
    return value_ ? std::move(*std::exchange(value_, std::nullopt)) : value_type{};
  }

  framed_request<detail::wire_bytes> bytes_;
  std::optional<value_type> value_;
};

/// A framed send in progress (framed_channel::isend): one MPI_Isend, two from one frame up.
/// The payload is borrowed and must outlive the request; the frame is the request's own, and
/// so are the encoded bytes of a serialized payload.
class [[nodiscard]] framed_send_request {
 public:
  /// A request that sends nothing.
  framed_send_request() = default;
  framed_send_request(framed_send_request&& other) noexcept { take(other); }
  framed_send_request& operator=(framed_send_request&& other) noexcept {
    if (this != &other) {
      detail::abandon(*this);
      take(other);
    }
    return *this;
  }
  framed_send_request(const framed_send_request&) = delete;
  framed_send_request& operator=(const framed_send_request&) = delete;
  /// Waits for whatever is still being sent.
  ~framed_send_request() { detail::abandon(*this); }

  /// Blocks until every message of the payload is sent.
  void wait() { detail::progress(*this, true); }
  /// Whether every message of the payload is sent (never blocks).
  [[nodiscard]] bool test() { return detail::progress(*this, false); }
  /// Whether a message of the payload is still being sent.
  [[nodiscard]] bool active() const noexcept {
    return handles_[0] != MPI_REQUEST_NULL || handles_[1] != MPI_REQUEST_NULL;
  }

 private:
  friend struct detail::request_access;
  friend class framed_channel;

  MPI_Request& posted_handle() noexcept {
    return handles_[0] != MPI_REQUEST_NULL ? handles_[0] : handles_[1];
  }
  void complete_stage(int rc, const MPI_Status&) {
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_send(rc, call_, {nullptr, 0, MPI_BYTE});
    }
  }
  void take(framed_send_request& other) noexcept {
    encoded_ = std::move(other.encoded_);  // moves the buffer: the continuation's address stays
    frame_ = std::move(other.frame_);
    handles_[0] = std::exchange(other.handles_[0], MPI_REQUEST_NULL);
    handles_[1] = std::exchange(other.handles_[1], MPI_REQUEST_NULL);
    call_ = other.call_;
  }

  detail::wire_bytes encoded_;  // a serialized payload's bytes; empty for a borrowed payload
  std::unique_ptr<std::byte[]> frame_;
  MPI_Request handles_[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  detail::p2p_call call_{"MPI_Isend", MPI_COMM_NULL, MPI_PROC_NULL, 0};
};

/// What framed_channel::irecv<C>() returns: framed_request<C>, or for a serialized payload
/// (thinmpi::serialized<T>) the request that decodes its bytes.
template <class Container>
using framed_irecv_t =
    std::conditional_t<detail::serialized_payload<Container>, framed_serialized_request<Container>,
                       framed_request<Container>>;

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

  framed_channel(framed_channel&& other) noexcept
      : comm_(other.comm_),
        continuation_(std::move(other.continuation_)),
        frame_size_(other.frame_size_),
        tag_ub_(other.tag_ub_),
        next_tag_(other.next_tag_.load(std::memory_order_relaxed)) {}
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
  /// allocation, one copy pass), then its bytes are sent so.
  template <class Payload>
  void send(const Payload& payload, int dest, int tag) const;
  /// send() without blocking; the payload must outlive the returned request, except a
  /// serialized payload, whose encoded bytes the request owns.
  template <class Payload>
  [[nodiscard]] framed_send_request isend(const Payload& payload, int dest, int tag) const;
  template <class Payload>
  requires(!detail::serialized_payload<Payload>) void isend(const Payload&&, int, int) const =
      delete;  ///< the request would outlive it

  /// Receives a std::vector or std::string of any size sent by send()/isend(): one MPI_Recv of
  /// a frame; a second, from the frame's source, for payloads of a frame or more. For
  /// thinmpi::serialized<T>, receives the encoded bytes so (into one byte buffer) and returns
  /// the decoded T; a malformed encoding throws thinmpi::serialization_error.
  template <class Container>
  [[nodiscard]] detail::received_value_t<Container> recv(int source, int tag) const {
    return recv_with_status<Container>(source, tag).value;
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
  /// The framed protocol for a contiguous payload (send, isend after any encoding).
  template <class Payload>
  void send_range(const Payload& payload, int dest, int tag) const;
  template <class Payload>
  void start_isend(framed_send_request& sending, const Payload& payload, int dest, int tag) const;
  /// The framed receive of a contiguous Container; raw gets the first frame's status.
  template <class Container>
  [[nodiscard]] Container receive_range(int source, int tag, MPI_Status& raw) const;
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
  if (extremes[0] != -extremes[1] || frame_size < 64) {
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
void framed_channel::send(const Payload& payload, int dest, int tag) const {
  if constexpr (detail::serialized_payload<Payload>) {
    send_range(payload.encode(), dest, tag);
  } else {
    send_range(payload, dest, tag);
  }
}

template <class Payload>
void framed_channel::send_range(const Payload& payload, int dest, int tag) const {
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
      detail::raise_send(rc, {"MPI_Send", comm_.native(), dest, tag}, whole);
    }
    return;
  }
  const detail::frame_header header{whole.count * sizeof(element),
                                    static_cast<std::uint32_t>(next_continuation_tag())};
  const detail::frame_plan plan = detail::frame_plan::sent_for(shape, header.total_bytes);
  const detail::const_buffer rest = detail::continuation_sent(whole, plan, header);
  const int continuation_tag = static_cast<int>(header.continuation_tag);
  // The frame goes with MPI_Isend so that the continuation follows it at once rather than after
  // the frame's completion (one latency less from the receiver's view); it is waited for before
  // its storage goes, whatever the continuation's send returned.
  const auto post = [&](std::byte* frame) {
    detail::write_frame(frame, plan, whole.data, header);
    const detail::p2p_call call{"MPI_Isend", comm_.native(), dest, tag};
    const detail::const_buffer first{frame, plan.bytes, MPI_BYTE};
    MPI_Request frame_sent = MPI_REQUEST_NULL;
    const int rc =
        detail::isend(first.data, first.count, first.type, dest, tag, call.comm, &frame_sent);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_send(rc, call, first);
    }
    const int rest_rc = detail::send(rest.data, rest.count, MPI_BYTE, dest, continuation_tag,
                                     continuation_.native());
    const int frame_rc = MPI_Wait(&frame_sent, MPI_STATUS_IGNORE);
    if (rest_rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_send(
          rest_rc,
          {"MPI_Send (framed continuation)", continuation_.native(), dest, continuation_tag}, rest);
    }
    if (frame_rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_send(frame_rc, {"MPI_Wait (framed frame)", call.comm, dest, tag}, first);
    }
  };
  if (plan.bytes <= detail::stack_frame_bytes) {
    alignas(std::max_align_t) std::byte frame[detail::stack_frame_bytes];
    post(frame);
  } else {
    post(detail::frame_storage(plan.bytes).get());
  }
}

template <class Payload>
framed_send_request framed_channel::isend(const Payload& payload, int dest, int tag) const {
  framed_send_request sending;
  if constexpr (detail::serialized_payload<Payload>) {
    sending.encoded_ = payload.encode();  // the request owns what it sends
    start_isend(sending, sending.encoded_, dest, tag);
  } else {
    start_isend(sending, payload, dest, tag);
  }
  return sending;
}

template <class Payload>
void framed_channel::start_isend(framed_send_request& sending, const Payload& payload, int dest,
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
Container framed_channel::receive_range(int source, int tag, MPI_Status& raw) const {
  require_framed_container<Container>();
  using element = std::ranges::range_value_t<Container>;
  const detail::frame_shape shape = detail::frame_for<element>(frame_size_, "framed_channel::recv");
  Container value;
  if constexpr (detail::receives_in_place<Container>) {
    value.resize(shape.count);  // default_init_allocator: nothing written
    detail::receive_framed(value, reinterpret_cast<std::byte*>(value.data()), shape, route(),
                           source, tag, raw);
  } else if (shape.bytes <= detail::stack_frame_bytes) {
    alignas(std::max_align_t) std::byte frame[detail::stack_frame_bytes];
    detail::receive_framed(value, frame, shape, route(), source, tag, raw);
  } else {
    const auto frame = detail::frame_storage(shape.bytes);
    detail::receive_framed(value, frame.get(), shape, route(), source, tag, raw);
  }
  return value;
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
