#pragma once
/// \file
/// The receiving side of the framed protocol (frame.hpp has the wire format): where a receive's
/// frames arrive, how a first frame is accepted (a whole small payload, or a full or short frame
/// announcing a continuation), where the continuation goes, and the blocking framed receive.
/// Shared by framed_channel::recv and framed_request, so both read frames one way.

#include <cstddef>
#include <cstring>
#include <ranges>
#include <utility>

#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/detail/status_bytes.hpp"
#include "thinmpi/framed/detail/frame.hpp"
#include "thinmpi/p2p/detail/calls.hpp"
#include "thinmpi/p2p/detail/errors.hpp"

namespace thinmpi::detail {

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
/// In place (a receives_in_place container whose data() is `frame`), a full frame is not copied.
template <class Container>
bool accept_frame(Container& result, const std::byte* frame, const MPI_Status& raw,
                  const frame_shape& shape, const frame_route& route, const p2p_call& call,
                  announced& next) {
  using element = std::ranges::range_value_t<Container>;
  const bool in_place =
      receives_in_place<Container> &&
      frame == reinterpret_cast<const std::byte*>(std::ranges::data(std::as_const(result)));
  const std::size_t bytes = status_bytes(raw);
  const bool whole_elements = bytes % sizeof(element) == 0;
  if (bytes < shape.bytes && whole_elements) [[likely]] {
    if (in_place) {
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
  if (in_place) {
    if (plan.is_short()) result.clear();  // nothing of the payload to keep
    result.resize(count);                 // keeps a full frame's elements; writes nothing else
  } else if constexpr (receives_in_place<Container>) {
    result.resize(count);  // writes nothing
    std::memcpy(std::ranges::data(result), frame, plan.carried);
  } else {
    // A std::vector or std::string cannot be sized unwritten: built from the frame's elements
    // (a partial last one takes header bytes that the continuation overwrites), it zeroes only
    // where the continuation lands, not the frame's bytes too (4 KiB more writes at 4 KiB).
    const auto* first = reinterpret_cast<const element*>(frame);
    result.reserve(count);
    result.assign(first, first + (plan.carried + sizeof(element) - 1) / sizeof(element));
    result.resize(count);
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

/// The blocking framed receive after its first message arrived at `frame` with status `raw`
/// and was not a whole payload smaller than a frame: a full or short frame (whose continuation
/// it receives into `result`) or a message it reports. Out of line, so that the small
/// payload's path (framed_channel::recv) is a compare and a copy after the MPI_Recv.
template <class Container>
[[gnu::noinline]] void receive_rest(Container& result, const std::byte* frame,
                                    const frame_shape& shape, const frame_route& route, int source,
                                    int tag, MPI_Status& raw) {
  const p2p_call call{"MPI_Recv", route.comm, source, tag};
  announced next{};
  if (accept_frame(result, frame, raw, shape, route, call, next)) return;
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

/// A failed MPI_Recv of a first message of T (cold: the report is built only here).
template <class T>
[[noreturn, gnu::cold, gnu::noinline]] void raise_frame_receive(int code, MPI_Comm comm,
                                                                std::size_t count, int source,
                                                                int tag, const MPI_Status& raw) {
  raise_receive(code, {"MPI_Recv", comm, source, tag}, {nullptr, count, datatype_of<T>()}, raw);
}

/// MPI_Recv of a blocking framed receive's first message of T into `frame` (shape.bytes): true
/// if it is a whole payload smaller than a frame (status_bytes(raw) of them), false if it is a
/// frame or a message to report (receive_rest).
template <class T>
[[gnu::always_inline]] inline bool received_whole(std::byte* frame, const frame_shape& shape,
                                                  MPI_Comm comm, int source, int tag,
                                                  MPI_Status& raw) {
  const int rc = recv(frame, shape.bytes, MPI_BYTE, source, tag, comm, &raw);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_frame_receive<T>(rc, comm, shape.count, source, tag, raw);
  }
  const std::size_t bytes = status_bytes(raw);
  return bytes < shape.bytes && bytes % sizeof(T) == 0;
}

/// receive_rest into a new container, after received_whole said no (a frame in scratch).
template <class Container>
[[nodiscard, gnu::noinline]] Container received_rest(const std::byte* frame, std::size_t frame_size,
                                                     const frame_route& route, int source, int tag,
                                                     MPI_Status& raw) {
  using element = std::ranges::range_value_t<Container>;
  Container result;
  receive_rest(result, frame, shape_of(frame_size, sizeof(element)), route, source, tag, raw);
  return result;
}

/// The blocking framed receive of frames larger than stack_frame_bytes: into the container
/// itself where it can be sized unwritten, else into heap scratch.
template <class Container>
[[nodiscard, gnu::noinline]] Container receive_unstacked(std::size_t frame_size,
                                                         const frame_route& route, int source,
                                                         int tag, MPI_Status& raw) {
  using element = std::ranges::range_value_t<Container>;
  const frame_shape shape = shape_of(frame_size, sizeof(element));
  Container value;
  if constexpr (receives_in_place<Container>) {
    value.resize(shape.count);  // default_init_allocator: nothing written
    auto* frame = reinterpret_cast<std::byte*>(value.data());
    if (received_whole<element>(frame, shape, route.comm, source, tag, raw)) {
      value.resize(status_bytes(raw) / sizeof(element));  // shrinks: writes nothing
    } else {
      receive_rest(value, frame, shape, route, source, tag, raw);
    }
  } else {
    const auto frame = frame_storage(shape.bytes);
    if (received_whole<element>(frame.get(), shape, route.comm, source, tag, raw)) {
      return copied_from<Container>(frame.get(), status_bytes(raw) / sizeof(element));
    }
    receive_rest(value, frame.get(), shape, route, source, tag, raw);
  }
  return value;
}

}  // namespace thinmpi::detail
