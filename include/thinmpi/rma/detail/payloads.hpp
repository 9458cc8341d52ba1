#pragma once
/// \file
/// What a one-sided operation accepts as origin and result buffers, decided at compile time:
/// the payloads of the other families (a scalar, a contiguous range, a span, a strided view)
/// whose elements are the window's, and, since MPI reads an origin buffer and writes a result
/// buffer until a flush or the end of the epoch, only buffers that outlive the call: a named
/// object or a view of one. A temporary fails to compile with one sentence naming the fix (the
/// request-based operations own what is moved into them instead).

#include <cstddef>
#include <ranges>
#include <type_traits>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"

namespace thinmpi::detail {

/// Elements of T a payload holds: a range's size, a view's size, 1 for a scalar.
template <class P>
[[nodiscard, gnu::always_inline]] inline std::size_t elements_of(const P& payload) noexcept {
  if constexpr (contiguous_payload<P>) {
    return std::ranges::size(payload);
  } else if constexpr (view_payload<P>) {
    return payload.size();
  } else {
    return 1;
  }
}

/// Fails to compile unless P's elements are the window's element type T.
template <class P, class T>
consteval void require_window_elements() {
  if constexpr (!std::is_same_v<std::remove_cv_t<element_t<std::remove_cvref_t<P>>>, T>) {
    static_assert(dependent_false<P>,
                  "thinmpi: a window of T puts, gets and accumulates elements of T only; convert "
                  "the values first, or make a window of this element type");
  }
}

/// Fails to compile, with one sentence naming the fix, unless P can be an origin buffer of a
/// blocking-call one-sided operation on a window of T.
template <class P, class T>
consteval void require_rma_origin() {
  using U = std::remove_cvref_t<P>;
  require_sendable<U>();
  require_window_elements<P, T>();
  if constexpr (!std::is_lvalue_reference_v<P> && !std::ranges::borrowed_range<U> &&
                !view_payload<U>) {
    static_assert(dependent_false<U>,
                  "thinmpi: MPI reads a one-sided operation's origin buffer until a flush or the "
                  "end of the epoch, and this one is a temporary: pass a named object (or a "
                  "std::span of one), or use rput/raccumulate, whose request owns what is moved "
                  "into it");
  }
}

/// Fails to compile, with one sentence naming the fix, unless MPI can write a one-sided
/// operation's result into Into (a named object or a view of one) on a window of T.
template <class Into, class T>
consteval void require_rma_result() {
  using U = std::remove_cvref_t<Into>;
  require_writable<Into>();
  require_window_elements<Into, T>();
  if constexpr (!std::is_lvalue_reference_v<Into> && !std::ranges::borrowed_range<U> &&
                !view_payload<U>) {
    static_assert(dependent_false<U>,
                  "thinmpi: MPI writes a one-sided operation's result buffer until a flush or the "
                  "end of the epoch, and this one is a temporary: pass a named object (or a "
                  "std::span of one), or use rget/rget_accumulate, whose request owns what is "
                  "moved into it and hands it back from wait()");
  }
}

/// Fails to compile unless T is a type MPI's fetch_and_op and compare_and_swap take.
template <class T, bool compare>
consteval void require_atomic_element() {
  if constexpr (compare) {
    static_assert(std::is_integral_v<T> || std::is_same_v<T, std::byte>,
                  "thinmpi: MPI_Compare_and_swap works on one integer, bool or std::byte; use "
                  "a window of such elements");
  } else {
    static_assert(std::is_arithmetic_v<T> || std::is_same_v<T, std::byte>,
                  "thinmpi: MPI_Fetch_and_op works on one element of a predefined type (an "
                  "integer, floating point, bool or std::byte); use get_accumulate for other "
                  "element types");
  }
}

}  // namespace thinmpi::detail
