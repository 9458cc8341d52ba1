#pragma once
/// \file
/// What the serialization passes know of a type before they run: which standard templates it
/// is, whether its bytes are its value (copied as one block), its smallest and its fixed wire
/// size, how to visit its fields, and the one compile-time sentence for a type thinmpi cannot
/// serialize. The passes themselves are in serialization/codec.hpp.

#include <array>
#include <complex>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/aggregate.hpp"

namespace thinmpi::detail::serial {

template <class T, template <class...> class Template>
inline constexpr bool is_specialization = false;
template <template <class...> class Template, class... Args>
inline constexpr bool is_specialization<Template<Args...>, Template> = true;

template <class T>
inline constexpr bool is_std_array_v = false;
template <class E, std::size_t N>
inline constexpr bool is_std_array_v<std::array<E, N>> = true;

template <class T>
inline constexpr bool is_string = is_specialization<T, std::basic_string>;
/// A string of one-byte characters, built straight from the message's bytes.
template <class T>
inline constexpr bool is_byte_string = false;
template <class C, class Traits, class Alloc>
inline constexpr bool is_byte_string<std::basic_string<C, Traits, Alloc>> = sizeof(C) == 1;
/// A pair of a key and a byte string: an entry of the flat form of a map<K, std::string>.
template <class T>
inline constexpr bool is_keyed_byte_string = false;
template <class K, class S>
inline constexpr bool is_keyed_byte_string<std::pair<K, S>> = is_byte_string<S>;
template <class T>
inline constexpr bool is_vector =
    is_specialization<T, std::vector> && !std::is_same_v<T, std::vector<bool>>;
template <class T>
inline constexpr bool is_map =
    is_specialization<T, std::map> || is_specialization<T, std::unordered_map>;
template <class T>
inline constexpr bool is_set =
    is_specialization<T, std::set> || is_specialization<T, std::unordered_set>;

/// A visitor that accepts any fields: detects the serialize(Fields&) customization point.
struct fields_probe {
  template <class... M>
  void operator()(M&...) const noexcept {}
};

/// T declares `template <class Fields> void serialize(Fields& fields)`.
template <class T>
concept has_serialize = requires(T& object, fields_probe& fields) {
  object.serialize(fields);
};

/// An aggregate struct thinmpi reflects (no customization point).
template <class T>
concept reflected_aggregate = std::is_class_v<T> && std::is_aggregate_v<T> && !std::is_union_v<T> &&
                              !has_serialize<T> && !is_std_array_v<T>;

template <class... M>
struct field_list {};

/// The types of an aggregate's fields (only in unevaluated contexts).
struct field_types_probe {
  template <class... M>
  field_list<std::remove_cv_t<M>...> operator()(M&...) const noexcept {
    return {};
  }
};
template <class T>
using fields_of = decltype(visit_fields<field_count<T>>(std::declval<T&>(), field_types_probe{}));

template <class T>
consteval bool is_block();

template <class... M>
consteval bool all_blocks(field_list<M...>) {
  return (is_block<M>() && ...);
}
template <class... M>
consteval std::size_t size_sum(field_list<M...>) {
  return (std::size_t{0} + ... + sizeof(M));
}

/// Whether T's bytes are its value, with no padding and no invalid patterns: such values, and
/// contiguous runs of them, are copied as one block. bool is not (a byte other than 0 or 1 would
/// be undefined behaviour to read), nor is a struct with padding (its padding bytes would leak).
template <class T>
consteval bool is_block() {
  if constexpr (std::is_same_v<T, bool> || has_serialize<T>) {
    return false;
  } else if constexpr (std::is_enum_v<T>) {
    return !std::is_same_v<std::underlying_type_t<T>, bool>;
  } else if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::byte>) {
    return true;
  } else if constexpr (is_specialization<T, std::complex>) {
    return true;
  } else if constexpr (std::is_array_v<T>) {
    return is_block<std::remove_extent_t<T>>();
  } else if constexpr (is_std_array_v<T>) {
    return sizeof(T) == std::tuple_size_v<T> * sizeof(typename T::value_type) &&
           is_block<typename T::value_type>();
  } else if constexpr (reflected_aggregate<T> && std::is_trivially_copyable_v<T>) {
    if constexpr (field_count<T> == 0) {
      return false;
    } else {
      return all_blocks(fields_of<T>{}) && size_sum(fields_of<T>{}) == sizeof(T);
    }
  } else {
    return false;
  }
}

/// The smallest number of bytes any value of T takes on the wire (0 if unknown: a
/// customized class).
template <class T>
consteval std::size_t min_wire_size();

template <class... M>
consteval std::size_t min_sum(field_list<M...>) {
  return (std::size_t{0} + ... + min_wire_size<M>());
}
template <class... A>
consteval std::size_t min_alternative(field_list<A...>) {
  return std::min({min_wire_size<A>()...});
}

template <class T>
consteval std::size_t min_wire_size() {
  if constexpr (is_block<T>()) {
    return sizeof(T);
  } else if constexpr (std::is_same_v<T, bool>) {
    return 1;
  } else if constexpr (has_serialize<T>) {
    return 0;
  } else if constexpr (is_string<T> || is_vector<T> || is_map<T> || is_set<T>) {
    return sizeof(std::uint64_t);
  } else if constexpr (std::is_array_v<T>) {
    return std::extent_v<T> * min_wire_size<std::remove_extent_t<T>>();
  } else if constexpr (is_std_array_v<T>) {
    return std::tuple_size_v<T> * min_wire_size<typename T::value_type>();
  } else if constexpr (is_specialization<T, std::pair>) {
    return min_wire_size<typename T::first_type>() + min_wire_size<typename T::second_type>();
  } else if constexpr (is_specialization<T, std::tuple>) {
    return []<class... E>(std::type_identity<std::tuple<E...>>) {
      return min_sum(field_list<E...>{});
    }(std::type_identity<T>{});
  } else if constexpr (is_specialization<T, std::optional>) {
    return 1;
  } else if constexpr (is_specialization<T, std::variant>) {
    return []<class... A>(std::type_identity<std::variant<A...>>) {
      return sizeof(std::uint32_t) + min_alternative(field_list<A...>{});
    }(std::type_identity<T>{});
  } else if constexpr (reflected_aggregate<T>) {
    if constexpr (field_count<T> == 0) {
      return 0;
    } else {
      return min_sum(fields_of<T>{});
    }
  } else {
    return 0;
  }
}

/// Fails to compile, with one sentence naming the fix, unless thinmpi can serialize T.
template <class T>
consteval void require_serializable() {
  using U = std::remove_cvref_t<T>;
  if constexpr (std::is_pointer_v<U>) {
    static_assert(dependent_false<U>,
                  "thinmpi cannot serialize a pointer: serialize the value it points to, or a "
                  "std::vector of the elements");
  } else if constexpr (std::is_union_v<U>) {
    static_assert(dependent_false<U>,
                  "thinmpi cannot serialize a union: use std::variant, or give the type a "
                  "serialize(Fields&) member that serializes the member in use");
  } else if constexpr (std::is_same_v<U, std::vector<bool>>) {
    static_assert(dependent_false<U>,
                  "thinmpi cannot serialize std::vector<bool>: use std::vector<std::uint8_t> or "
                  "std::vector<char>");
  }
}

/// Calls visit on every field of an aggregate or a customized class.
template <class T, class Visit>
void for_fields(T& object, Visit&& visit) {
  if constexpr (has_serialize<std::remove_const_t<T>>) {
    const_cast<std::remove_const_t<T>&>(object).serialize(visit);
  } else if constexpr (field_count<std::remove_const_t<T>> != 0) {
    visit_fields<field_count<std::remove_const_t<T>>>(object, visit);
  }
}

/// The fixed wire size of every value of T, or 0 if values of T differ in size.
template <class T>
consteval std::size_t fixed_wire_size() {
  if constexpr (is_block<T>()) {
    return sizeof(T);
  } else if constexpr (std::is_same_v<T, bool>) {
    return 1;
  } else if constexpr (is_std_array_v<T>) {
    return std::tuple_size_v<T> * fixed_wire_size<typename T::value_type>();
  } else if constexpr (std::is_array_v<T>) {
    return std::extent_v<T> * fixed_wire_size<std::remove_extent_t<T>>();
  } else if constexpr (is_specialization<T, std::pair>) {
    constexpr std::size_t a = fixed_wire_size<typename T::first_type>();
    constexpr std::size_t b = fixed_wire_size<typename T::second_type>();
    return a != 0 && b != 0 ? a + b : 0;
  } else {
    return 0;
  }
}

}  // namespace thinmpi::detail::serial
