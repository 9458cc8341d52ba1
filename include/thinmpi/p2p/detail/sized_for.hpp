#pragma once
/// \file
/// The container an allocating receive of unknown size receives into: exactly the size of the
/// message a matched probe found.

#include <cstddef>
#include <ranges>
#include <type_traits>
#include <vector>

#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/status_bytes.hpp"
#include "thinmpi/p2p/detail/calls.hpp"
#include "thinmpi/p2p/detail/errors.hpp"

namespace thinmpi::detail {

/// A new container of `count` elements, sized by its constructor: one allocation and one
/// value-initialization (none with default_init_allocator). Default construction followed by
/// resize() does the same work through std::vector's growth path (capacity arithmetic, a
/// relocation loop and a deallocation check that an empty vector never needs), which cost a
/// visible share of a tiny allocating receive (docs/library.md, "Receives of unknown size").
template <class Container>
Container with_count(std::size_t count) {
  if constexpr (std::is_constructible_v<Container, std::size_t>) {
    return Container(count);
  } else {  // std::string has no count-only constructor
    return Container(count, std::ranges::range_value_t<Container>{});
  }
}

/// Receives a matched message whose bytes are not whole elements (so it is not left matched and
/// pending), then throws MPI_ERR_TYPE naming the sizes.
[[noreturn, gnu::cold, gnu::noinline]] inline void discard_partial(MPI_Message& message,
                                                                   const MPI_Status& probed,
                                                                   const char* operation,
                                                                   MPI_Comm comm, int source,
                                                                   int tag, MPI_Datatype type) {
  std::vector<std::byte> discarded(status_bytes(probed));
  MPI_Status ignored;
  static_cast<void>(mrecv(discarded.data(), discarded.size(), MPI_BYTE, &message, &ignored));
  raise_received(MPI_SUCCESS, receive_problem::partial_element, operation, comm, source, tag,
                 unknown_count, type, probed);
}

/// A container of exactly the matched message's size; if its bytes are not whole elements,
/// receives the message (so it is not left matched and pending) and throws.
template <class Container>
Container sized_for(MPI_Message& message, const MPI_Status& probed, const p2p_call& call) {
  using element = std::ranges::range_value_t<Container>;
  const std::size_t bytes = status_bytes(probed);
  if (bytes % wire_size<element>() != 0) [[unlikely]] {
    discard_partial(message, probed, call.operation, call.comm, call.peer, call.tag,
                    datatype_of<element>());
  }
  return with_count<Container>(bytes / wire_size<element>());
}

}  // namespace thinmpi::detail
