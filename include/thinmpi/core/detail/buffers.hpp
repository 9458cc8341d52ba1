#pragma once
/// \file
/// A payload as MPI sees it (address, count, datatype), and what a receive does once data has
/// arrived: check that whole elements came, shrink a bounded container, check a scalar is full.

#include <cstddef>
#include <memory>
#include <optional>
#include <ranges>
#include <type_traits>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/status_bytes.hpp"

namespace thinmpi::detail {

/// Address, element count and datatype of a payload to send.
struct const_buffer {
  const void* data;
  std::size_t count;
  MPI_Datatype type;
};

/// Address, room in elements, and datatype of a receive target.
struct mutable_buffer {
  void* data;
  std::size_t count;
  MPI_Datatype type;
};

/// The count of a target that does not exist yet (a probe, a receive of unknown size).
inline constexpr std::size_t unknown_count = static_cast<std::size_t>(-1);

/// The target of a call that has none yet: errors report its element type but no count.
[[nodiscard]] inline mutable_buffer no_buffer(MPI_Datatype type) noexcept {
  return {nullptr, unknown_count, type};
}

/// The count an error report states for a target: none if it is unknown.
[[nodiscard]] inline std::optional<std::size_t> known_count(const mutable_buffer& b) noexcept {
  if (b.count == unknown_count) return std::nullopt;
  return b.count;
}

/// The element type of a payload: the range's value type, or the scalar itself.
template <class P>
struct element_of {
  using type = std::remove_cvref_t<P>;
};
template <class P>
requires contiguous_payload<std::remove_cvref_t<P>>
struct element_of<P> {
  using type = std::ranges::range_value_t<std::remove_cvref_t<P>>;
};
template <class P>
requires view_payload<std::remove_cvref_t<P>>
struct element_of<P> {
  using type = typename std::remove_cvref_t<P>::thinmpi_view_element;
};
template <class P>
using element_t = typename element_of<P>::type;

template <class P>
[[nodiscard]] const_buffer send_buffer(const P& payload) noexcept {
  if constexpr (contiguous_payload<P>) {
    return {std::ranges::data(payload), std::ranges::size(payload), datatype_of<element_t<P>>()};
  } else if constexpr (view_payload<P>) {
    return {payload.address(), 1, payload.datatype()};  // one element of the view's datatype
  } else {
    return {std::addressof(payload), 1, datatype_of<P>()};
  }
}

template <class P>
[[nodiscard]] mutable_buffer recv_buffer(P& into) noexcept {
  if constexpr (contiguous_payload<std::remove_cvref_t<P>>) {
    return {std::ranges::data(into), std::ranges::size(into), datatype_of<element_t<P>>()};
  } else if constexpr (view_payload<std::remove_cvref_t<P>>) {
    return {into.address(), 1, into.datatype()};
  } else {
    return {std::addressof(into), 1, datatype_of<std::remove_cvref_t<P>>()};
  }
}

/// What a completed receive found wrong, if anything.
enum class receive_problem {
  none,
  partial_element,  ///< the byte count is not a whole number of elements
  too_short,        ///< fewer elements than a full target (scalars, recv<std::array>) needs
};

/// Whether a receive must fill its target completely.
enum class fill { up_to, exact };

/// After a receive into `into` completed with `status`: checks that whole elements arrived,
/// shrinks a resizable container to them, and, for `fill::exact`, that the target is full.
/// Always inlined: clang 14 called it out of line for a struct vector (a call, the status's
/// address taken, for one multiply and one compare).
///
/// `posted` is the element count the receive was posted with (its buffer's count: the size of a
/// range target). Given by the caller that still has it, it spares reading the container again
/// after the MPI call, which the compiler must (MPI might have changed it), and a division by
/// the element's size for a struct (issue 18: 7 instructions a receive of a struct vector).
template <class Into>
[[nodiscard, gnu::always_inline]] inline receive_problem finish_receive(Into& into,
                                                                        const MPI_Status& status,
                                                                        fill mode,
                                                                        std::size_t posted) {
  using target = std::remove_cvref_t<Into>;
  const std::size_t bytes = status_bytes(status);
  const std::size_t element_bytes = wire_size<element_t<Into>>();
  if constexpr (!resizable_payload<target> && !contiguous_payload<target> &&
                !view_payload<target>) {
    // A scalar is exactly one element: one compare on the path that succeeds, the problem named
    // on the failing one.
    if (bytes != element_bytes) [[unlikely]] {
      return bytes % element_bytes != 0 ? receive_problem::partial_element
                                        : receive_problem::too_short;
    }
  } else {
    if constexpr (resizable_payload<target> ||
                  (contiguous_payload<target> && !wire_size_is_sizeof<element_t<Into>>)) {
      // A message that fills the target (a bound sized to it, the usual case) is whole elements
      // and leaves nothing to shrink: one multiply and one compare instead of a resize and, for a
      // struct, a 64-bit division (issue 18: 12 instructions a receive of a struct vector). A
      // fixed range of ints keeps its one test of the low bits.
      if (bytes == posted * element_bytes) [[likely]] {
        return receive_problem::none;
      }
    }
    if (bytes % element_bytes != 0) [[unlikely]] {
      return receive_problem::partial_element;
    }
    const std::size_t count = bytes / element_bytes;
    if constexpr (resizable_payload<target>) {
      into.resize(count);  // never grows: count <= the bound MPI was given
    } else if (mode == fill::exact && count != posted) [[unlikely]] {
      return receive_problem::too_short;
    }
  }
  return receive_problem::none;
}

/// finish_receive for a caller without the posted count: a range target's own size (or one
/// element).
template <class Into>
[[nodiscard, gnu::always_inline]] inline receive_problem finish_receive(Into& into,
                                                                        const MPI_Status& status,
                                                                        fill mode) {
  if constexpr (std::ranges::sized_range<std::remove_cvref_t<Into>>) {
    return finish_receive(into, status, mode, std::ranges::size(into));
  } else {
    return finish_receive(into, status, mode, 1);
  }
}

}  // namespace thinmpi::detail
