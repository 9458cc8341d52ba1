#pragma once
/// \file
/// The requests of framed_channel (channel.hpp): framed_request (a framed receive of a vector or
/// string), framed_serialized_request (a framed receive of a serialized value, decoded on
/// completion) and framed_send_request (a framed send). Each states its kind and lets
/// requests/request_face.hpp do the rest, so they work with wait_all / wait_any like every
/// other request. A receive must complete before its channel is destroyed.

#include <cstddef>
#include <memory>
#include <ranges>
#include <type_traits>
#include <utility>

#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/held.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/core/status.hpp"
#include "thinmpi/framed/detail/frame.hpp"
#include "thinmpi/framed/detail/receive.hpp"
#include "thinmpi/p2p/detail/calls.hpp"
#include "thinmpi/p2p/detail/errors.hpp"
#include "thinmpi/p2p/requests.hpp"
#include "thinmpi/requests/request_face.hpp"
#include "thinmpi/serialization/decoding_request.hpp"

namespace thinmpi {

namespace detail {

/// The kind of framed_request<Container>: one MPI_Irecv of a frame, and, when a full or short
/// frame arrives, one MPI_Irecv of the continuation from the frame's source.
template <class Container>
struct framed_receive {
  using element = std::ranges::range_value_t<Container>;
  enum class stage { done, frame, rest };

  framed_receive() = default;
  /// Posts the frame's receive (MPI_Irecv of one frame) from source with tag on route.comm.
  framed_receive(const frame_route& route, const frame_shape& shape, int source, int tag)
      : buffer_(Container{}), route_(route), shape_(shape), source_(source), tag_(tag) {
    std::byte* frame = nullptr;
    if constexpr (receives_in_place<Container>) {
      buffer_.get().resize(shape.count);
      frame = reinterpret_cast<std::byte*>(buffer_.get().data());
    } else {
      scratch_ = frame_storage(shape.bytes);
      frame = scratch_.get();
    }
    post({frame, shape.bytes, MPI_BYTE}, call(), {frame, shape.count, datatype_of<element>()});
    stage_ = stage::frame;
  }

  [[nodiscard]] p2p_call call() const noexcept { return {"MPI_Irecv", route_.comm, source_, tag_}; }
  [[nodiscard]] MPI_Comm comm() const noexcept { return route_.comm; }

  MPI_Request& posted_handle() noexcept { return handle_; }
  void give_up() noexcept {
    // Only a frame can be cancelled: once it has come, its continuation is on its way.
    if (stage_ == stage::frame && handle_ != MPI_REQUEST_NULL) MPI_Cancel(&handle_);
  }
  void complete_stage(int rc, const MPI_Status& raw);
  Container result() { return buffer_.take(); }
  /// The first frame's status, whose byte count is the whole payload's.
  [[nodiscard]] thinmpi::status last_status() const { return {status_, datatype_of<element>()}; }

  held<Container, holder_site::moving> buffer_;
  std::unique_ptr<std::byte[]> scratch_;
  MPI_Request handle_ = MPI_REQUEST_NULL;
  MPI_Status status_{};
  frame_route route_{MPI_COMM_NULL, MPI_COMM_NULL, 0};
  frame_shape shape_{0, 0, 0};
  mutable_buffer rest_{nullptr, 0, MPI_BYTE};
  std::size_t carried_ = 0;  // payload bytes the first frame carried
  int source_ = MPI_PROC_NULL;
  int tag_ = 0;
  stage stage_ = stage::done;

 private:
  /// MPI_Irecv of `into`'s bytes as `call` says; an error reports `reported`.
  void post(const mutable_buffer& into, const p2p_call& call, const mutable_buffer& reported) {
    const int rc = irecv(into.data, into.count, MPI_BYTE, call.peer, call.tag, call.comm, &handle_);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_receive(rc, call, reported, MPI_Status{});
    }
  }
};

template <class Container>
void framed_receive<Container>::complete_stage(int rc, const MPI_Status& raw) {
  if (stage_ == stage::rest) {
    stage_ = stage::done;
    const p2p_call continued{"MPI_Irecv (framed continuation)", route_.continuation,
                             status_.MPI_SOURCE, 0};
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_receive(rc, continued, rest_, raw);
    }
    finish_continuation(status_, raw, rest_, carried_, continued);
    return;
  }
  stage_ = stage::done;
  status_ = raw;
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_receive(rc, call(), {nullptr, shape_.count, datatype_of<element>()}, raw);
  }
  if (was_cancelled(raw)) return;
  const std::byte* frame = receives_in_place<Container>
                               ? reinterpret_cast<const std::byte*>(buffer_.get().data())
                               : scratch_.get();
  announced next{};
  const bool whole = accept_frame(buffer_.get(), frame, raw, shape_, route_, call(), next);
  scratch_.reset();
  if (whole) return;
  rest_ = continuation_of(buffer_.get(), next);
  carried_ = next.carried;
  post(rest_,
       {"MPI_Irecv (framed continuation)", route_.continuation, raw.MPI_SOURCE,
        static_cast<int>(next.header.continuation_tag)},
       rest_);
  stage_ = stage::rest;
}

/// The kind of framed_send_request: one MPI_Isend, two from one frame up, and what they send
/// from that the request owns.
struct framed_send {
  wire_bytes encoded_;                 // a serialized payload's bytes; empty for a borrowed payload
  std::shared_ptr<const void> owned_;  // a payload moved in (isend of a temporary)
  std::unique_ptr<std::byte[]> frame_;
  MPI_Request handles_[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  p2p_call call_{"MPI_Isend", MPI_COMM_NULL, MPI_PROC_NULL, 0};

  MPI_Request& posted_handle() noexcept {
    return handles_[0] != MPI_REQUEST_NULL ? handles_[0] : handles_[1];
  }
  void complete_stage(int rc, const MPI_Status&) {
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_send(rc, call_, {nullptr, 0, MPI_BYTE});
    }
  }
  void result() const noexcept {}
};

}  // namespace detail

/// A framed receive in progress (framed_channel::irecv): one MPI_Irecv of a frame, and, when a
/// full or short frame arrives, one MPI_Irecv of the continuation from the frame's source.
/// wait() hands the payload over once it has arrived whole (test(): if it has); last_status()
/// is the first frame's status, whose byte count is the whole payload's. Destroyed while
/// active, a frame not yet arrived is cancelled, a continuation under way waited for. Works
/// with wait_all/wait_any. Must complete before its channel is destroyed. Move-only.
///
///     auto r = channel.irecv<std::vector<int>>(thinmpi::any_source, 7);
///     std::vector<int> got = r.wait();
template <class Container>
class [[nodiscard]] framed_request
    : public detail::request_face<detail::framed_receive<Container>> {
  using face = detail::request_face<detail::framed_receive<Container>>;

 public:
  /// A request that receives nothing.
  framed_request() = default;
  /// Posts the frame's receive (MPI_Irecv of one frame) from source with tag on route.comm.
  framed_request(const detail::frame_route& route, const detail::frame_shape& shape, int source,
                 int tag)
      : face(std::in_place, route, shape, source, tag) {}

 private:
  template <class Payload>
  friend class framed_serialized_request;  // takes a receive of bytes over
};

/// A framed receive of a serialized value (framed_channel::irecv<thinmpi::serialized<T>>): the
/// encoded bytes arrive as a framed_request of bytes (one MPI_Irecv of a frame, a second for the
/// continuation from one frame up, both into one byte buffer), then are decoded once
/// (serialization/decoding_request.hpp, as serialized_request decodes). wait() hands the value
/// over; last_status() is the first frame's status, its count the whole encoding's bytes.
/// Works with wait_all/wait_any. Must complete before its channel is destroyed. Move-only.
///
///     auto r = channel.irecv<thinmpi::serialized<std::vector<std::string>>>(0, 7);
///     std::vector<std::string> names = r.wait();
template <class Payload>
class [[nodiscard]] framed_serialized_request
    : public detail::request_face<detail::decoding_receive<
          detail::framed_receive<detail::wire_bytes>, detail::received_value_t<Payload>>> {
  using face =
      detail::request_face<detail::decoding_receive<detail::framed_receive<detail::wire_bytes>,
                                                    detail::received_value_t<Payload>>>;

 public:
  /// What wait() returns: the T of serialized<T>.
  using value_type = detail::received_value_t<Payload>;

  /// A request that receives nothing.
  framed_serialized_request() = default;
  /// Decodes what `bytes` receives once it has arrived whole.
  explicit framed_serialized_request(framed_request<detail::wire_bytes>&& bytes)
      : face(std::in_place, bytes.release_kind()) {}
};

/// A framed send in progress (framed_channel::isend): one MPI_Isend, two from one frame up.
/// The payload is borrowed and must outlive the request; the frame is the request's own, and
/// so are the encoded bytes of a serialized payload. wait() returns once every message of the
/// payload is sent, test() says whether it is; destroyed, the request waits for them.
class [[nodiscard]] framed_send_request : public detail::request_face<detail::framed_send> {
 public:
  /// A request that sends nothing.
  framed_send_request() = default;

 private:
  friend class framed_channel;  // posts the messages into the request's kind
};

/// What framed_channel::irecv<C>() returns: framed_request<C>, or for a serialized payload
/// (thinmpi::serialized<T>) the request that decodes its bytes.
template <class Container>
using framed_irecv_t =
    std::conditional_t<detail::serialized_payload<Container>, framed_serialized_request<Container>,
                       framed_request<Container>>;

}  // namespace thinmpi
