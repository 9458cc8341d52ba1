#pragma once
/// \file
/// The payload kinds thinmpi sends and receives, decided at compile time, and the one-sentence
/// diagnostics for everything else.

#include <concepts>
#include <cstddef>
#include <ranges>
#include <type_traits>

#include "thinmpi/core/datatype.hpp"

namespace thinmpi {

/// One value sent as count 1: anything with a datatype that is not itself a range.
///
///     struct particle { double x, y, z; int id; };
///     world.send(3.14, 1, 0);  world.send(particle{0, 0, 0, 7}, 1, 0);
template <class T>
concept scalar_payload =
    has_datatype<std::remove_cvref_t<T>> && !std::ranges::range<std::remove_cvref_t<T>>;

/// A contiguous sized range of elements with a datatype, sent as one message of data() and
/// size(): std::vector, std::array, std::span, C arrays, std::string, std::string_view.
template <class R>
concept contiguous_payload = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
    has_datatype<std::ranges::range_value_t<R>>;

/// A contiguous payload that can change size: std::vector, std::string. As a receive target its
/// current size is the bound, and it shrinks to what arrived; recv<C>(source, tag) allocates one.
template <class R>
concept resizable_payload = contiguous_payload<R> && requires(R& r, std::size_t n) {
  r.resize(n);
};

/// A strided or sub-array view of a contiguous array (core/views.hpp: thinmpi::strided,
/// thinmpi::subarray): sent and received as one element of a derived datatype from address(),
/// so its elements go out with no packing copy. A type is a view when it names its element
/// type as `thinmpi_view_element` and gives address() and datatype().
template <class V>
concept view_payload = requires(const V& view) {
  typename V::thinmpi_view_element;
  { view.address() } -> std::convertible_to<const void*>;
  { view.datatype() } -> std::same_as<MPI_Datatype>;
  { view.size() } -> std::same_as<std::size_t>;
};

/// Anything thinmpi can send.
template <class T>
concept payload = scalar_payload<T> || contiguous_payload<std::remove_cvref_t<T>> ||
    view_payload<std::remove_cvref_t<T>>;

namespace detail {

template <class>
inline constexpr bool dependent_false = false;

/// Explains, in one sentence naming the fix, why T has no MPI datatype.
template <class T>
consteval void explain_missing_datatype() {
  using U = std::remove_cvref_t<T>;
  if constexpr (std::is_pointer_v<U>) {
    static_assert(dependent_false<U>,
                  "thinmpi cannot send a pointer: send std::span(pointer, count) to send the "
                  "elements it points to");
  } else if constexpr (std::ranges::range<U>) {
    static_assert(dependent_false<U>,
                  "thinmpi cannot send a container of containers or of non-trivial elements: "
                  "send thinmpi::serialized(x) to send it as one message of its encoded bytes, "
                  "or flatten it into one contiguous buffer of elements that have an MPI "
                  "datatype");
  } else if constexpr (!std::is_trivially_copyable_v<U>) {
    static_assert(dependent_false<U>,
                  "thinmpi cannot send this type: it is not trivially copyable; send "
                  "thinmpi::serialized(x) to send it as one message of its encoded bytes, send "
                  "the plain data it holds, or give it an MPI datatype by specializing "
                  "thinmpi::datatype_traits");
  } else if constexpr (std::is_union_v<U>) {
    static_assert(dependent_false<U>,
                  "thinmpi cannot send a union: specialize thinmpi::datatype_traits for it with "
                  "the datatype of the member you mean to send");
  } else if constexpr (!std::is_aggregate_v<U> || !std::is_standard_layout_v<U>) {
    static_assert(dependent_false<U>,
                  "thinmpi cannot see the members of this type (it is not an aggregate with "
                  "standard layout): specialize thinmpi::datatype_traits for it, or give it a "
                  "serialize(Fields&) member and send thinmpi::serialized(x)");
  } else {
    static_assert(dependent_false<U>,
                  "thinmpi cannot build an MPI datatype for this struct: one of its members has "
                  "none (a pointer, a reference or a class that is not an aggregate); specialize "
                  "thinmpi::datatype_traits for the struct or for that member's type");
  }
}

/// Fails to compile, with one sentence naming the fix, unless P can be sent.
template <class P>
consteval void require_sendable() {
  using U = std::remove_cvref_t<P>;
  if constexpr (payload<U>) {
    return;
  } else if constexpr (requires { typename U::thinmpi_serialized_value; }) {
    static_assert(dependent_false<U>,
                  "thinmpi: thinmpi::serialized(x) goes through send/isend/sendrecv, "
                  "recv<thinmpi::serialized<T>>(), and the collectives that exchange its byte "
                  "counts first: pass thinmpi::exchange_counts, as in bcast(s, root, "
                  "exchange_counts), gatherv(s, root, exchange_counts), allgatherv(s, "
                  "exchange_counts), scatterv(s, root, exchange_counts), alltoallv(s, "
                  "exchange_counts)");
  } else if constexpr (std::ranges::range<U> && !std::ranges::contiguous_range<U>) {
    static_assert(dependent_false<U>,
                  "thinmpi cannot send this range: its elements are not contiguous in memory "
                  "(std::list, std::deque, std::set, std::vector<bool>, ...); copy them into a "
                  "std::vector first");
  } else if constexpr (std::ranges::contiguous_range<U>) {
    explain_missing_datatype<std::ranges::range_value_t<U>>();
  } else {
    explain_missing_datatype<U>();
  }
}

/// Fails to compile, with one sentence naming the fix, unless MPI can write into Into.
template <class Into>
consteval void require_writable() {
  using U = std::remove_cvref_t<Into>;
  using as_given = std::remove_reference_t<Into>;
  require_sendable<U>();
  if constexpr (std::is_const_v<as_given> && !std::ranges::borrowed_range<U>) {
    static_assert(dependent_false<U>, "thinmpi cannot receive into a const object");
  } else if constexpr (std::ranges::range<as_given>) {
    if constexpr (std::is_const_v<
                      std::remove_reference_t<std::ranges::range_reference_t<as_given>>>) {
      static_assert(dependent_false<U>,
                    "thinmpi cannot receive into a range of const elements (such as "
                    "std::string_view or std::span<const T>); pass a writable buffer");
    }
  }
}

/// Fails to compile, with one sentence naming the fix, unless a blocking receive can write into
/// Into and the caller can see the result: a named object, or a view such as std::span.
template <class Into>
consteval void require_receivable() {
  using U = std::remove_cvref_t<Into>;
  require_writable<Into>();
  if constexpr (!std::is_lvalue_reference_v<Into> && !std::ranges::borrowed_range<U>) {
    static_assert(dependent_false<U>,
                  "thinmpi cannot receive into a temporary: the data would be destroyed with it; "
                  "pass a named buffer, or call recv<T>(source, tag) to get a new one");
  }
}

}  // namespace detail
}  // namespace thinmpi
