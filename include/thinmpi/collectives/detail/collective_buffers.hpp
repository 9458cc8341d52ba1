#pragma once
/// \file
/// The buffers of the data-moving collectives: a nonblocking or persistent one holds each
/// payload borrowed (a named object: a pointer to it) or owned (moved in, or a view such as
/// std::span kept by value) inside its state block, whose address never changes; the send and
/// receive element types must agree; and the int counts the nonblocking calls take.

#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/held.hpp"
#include "thinmpi/core/detail/narrow.hpp"

namespace thinmpi::detail {

/// Fails to compile, with one sentence, unless a collective sends and receives one element type.
template <class Send, class Into>
consteval void require_same_element() {
  static_assert(std::is_same_v<element_t<Send>, element_t<Into>>,
                "thinmpi: a collective sends and receives the same element type; receive into a "
                "buffer of the elements you send");
}

/// Throws MPI_ERR_COUNT, before MPI is called, unless `count` fits the int count of the
/// nonblocking and persistent calls (their large-count forms would need a datatype kept alive
/// until completion; the blocking calls take any count).
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_int_count(const collective_call& call,
                                                                   std::size_t count,
                                                                   MPI_Datatype type) {
  raise_collective(MPI_ERR_COUNT, call, count, type,
                   "nonblocking and persistent collectives take counts and displacements up to "
                   "INT_MAX; use the blocking call for " +
                       describe_elements(count, type));
}
/// See raise_int_count: one comparison on the hot path.
inline void check_int_count(const collective_call& call, std::size_t count, MPI_Datatype type) {
  if (!fits_int(count)) [[unlikely]] {
    raise_int_count(call, count, type);
  }
}
/// Throws MPI_ERR_COUNT, before MPI is called, unless `count` elements are `ranks` equal blocks.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_uneven_blocks(const collective_call& call,
                                                                       std::size_t count,
                                                                       MPI_Datatype type,
                                                                       std::size_t ranks,
                                                                       const char* which) {
  raise_collective(MPI_ERR_COUNT, call, count, type,
                   std::string("the ") + which + " of " + describe_elements(count, type) +
                       " is not " + std::to_string(ranks) + " equal blocks, one per rank");
}
/// The block of `count` elements split in `ranks` equal blocks; throws unless they divide it.
[[gnu::always_inline]] inline std::size_t equal_blocks(const collective_call& call,
                                                       std::size_t count, MPI_Datatype type,
                                                       std::size_t ranks, const char* which) {
  if (count % ranks != 0) [[unlikely]] {
    raise_uneven_blocks(call, count, type, ranks, which);
  }
  return count / ranks;
}

/// If `into` is a resizable container (std::vector, std::string), shrinks it to `count`.
template <class Into>
void shrink_to(Into& into, std::size_t count) {
  if constexpr (resizable_payload<std::remove_cvref_t<Into>>) {
    if (std::ranges::size(into) > count) into.resize(count);
  }
}

}  // namespace thinmpi::detail
