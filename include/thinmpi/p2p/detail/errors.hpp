#pragma once
/// \file
/// Error reports of point-to-point operations. Cold code: only reached after a failure. The hot
/// paths (send_with, complete_receive) hand the report scalars or the payload's address: a
/// p2p_call or a buffer passed as an object, by reference or by value, makes GCC 12 build it in
/// memory before every MPI call, stores that only the failing branch needs (issue 18's
/// instruction counts: 3 stores a send, 8 a scalar receive).

#include <cstddef>
#include <string>
#include <type_traits>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/detail/status_bytes.hpp"

namespace thinmpi::detail {

/// The operation and the ends of a point-to-point call, for its error report.
struct p2p_call {
  const char* operation;
  MPI_Comm comm;
  int peer;
  int tag;
};

/// The error site of the sending side of a call.
inline error_site send_site(const p2p_call& call, const const_buffer& buffer) {
  return error_site{.operation = call.operation,
                    .comm = call.comm,
                    .peer_role = "dest",
                    .peer = call.peer,
                    .tag = call.tag,
                    .count = buffer.count,
                    .type = buffer.type};
}

[[noreturn, gnu::cold, gnu::noinline]] inline void raise_send(int code, p2p_call call,
                                                              const_buffer buffer) {
  raise(code, send_site(call, buffer));
}

/// raise_send for send_with: the buffer is worked out again from the payload on the failing
/// branch, so only the payload's address outlives the MPI call.
template <class Payload>
[[noreturn, gnu::cold, gnu::noinline]] void raise_send_of(int code, const char* operation,
                                                          MPI_Comm comm, int dest, int tag,
                                                          const Payload& payload) {
  raise_send(code, {operation, comm, dest, tag}, send_buffer(payload));
}

/// A failed MPI_Sendrecv whose error is not a truncation: either end may be at fault, so the
/// report names both.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_sendrecv(int code, p2p_call call,
                                                                  const_buffer buffer, int source,
                                                                  int recv_tag) {
  error_site site = send_site(call, buffer);
  site.problem = mpi_reason(mpi_error_string(code)) + " (receiving from rank " +
                 std::to_string(source) + " with tag " + std::to_string(recv_tag) + ")";
  raise(code, site);
}

/// Whether the status of a truncated receive holds the size of the whole incoming message:
/// Open MPI's does; MPICH 4.0 leaves the count of an earlier message there, so it is not read.
#if defined(OPEN_MPI)
inline constexpr bool status_reports_truncated_size = true;
#else
inline constexpr bool status_reports_truncated_size = false;
#endif

/// The sentence for a message that did not fit: with its size where MPI reports it.
inline std::string truncation_problem(const mutable_buffer& buffer, const MPI_Status& status,
                                      std::optional<std::size_t>& incoming) {
  const std::size_t room = buffer.count * datatype_size(buffer.type).value_or(0);
  const std::size_t reported = status_bytes(status);
  const std::string target =
      "the receive buffer of " + describe_elements(buffer.count, buffer.type);
  if (status_reports_truncated_size && reported > room) {
    incoming = reported;
    return "the incoming message of " + std::to_string(reported) + " bytes is larger than " +
           target;
  }
  return "the incoming message is larger than " + target +
         " (this MPI library does not report the incoming size)";
}

[[noreturn, gnu::cold, gnu::noinline]] inline void raise_receive(int code, p2p_call call,
                                                                 mutable_buffer buffer,
                                                                 const MPI_Status& status) {
  error_site site{.operation = call.operation,
                  .comm = call.comm,
                  .peer_role = "source",
                  .peer = call.peer,
                  .tag = call.tag,
                  .count = known_count(buffer),
                  .type = buffer.type};
  if (mpi_is_running() && mpi_error_class(code) == MPI_ERR_TRUNCATE) {
    site.problem = truncation_problem(buffer, status, site.incoming_bytes);
  }
  raise(code, site);
}

[[noreturn, gnu::cold, gnu::noinline]] inline void raise_problem(receive_problem problem,
                                                                 p2p_call call,
                                                                 mutable_buffer buffer,
                                                                 const MPI_Status& status) {
  const std::size_t bytes = status_bytes(status);
  const std::string element = datatype_name(buffer.type);
  const bool partial = problem == receive_problem::partial_element;
  raise(partial ? MPI_ERR_TYPE : MPI_ERR_COUNT,
        error_site{
            .operation = call.operation,
            .comm = call.comm,
            .peer_role = "source",
            .peer = call.peer,
            .tag = call.tag,
            .count = known_count(buffer),
            .type = buffer.type,
            .incoming_bytes = bytes,
            .problem =
                partial ? "the message of " + std::to_string(bytes) +
                              " bytes is not a whole number of " + element + " elements"
                        : "the message of " + std::to_string(bytes) + " bytes does not fill the " +
                              describe_elements(buffer.count, buffer.type) + " being received"});
}

/// raise_receive (a failed call) or raise_problem (a completed receive that finish_receive
/// faulted) from scalars, for complete_receive.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_received(
    int code, receive_problem problem, const char* operation, MPI_Comm comm, int source, int tag,
    std::size_t count, MPI_Datatype type, const MPI_Status& status) {
  if (code != MPI_SUCCESS)
    raise_receive(code, {operation, comm, source, tag}, {nullptr, count, type}, status);
  raise_problem(problem, {operation, comm, source, tag}, {nullptr, count, type}, status);
}

/// Throws unless the receive succeeded and finish_receive found nothing wrong. The error report
/// is assembled only on the failing branches, so a successful receive pays for none of it.
template <class Into>
[[gnu::always_inline]] inline void complete_receive(int code, Into& into, const char* operation,
                                                    MPI_Comm comm, int source, int tag,
                                                    mutable_buffer buffer, const MPI_Status& status,
                                                    fill mode) {
  if (code != MPI_SUCCESS) [[unlikely]] {
    raise_received(code, receive_problem::none, operation, comm, source, tag, buffer.count,
                   buffer.type, status);
  }
  // A range's buffer count is its size when the receive was posted (finish_receive's `posted`).
  const auto problem = [&] {
    if constexpr (contiguous_payload<std::remove_cvref_t<Into>>) {
      return finish_receive(into, status, mode, buffer.count);
    } else {
      return finish_receive(into, status, mode);
    }
  }();
  if (problem != receive_problem::none) [[unlikely]] {
    raise_received(MPI_SUCCESS, problem, operation, comm, source, tag, buffer.count, buffer.type,
                   status);
  }
}

}  // namespace thinmpi::detail
