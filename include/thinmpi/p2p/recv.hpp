#pragma once
/// \file
/// recv: into a buffer the caller has (one MPI_Recv), or into a new one (a matched probe and
/// receive for containers of unknown size, one MPI_Recv otherwise).

#include <cstddef>
#include <ranges>
#include <type_traits>
#include <utility>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/core/detail/status_bytes.hpp"
#include "thinmpi/core/status.hpp"
#include "thinmpi/p2p/detail/calls.hpp"
#include "thinmpi/p2p/detail/errors.hpp"
#include "thinmpi/p2p/detail/sized_for.hpp"

namespace thinmpi {

/// A value received together with its status.
///
///     auto [values, st] = world.recv_with_status<std::vector<int>>(thinmpi::any_source, 0);
template <class T>
struct received {
  T value;                 ///< the received value
  thinmpi::status status;  ///< its source, tag and size
};

namespace detail {

/// One MPI_Recv into `into`, then the checks of finish_receive. Always inlined: clang 14 kept it
/// out of line for spans, vectors and structs, where `mode` is then a run-time argument and the
/// status is copied out through memory (issue 18: clang's receives some 30 instructions over
/// GCC's).
template <class Into>
[[gnu::always_inline]] inline status receive_into(MPI_Comm comm, Into& into, int source, int tag,
                                                  fill mode) {
  const mutable_buffer buffer = recv_buffer(into);
  MPI_Status raw;  // filled by MPI_Recv; read only after it returns
  const int rc = recv(buffer.data, buffer.count, buffer.type, source, tag, comm, &raw);
  complete_receive(rc, into, "MPI_Recv", comm, source, tag, buffer, raw, mode);
  return status(raw, buffer.type);
}

/// MPI_Mprobe, then a container of exactly the message's size, then MPI_Mrecv into it. `raw`
/// is the probe's status: the message it matched is the one received, so MPI_Mrecv's status
/// would say nothing new and is not asked for. The error reports get scalars on their failing
/// branches only: a p2p_call or buffer object made GCC 12 store all of it before the probe
/// (issue 18: 8 stores a receive).
template <class Container>
[[gnu::always_inline]] inline Container receive_new(MPI_Comm comm, int source, int tag,
                                                    MPI_Status& raw) {
  using element = std::ranges::range_value_t<Container>;
  MPI_Message message;  // set by MPI_Mprobe before it is read
  if (const int rc = detail::mprobe(source, tag, comm, &message, &raw); rc != MPI_SUCCESS)
      [[unlikely]] {
    raise_received(rc, receive_problem::none, "MPI_Mprobe", comm, source, tag, unknown_count,
                   datatype_of<element>(), raw);
  }
  const std::size_t bytes = status_bytes(raw);
  if (bytes % wire_size<element>() != 0) [[unlikely]] {
    discard_partial(message, raw, "MPI_Mprobe", comm, source, tag, datatype_of<element>());
  }
  Container arrived = with_count<Container>(bytes / wire_size<element>());
  const mutable_buffer buffer = recv_buffer(arrived);
  const int rc = mrecv(buffer.data, buffer.count, buffer.type, &message, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_received(rc, receive_problem::none, "MPI_Mrecv", comm, source, tag, buffer.count,
                   buffer.type, raw);
  }
  return arrived;
}

}  // namespace detail

/// The blocking receives of a communicator (comm_view derives from this family).
template <class Comm>
class p2p_recv {
 public:
  /// Receives into `into` with one MPI_Recv. A scalar must arrive whole; a fixed range (span,
  /// std::array, C array) takes up to its size; a resizable container (vector, string) takes up
  /// to its current size and shrinks to what arrived. A larger message is an error that states
  /// both sizes, never a silent truncation.
  template <class Into>
  [[gnu::always_inline]] status recv(Into&& into, int source, int tag) const {
    detail::require_receivable<Into&&>();
    return detail::receive_into(comm(), into, source, tag, detail::fill::up_to);
  }
  /// Receives a new T. For std::vector and std::string, of whatever size was sent: a matched
  /// probe then a receive (MPI_Mprobe + MPI_Mrecv), one message on the wire, thread-safe. For a
  /// scalar or fixed-size T, one MPI_Recv that must fill it. For thinmpi::serialized<U>, a U
  /// decoded from one message (MPI_Mprobe + MPI_Mrecv).
  template <class T>
  [[nodiscard, gnu::always_inline]] detail::received_value_t<T> recv(int source, int tag) const {
    if constexpr (detail::serialized_payload<T>) {
      return recv_with_status<T>(source, tag).value;
    } else if constexpr (resizable_payload<T>) {
      detail::require_writable<T&>();
      MPI_Status raw;  // MPI_Mprobe's, read only by an error report: no status is returned
      return detail::receive_new<T>(comm(), source, tag, raw);
    } else {
      return recv_new<T>(source, tag).value;  // inlined: the unused status costs nothing
    }
  }
  /// recv<T>() with the status, e.g. to learn the source of an any_source receive.
  template <class T>
  [[nodiscard]] received<detail::received_value_t<T>> recv_with_status(int source, int tag) const {
    if constexpr (detail::serialized_payload<T>) {
      MPI_Status raw{};
      auto value = T::receive(comm(), source, tag, raw);
      return {std::move(value), status(raw, MPI_BYTE)};
    } else {
      return recv_new<T>(source, tag);
    }
  }

 private:
  template <class T>
  [[gnu::always_inline]] received<T> recv_new(int source, int tag) const {
    detail::require_writable<T&>();
    static_assert(std::is_default_constructible_v<T>,
                  "thinmpi cannot create the T to receive into: it has no default constructor; "
                  "receive into an object you construct with recv(object, source, tag)");
    if constexpr (resizable_payload<T>) {
      // Returned to the caller, so every field is defined first: MPICH 4.0.2's MPI_Mprobe leaves
      // the cancelled flag as it found it (status.cancelled() read stack garbage).
      MPI_Status raw{};
      T value = detail::receive_new<T>(comm(), source, tag, raw);
      return {std::move(value), status(raw, datatype_of<std::ranges::range_value_t<T>>())};
    } else {
      // Not value-initialised: MPI fills it, and a receive that does not fill it throws. The
      // status is put beside it after the receive, so recv<T>() never stores one (a `received`
      // whose value MPI writes would keep every store into it, its status included).
      T value;
      const status arrived = detail::receive_into(comm(), value, source, tag, detail::fill::exact);
      return {std::move(value), arrived};
    }
  }

  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
};

}  // namespace thinmpi
