#pragma once
/// \file
/// Receives of unknown size that reuse memory or are given a bound: recv_reuse (a matched probe,
/// then the receive into the caller's vector or string, sized to the message, allocating only
/// when its capacity is too small; of serialized(x), the decode into x's own storage) and
/// recv_at_most (one MPI_Recv into a new container of a caller-given largest size, shrunk to what
/// arrived).

#include <cstddef>
#include <ranges>
#include <type_traits>
#include <vector>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/core/detail/status_bytes.hpp"
#include "thinmpi/core/status.hpp"
#include "thinmpi/p2p/detail/calls.hpp"
#include "thinmpi/p2p/detail/errors.hpp"

namespace thinmpi {

namespace detail {

/// Sizes `into` to `count` elements, reallocating only if its capacity is too small. Elements
/// it already holds are not written (std::vector::resize within size); new ones are
/// value-initialized, as std::vector and std::string do, unless the allocator skips that
/// (thinmpi::default_init_allocator). When it must reallocate, the old elements are not copied.
template <class Container>
void size_for_reuse(Container& into, std::size_t count) {
  if (count > into.capacity()) into.clear();
  into.resize(count);
}

}  // namespace detail

/// Receives of unknown size into reused or bounded storage (comm_view derives from this family).
template <class Comm>
class p2p_recv_reuse {
 public:
  /// Receives a message of any size into `into` (a std::vector or std::string), which is sized
  /// to it: MPI_Mprobe, then MPI_Mrecv into into.data(). Allocates only when into's capacity is
  /// smaller than the message, so in a loop of messages no larger than the first it allocates
  /// nothing. Thread-safe like recv<std::vector<T>>().
  ///
  ///     std::vector<int> values;
  ///     for (int step = 0; step < steps; ++step)
  ///       world.recv_reuse(values, 0, tag);  // one allocation at most, at the start
  ///
  /// Inline where it is called, as recv() is, and its error reports take scalars on their
  /// failing branches only: clang 14 called it out of line, with the report's context stored
  /// before the probe (issue 30: 107 instructions a message on Open MPI clang, GCC's 89).
  template <class Container>
  requires(!detail::serialized_payload<Container>) [[gnu::always_inline]] status
      recv_reuse(Container& into, int source, int tag) const {
    static_assert(resizable_payload<Container>,
                  "thinmpi::recv_reuse receives into a std::vector or std::string; receive into "
                  "a fixed buffer with recv(buffer, source, tag)");
    detail::require_writable<Container&>();
    using element = std::ranges::range_value_t<Container>;
    const MPI_Datatype type = datatype_of<element>();
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status raw;  // filled by MPI_Mprobe before it is read
    const MPI_Comm on = comm();
    if (const int rc = detail::mprobe(source, tag, on, &message, &raw); rc != MPI_SUCCESS)
        [[unlikely]] {
      detail::raise_received(rc, detail::receive_problem::none, "MPI_Mprobe", on, source, tag,
                             detail::unknown_count, type, raw);
    }
    const std::size_t bytes = detail::status_bytes(raw);
    const std::size_t element_bytes = detail::wire_size<element>();
    if (bytes % element_bytes != 0) [[unlikely]] {
      discard_and_raise(message, raw, on, source, tag, type);
    }
    detail::size_for_reuse(into, bytes / element_bytes);
    const detail::mutable_buffer buffer = detail::recv_buffer(into);
    const int rc = detail::mrecv(buffer.data, buffer.count, type, &message, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_received(rc, detail::receive_problem::none, "MPI_Mrecv", on, source, tag,
                             buffer.count, type, raw);
    }
    return status(raw, type);
  }

  /// Receives a serialized value into the x that serialized(x) names, reusing x's storage:
  /// MPI_Mprobe, one allocation of the message's size (its bytes), MPI_Mrecv, one decode pass
  /// that reads into what x holds (a string keeps its buffer when the new one fits, a vector
  /// its elements, a map or set its nodes), so a loop of like-sized messages allocates only the
  /// bytes. A malformed message is a thinmpi::serialization_error naming the source and tag, and
  /// leaves x empty. The status counts bytes.
  ///
  ///     std::vector<std::string> names;
  ///     for (int step = 0; step < steps; ++step)
  ///       world.recv_reuse(thinmpi::serialized(names), 0, tag);
  template <detail::serialized_payload Payload>
  status recv_reuse(Payload&& into, int source, int tag) const {
    MPI_Status raw{};
    into.receive_into(comm(), source, tag, raw);
    return status(raw, MPI_BYTE);
  }

  /// Receives a new std::vector or std::string of at most max_count elements with one MPI_Recv
  /// (no probe), shrunk to what arrived. A larger message is an error stating both sizes (MPICH
  /// does not report the incoming size, so there it states the bound). The new container is
  /// value-initialized up to max_count first, as std::vector must be sized.
  ///
  ///     auto values = world.recv_at_most<std::vector<int>>(0, tag, 1024);
  template <class Container>
  [[nodiscard]] Container recv_at_most(int source, int tag, std::size_t max_count) const {
    static_assert(resizable_payload<Container>,
                  "thinmpi::recv_at_most creates a std::vector or std::string; receive into a "
                  "fixed buffer with recv(buffer, source, tag)");
    detail::require_writable<Container&>();
    Container into;
    into.resize(max_count);
    const detail::mutable_buffer buffer = detail::recv_buffer(into);
    MPI_Status raw;  // filled by MPI_Recv; read only after it returns
    const int rc = detail::recv(buffer.data, buffer.count, buffer.type, source, tag, comm(), &raw);
    detail::complete_receive(rc, into, "MPI_Recv", comm(), source, tag, buffer, raw,
                             detail::fill::up_to);
    return into;
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }

  /// Receives a matched message whose bytes are not whole elements (so it does not stay
  /// matched and pending), then throws.
  [[noreturn, gnu::cold, gnu::noinline]] static void discard_and_raise(MPI_Message& message,
                                                                       const MPI_Status& probed,
                                                                       MPI_Comm comm, int source,
                                                                       int tag, MPI_Datatype type) {
    std::vector<std::byte> discarded(detail::status_bytes(probed));
    MPI_Status ignored;
    static_cast<void>(
        detail::mrecv(discarded.data(), discarded.size(), MPI_BYTE, &message, &ignored));
    detail::raise_problem(detail::receive_problem::partial_element,
                          {"MPI_Mprobe", comm, source, tag}, detail::no_buffer(type), probed);
  }
};

}  // namespace thinmpi
