#pragma once
/// \file
/// What thinmpi serializes and how: the size pass, the write pass and the checked read pass for
/// each supported type. Contiguous runs of trivially copyable elements without padding (a
/// std::vector<double>, a std::string's characters) are copied as one block.
///
/// Supported: arithmetic types, enums, std::byte, std::complex, std::basic_string,
/// std::vector, std::array, C arrays, std::pair, std::tuple, std::optional, std::variant,
/// std::map, std::set, std::unordered_map, std::unordered_set, aggregate structs of any of
/// these (no user code), any nesting of them, and classes that declare
///
///     class account {
///      public:
///       template <class Fields> void serialize(Fields& fields) { fields(owner_, cents_); }
///      private:
///       std::string owner_;
///       long long cents_ = 0;
///     };

#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/aggregate.hpp"
#include "thinmpi/serialization/detail/codec_traits.hpp"
#include "thinmpi/serialization/wire.hpp"

namespace thinmpi::detail::serial {

template <class T>
std::size_t wire_size(const T& value);
template <class T>
void write(byte_writer& out, const T& value);
template <class T>
void read(byte_reader& in, T& value);

/// Each element of a sequence: counted, written or read one by one unless a block.
template <class Range>
std::size_t elements_size(const Range& range) {
  using element = std::remove_cvref_t<decltype(*std::begin(range))>;
  if constexpr (fixed_wire_size<element>() != 0) {
    return std::size(range) * fixed_wire_size<element>();
  } else {
    std::size_t bytes = 0;
    for (const auto& e : range)
      bytes += wire_size(e);
    return bytes;
  }
}

template <class T>
std::size_t wire_size(const T& value) {
  require_serializable<T>();
  if constexpr (fixed_wire_size<T>() != 0) {
    return fixed_wire_size<T>();
  } else if constexpr (is_string<T>) {
    return sizeof(std::uint64_t) + value.size() * sizeof(typename T::value_type);
  } else if constexpr (is_vector<T> || is_map<T> || is_set<T>) {
    return sizeof(std::uint64_t) + elements_size(value);
  } else if constexpr (is_std_array_v<T> || std::is_array_v<T>) {
    return elements_size(value);
  } else if constexpr (is_specialization<T, std::pair>) {
    return wire_size(value.first) + wire_size(value.second);
  } else if constexpr (is_specialization<T, std::tuple>) {
    return std::apply([](const auto&... e) { return (std::size_t{0} + ... + wire_size(e)); },
                      value);
  } else if constexpr (is_specialization<T, std::optional>) {
    return 1 + (value ? wire_size(*value) : 0);
  } else if constexpr (is_specialization<T, std::variant>) {
    return sizeof(std::uint32_t) +
           std::visit([](const auto& alternative) { return wire_size(alternative); }, value);
  } else if constexpr (has_serialize<T> || reflected_aggregate<T>) {
    std::size_t bytes = 0;
    for_fields(value, [&bytes](const auto&... fields) {
      bytes += (std::size_t{0} + ... + wire_size(fields));
    });
    return bytes;
  } else {
    static_assert(dependent_false<T>,
                  "thinmpi cannot serialize this type: it is not a supported standard type or an "
                  "aggregate struct; give it a member template <class Fields> void "
                  "serialize(Fields& fields) { fields(member1, member2); }");
    return 0;
  }
}

template <class T>
void write(byte_writer& out, const T& value) {
  if constexpr (is_block<T>()) {
    out.put_value(value);
  } else if constexpr (std::is_same_v<T, bool>) {
    out.put_value(static_cast<std::uint8_t>(value ? 1 : 0));
  } else if constexpr (is_string<T> || is_vector<T>) {
    out.put_length(value.size());
    if constexpr (is_block<typename T::value_type>()) {
      out.put(value.data(), value.size() * sizeof(typename T::value_type));
    } else {
      for (const auto& e : value)
        write(out, e);
    }
  } else if constexpr (is_map<T> || is_set<T>) {
    out.put_length(value.size());
    for (const auto& e : value)
      write(out, e);
  } else if constexpr (is_std_array_v<T> || std::is_array_v<T>) {
    for (const auto& e : value)
      write(out, e);
  } else if constexpr (is_specialization<T, std::pair>) {
    write(out, value.first);
    write(out, value.second);
  } else if constexpr (is_specialization<T, std::tuple>) {
    std::apply([&out](const auto&... e) { (write(out, e), ...); }, value);
  } else if constexpr (is_specialization<T, std::optional>) {
    out.put_value(static_cast<std::uint8_t>(value ? 1 : 0));
    if (value) write(out, *value);
  } else if constexpr (is_specialization<T, std::variant>) {
    out.put_value(static_cast<std::uint32_t>(value.index()));
    std::visit([&out](const auto& alternative) { write(out, alternative); }, value);
  } else {
    for_fields(value, [&out](const auto&... fields) { (write(out, fields), ...); });
  }
}

/// The bound a length is checked against: the fewest bytes one element takes, at least 1.
template <class E>
consteval std::size_t length_unit() {
  return min_wire_size<E>() == 0 ? 1 : min_wire_size<E>();
}

template <class E>
consteval void require_bounded_elements() {
  static_assert(has_serialize<E> || min_wire_size<E>() != 0,
                "thinmpi cannot serialize a container of empty elements (std::monostate, empty "
                "structs): they take no bytes, so a received length could not be bounded by the "
                "message's size");
}

/// What a map or set is read as before it is inserted: a key, or a key and a value.
template <class T>
struct stored_element {
  using type = typename T::key_type;
};
template <class T>
requires requires {
  typename T::mapped_type;
}
struct stored_element<T> {
  using type = std::pair<typename T::key_type, typename T::mapped_type>;
};

/// A byte string's characters where they lie in the message, their length checked. The string
/// is then built from them where it is stored: one allocation of its size, one copy, where an
/// empty string assigned to would first be made and then grown (to twice a short string's
/// capacity). Always inlined: GCC 12 made it a call (19 instructions a string) once it had
/// two callers.
template <class S>
[[gnu::always_inline]] inline std::basic_string_view<typename S::value_type,
                                                     typename S::traits_type>
take_chars(byte_reader& in) {
  constexpr std::string_view type = spelled_name<S>();
  const std::size_t length = in.take_length(1, type);
  return {reinterpret_cast<const typename S::value_type*>(in.take(length, type)), length};
}

/// A byte string's new characters written into it: read into again at its own length (a kept
/// value's), the chars alone, where assign's general replace costs some 40 instructions more a
/// string; else assign (one write, no zeroing).
template <class S>
[[gnu::always_inline]] inline void assign_chars(
    S& value, std::basic_string_view<typename S::value_type, typename S::traits_type> chars) {
  if (!chars.empty() && chars.size() == value.size()) {
    std::memcpy(value.data(), chars.data(), chars.size());
  } else {
    value.assign(chars.data(), chars.size());
  }
}

[[noreturn, gnu::cold, gnu::noinline]] inline void fail_duplicate(const byte_reader& in,
                                                                  std::string_view type,
                                                                  std::size_t at) {
  in.fail(type, "a duplicate key (the element at byte " + std::to_string(at) + ")");
}

/// One entry of a map decoded straight into a new node (try_emplace: no node for a key already
/// there), its key already read, with no element built beside the node and moved in: a string
/// value is built in the node from its bytes (take_chars), any other value is read in place. A
/// duplicate key's value is still read first (into a scratch value), so the error is the one a
/// whole-entry read reports: a truncated value first, the duplicate at the entry's end.
template <class Map>
void read_map_entry(byte_reader& in, Map& value, typename Map::key_type&& key, std::size_t at) {
  using mapped = typename Map::mapped_type;
  const std::size_t before = value.size();
  if constexpr (is_byte_string<mapped>) {
    const auto chars = take_chars<mapped>(in);
    value.try_emplace(value.end(), std::move(key), chars.data(), chars.size());
    if (value.size() == before) [[unlikely]] {
      fail_duplicate(in, spelled_name<Map>(), at);
    }
  } else {
    const auto where = value.try_emplace(value.end(), std::move(key));
    if (value.size() == before) [[unlikely]] {
      mapped scratch{};
      read(in, scratch);
      fail_duplicate(in, spelled_name<Map>(), at);
    }
    read(in, where->second);
  }
}

/// One entry of a map or set, its key already read, in a new node. A duplicate key is
/// reported at the entry's end.
template <class Container>
void insert_new_entry(byte_reader& in, Container& value, typename Container::key_type& key,
                      std::size_t at) {
  if constexpr (is_map<Container>) {
    read_map_entry(in, value, std::move(key), at);
  } else {
    const std::size_t before = value.size();
    value.emplace_hint(value.end(), std::move(key));
    if (value.size() == before) [[unlikely]] {
      fail_duplicate(in, spelled_name<Container>(), at);
    }
  }
}

/// One entry of a map or set, its key already read, in a node taken from spare (which has one):
/// the key copied into the node's, a value read into the node's (a string keeps its storage).
/// A duplicate key is reported at the entry's end.
template <class Container>
void insert_spare_entry(byte_reader& in, Container& value, Container& spare,
                        const typename Container::key_type& key, std::size_t at) {
  auto node = spare.extract(spare.begin());
  if constexpr (is_map<Container>) {
    node.key() = key;
    read(in, node.mapped());
  } else {
    node.value() = key;
  }
  const std::size_t before = value.size();
  value.insert(value.end(), std::move(node));
  if (value.size() == before) [[unlikely]] {
    fail_duplicate(in, spelled_name<Container>(), at);
  }
}

/// Whether a and b are the same key of container (its comparison or its equality).
template <class Container>
bool same_key(const Container& container, const typename Container::key_type& a,
              const typename Container::key_type& b) {
  if constexpr (requires { container.key_eq(); }) {
    return container.key_eq()(a, b);
  } else {
    return !container.key_comp()(a, b) && !container.key_comp()(b, a);
  }
}

/// The n entries of a map or set, read into value. While the keys are the ones value holds, in
/// its order, their values are read in place and no node is touched (a kept map receiving the
/// same keys again). From the first other key on, value's nodes past the matched ones are
/// reused for the entries read, new ones are made past them, and the unused are freed. A new
/// container has no node, so every entry gets a new one.
template <class T>
void read_entries(byte_reader& in, T& value, std::size_t n) {
  typename T::key_type key{};
  auto kept = value.begin();
  std::size_t i = 0;
  std::size_t at = 0;
  for (; i < n; ++i) {
    at = in.offset();
    read(in, key);
    if (kept == value.end()) break;
    if constexpr (is_map<T>) {
      if (!same_key(value, key, kept->first)) break;
      read(in, kept->second);
    } else {
      if (!same_key(value, key, *kept)) break;
    }
    ++kept;
  }
  if (i == n) {
    value.erase(kept, value.end());
    return;
  }
  // Entry i's key is another: the matched nodes stay, the rest become spares. A moved
  // allocator equals its source (the Allocator requirements), so the nodes move between the two.
  T spare = std::move(value);
  value.clear();
  if constexpr (requires { value.reserve(n); }) value.reserve(n);
  const std::size_t matched = i;  // entry `matched` has its key read already
  for (std::size_t j = 0; j < matched; ++j)
    value.insert(value.end(), spare.extract(spare.begin()));
  // Spare nodes while they last, then new ones (a new container has only new ones).
  for (; i < n && !spare.empty(); ++i) {
    if (i != matched) {
      at = in.offset();
      read(in, key);
    }
    insert_spare_entry(in, value, spare, key, at);
  }
  for (; i < n; ++i) {
    if (i != matched) {
      at = in.offset();
      read(in, key);
    }
    insert_new_entry(in, value, key, at);
  }
}

template <class Variant, std::size_t I = 0>
void read_alternative(byte_reader& in, Variant& value, std::size_t index) {
  if constexpr (I < std::variant_size_v<Variant>) {
    if (index == I) {
      if (value.index() == I) {
        read(in, std::get<I>(value));  // the alternative it holds is read into
      } else {
        read(in, value.template emplace<I>());
      }
    } else {
      read_alternative<Variant, I + 1>(in, value, index);
    }
  }
}

template <class T>
void read(byte_reader& in, T& value) {
  constexpr std::string_view the_type = spelled_name<T>();
  if constexpr (is_block<T>()) {
    value = in.take_value<T>(the_type);
  } else if constexpr (std::is_same_v<T, bool>) {
    const auto byte = in.take_value<std::uint8_t>(the_type);
    if (byte > 1) [[unlikely]] {
      in.fail(the_type, "a bool byte of " + std::to_string(byte) + " (0 or 1 expected)");
    }
    value = byte == 1;
  } else if constexpr (is_string<T>) {
    using C = typename T::value_type;
    const std::size_t n = in.take_length(sizeof(C), the_type);
    const std::byte* chars = in.take(n * sizeof(C), the_type);  // checked: n fits
    if constexpr (sizeof(C) == 1) {
      assign_chars(value, {reinterpret_cast<const C*>(chars), n});
    } else {
      value.resize(n);
      if (n != 0) std::memcpy(value.data(), chars, n * sizeof(C));
    }
  } else if constexpr (is_vector<T>) {
    using E = typename T::value_type;
    require_bounded_elements<E>();
    const std::size_t n = in.take_length(length_unit<E>(), the_type);
    if constexpr (is_block<E>()) {
      value.resize(n);
      if (n != 0) std::memcpy(value.data(), in.take(n * sizeof(E), the_type), n * sizeof(E));
    } else {
      // Elements already there are read into (a string keeps its storage when the new one
      // fits); only the ones beyond them are built. A new vector has none.
      if (n < value.size())
        value.erase(value.begin() + static_cast<std::ptrdiff_t>(n), value.end());
      value.reserve(n);
      const std::size_t kept = value.size();
      for (std::size_t i = 0; i < kept; ++i) {
        if constexpr (is_byte_string<E>) {
          assign_chars(value[i], take_chars<E>(in));  // inline: a call a string otherwise
        } else {
          read(in, value[i]);
        }
      }
      for (std::size_t i = kept; i < n; ++i) {
        if constexpr (is_byte_string<E>) {
          const auto chars = take_chars<E>(in);
          value.emplace_back(chars.data(), chars.size());
        } else if constexpr (is_keyed_byte_string<E>) {
          // The flat form of a map<K, std::string>: the key, then the string built in place.
          typename E::first_type key{};
          read(in, key);
          const auto chars = take_chars<typename E::second_type>(in);
          value.emplace_back(std::piecewise_construct, std::forward_as_tuple(std::move(key)),
                             std::forward_as_tuple(chars.data(), chars.size()));
        } else {
          read(in, value.emplace_back());
        }
      }
    }
  } else if constexpr (is_map<T> || is_set<T>) {
    using E = typename stored_element<T>::type;
    require_bounded_elements<E>();
    read_entries(in, value, in.take_length(length_unit<E>(), the_type));
  } else if constexpr (is_std_array_v<T> || std::is_array_v<T>) {
    for (auto& e : value)
      read(in, e);
  } else if constexpr (is_specialization<T, std::pair>) {
    read(in, value.first);
    read(in, value.second);
  } else if constexpr (is_specialization<T, std::tuple>) {
    std::apply([&in](auto&... e) { (read(in, e), ...); }, value);
  } else if constexpr (is_specialization<T, std::optional>) {
    const auto flag = in.take_value<std::uint8_t>(the_type);
    if (flag > 1) [[unlikely]] {
      in.fail(the_type, "an optional flag of " + std::to_string(flag) + " (0 or 1 expected)");
    }
    if (flag == 0) {
      value.reset();
    } else {
      if (!value) value.emplace();
      read(in, *value);  // a value it holds is read into
    }
  } else if constexpr (is_specialization<T, std::variant>) {
    const auto index = in.take_value<std::uint32_t>(the_type);
    if (index >= std::variant_size_v<T>) [[unlikely]] {
      in.fail(the_type, "an alternative index of " + std::to_string(index) + " (fewer than " +
                            std::to_string(std::variant_size_v<T>) + " expected)");
    }
    read_alternative(in, value, index);
  } else {
    for_fields(value, [&in](auto&... fields) { (read(in, fields), ...); });
  }
}

/// value's encoding in a new Bytes (a std::vector of std::byte): one size pass, one allocation,
/// one copy pass.
template <class Bytes, class T>
Bytes encode(const T& value) {
  Bytes bytes;
  bytes.resize(wire_size(value));
  byte_writer out(bytes.data());
  write(out, value);
  return bytes;
}

/// Decodes bytes into value, reading into what it holds (its strings and vectors keep their
/// storage where the new ones fit, its maps' and sets' nodes are reused); throws decode_failure
/// (without MPI context) when they are not one T, leaving value part read.
template <class T>
void decode_into_or_fail(std::span<const std::byte> bytes, T& value) {
  static_cast<void>(static_cast<std::size_t (*)(const T&)>(&wire_size<T>));  // its diagnostics
  byte_reader in(bytes.data(), bytes.size());
  read(in, value);
  if (in.left() != 0) [[unlikely]] {
    in.fail(spelled_name<T>(), counted(in.left(), "byte", "bytes") + " left over after the value");
  }
}

/// Decodes bytes as a T; throws decode_failure (without MPI context) when they are not one.
template <class T>
T decode_or_fail(std::span<const std::byte> bytes) {
  T value{};
  decode_into_or_fail(bytes, value);
  return value;
}

/// Decodes bytes as a T; a failure is a serialization_error with the context of `site` (the
/// receive or the collective block the bytes came from).
template <class T>
T decode_in(std::span<const std::byte> bytes, const error_site& site) {
  try {
    return decode_or_fail<T>(bytes);
  } catch (const decode_failure& failure) {
    raise_decode(failure, spelled_name<T>(), site);
  }
}

/// Decodes bytes into value (decode_into_or_fail). On any failure value is emptied (T{}), so no
/// part of the malformed message or of value's old contents is left to be mistaken for a
/// result; a decode failure is a serialization_error with the context of `site`.
template <class T>
void decode_into(std::span<const std::byte> bytes, T& value, const error_site& site) {
  try {
    decode_into_or_fail(bytes, value);
  } catch (const decode_failure& failure) {
    value = T{};
    raise_decode(failure, spelled_name<T>(), site);
  } catch (...) {
    value = T{};
    throw;
  }
}

}  // namespace thinmpi::detail::serial
