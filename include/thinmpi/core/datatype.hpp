#pragma once
/// \file
/// C++ type -> MPI_Datatype. Predefined types map to MPI's own; std::array, C arrays and
/// aggregate structs get a derived datatype built and committed once per type, with no macro.
/// A type can bring its own datatype by specializing thinmpi::datatype_traits.

#include <array>
#include <atomic>
#include <complex>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#if __has_include(<cxxabi.h>)
#include <cxxabi.h>
#endif

#include "thinmpi/core/detail/aggregate.hpp"
#include "thinmpi/core/detail/at_finalize.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/detail/type_name.hpp"

namespace thinmpi {

/// Customization point: give a type its own MPI datatype.
///
///     struct my_type { double re, im; };  // a type of yours
///     template <> struct thinmpi::datatype_traits<my_type> {
///       static MPI_Datatype get();  // a committed datatype whose extent is sizeof(my_type)
///     };
template <class T>
struct datatype_traits {};

namespace detail {

template <class T>
concept custom_datatype = requires {
  { datatype_traits<T>::get() } -> std::same_as<MPI_Datatype>;
};

template <class T, class... U>
inline constexpr bool is_one_of = (std::is_same_v<T, U> || ...);

/// Types MPI has a predefined datatype for.
template <class T>
inline constexpr bool is_predefined =
    is_one_of<T, bool, char, signed char, unsigned char, wchar_t, char8_t, char16_t, char32_t,
              short, unsigned short, int, unsigned, long, unsigned long, long long,
              unsigned long long, float, double, long double, std::byte, std::complex<float>,
              std::complex<double>, std::complex<long double>>;

template <class T>
struct is_std_array : std::false_type {};
template <class T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};

template <class T>
concept reflectable_aggregate =
    std::is_class_v<T> && std::is_aggregate_v<T> && !std::is_union_v<T> &&
    std::is_trivially_copyable_v<T> && std::is_standard_layout_v<T> && !is_std_array<T>::value &&
    field_count<T> >= 1;

template <class T>
MPI_Datatype predefined_datatype() {
  if constexpr (std::is_same_v<T, bool>)
    return MPI_CXX_BOOL;
  else if constexpr (std::is_same_v<T, char>)
    return MPI_CHAR;
  else if constexpr (std::is_same_v<T, signed char>)
    return MPI_SIGNED_CHAR;
  else if constexpr (std::is_same_v<T, unsigned char>)
    return MPI_UNSIGNED_CHAR;
  else if constexpr (std::is_same_v<T, wchar_t>)
    return MPI_WCHAR;
  else if constexpr (std::is_same_v<T, char8_t>)
    return MPI_UINT8_T;
  else if constexpr (std::is_same_v<T, char16_t>)
    return MPI_UINT16_T;
  else if constexpr (std::is_same_v<T, char32_t>)
    return MPI_UINT32_T;
  else if constexpr (std::is_same_v<T, short>)
    return MPI_SHORT;
  else if constexpr (std::is_same_v<T, unsigned short>)
    return MPI_UNSIGNED_SHORT;
  else if constexpr (std::is_same_v<T, int>)
    return MPI_INT;
  else if constexpr (std::is_same_v<T, unsigned>)
    return MPI_UNSIGNED;
  else if constexpr (std::is_same_v<T, long>)
    return MPI_LONG;
  else if constexpr (std::is_same_v<T, unsigned long>)
    return MPI_UNSIGNED_LONG;
  else if constexpr (std::is_same_v<T, long long>)
    return MPI_LONG_LONG;
  else if constexpr (std::is_same_v<T, unsigned long long>)
    return MPI_UNSIGNED_LONG_LONG;
  else if constexpr (std::is_same_v<T, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, long double>)
    return MPI_LONG_DOUBLE;
  else if constexpr (std::is_same_v<T, std::byte>)
    return MPI_BYTE;
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return MPI_CXX_FLOAT_COMPLEX;
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return MPI_CXX_DOUBLE_COMPLEX;
  else
    return MPI_CXX_LONG_DOUBLE_COMPLEX;
}

template <class T>
consteval bool datatype_exists();

}  // namespace detail

/// True for the types thinmpi can send as elements: MPI's predefined types, std::byte, enums,
/// std::complex, std::array and C arrays of such types, aggregate structs whose members all are,
/// and types with a thinmpi::datatype_traits specialization.
template <class T>
concept has_datatype = detail::datatype_exists<T>();

template <has_datatype T>
MPI_Datatype datatype_of();

namespace detail {

// A named probe, not a lambda in the decltype: clang 14 crashes reading a lambda in an
// unevaluated operand back from a precompiled header (ASTReader, LambdaExpr::children).
struct members_have_datatypes_probe {
  template <class... M>
  auto operator()(M&...) const noexcept {
    return std::bool_constant<(datatype_exists<std::remove_cv_t<M>>() && ...)>{};
  }
};

template <class T>
consteval bool members_have_datatypes() {
  using result =
      decltype(visit_fields<field_count<T>>(std::declval<T&>(), members_have_datatypes_probe{}));
  return result::value;
}

/// Whether T has a datatype; recursive through arrays and struct members.
template <class T>
consteval bool datatype_exists() {
  using U = std::remove_cv_t<T>;
  if constexpr (custom_datatype<U> || is_predefined<U> || std::is_enum_v<U>) {
    return true;
  } else if constexpr (is_std_array<U>::value) {
    return datatype_exists<typename U::value_type>();
  } else if constexpr (std::is_bounded_array_v<U>) {
    return datatype_exists<std::remove_extent_t<U>>();
  } else if constexpr (reflectable_aggregate<U>) {
    return members_have_datatypes<U>();
  } else {
    return false;
  }
}

/// A readable name for T, used to name its derived datatype in error messages.
template <class T>
std::string type_name() {
  const char* mangled = typeid(T).name();
#if __has_include(<cxxabi.h>)
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> readable(
      abi::__cxa_demangle(mangled, nullptr, nullptr, &status), &std::free);
  if (status == 0 && readable) return readable_name(readable.get());
#endif
  return mangled;
}

/// Names and commits a freshly built datatype; frees it if that fails.
inline MPI_Datatype commit_named(MPI_Datatype type, const std::string& name) {
  if (const int rc = MPI_Type_commit(&type); rc != MPI_SUCCESS) {
    MPI_Type_free(&type);
    raise(rc, error_site{.operation = "MPI_Type_commit"});
  }
  MPI_Type_set_name(type, name.c_str());  // only for messages; a failure here is harmless
  finalize_registry<MPI_Datatype, &MPI_Type_free>::add(type);
  return type;
}

/// N consecutive elements: the datatype of std::array<E, N> and E[N].
template <class E>
MPI_Datatype build_array_datatype(std::size_t n) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  check(MPI_Type_contiguous(static_cast<int>(n), datatype_of<E>(), &type), "MPI_Type_contiguous");
  return commit_named(type, type_name<E>() + "[" + std::to_string(n) + "]");
}

/// The element type an array member is made of, and how many of them (a plain member: itself,
/// once), so that `double position[3]` is three MPI_DOUBLE in the struct's type map.
template <class M>
struct innermost {
  using type = M;
  static constexpr std::size_t count = 1;
};
template <class E, std::size_t N>
struct innermost<E[N]> {
  using type = typename innermost<E>::type;
  static constexpr std::size_t count = N * innermost<E>::count;
};
template <class E, std::size_t N>
struct innermost<std::array<E, N>> {
  using type = typename innermost<E>::type;
  static constexpr std::size_t count = N * innermost<E>::count;
};

/// One block of a struct datatype: `length` elements of `type` from `offset`.
struct struct_block {
  MPI_Aint offset;
  int length;
  MPI_Datatype type;
  MPI_Aint element_size;
};

/// Adds a member to the blocks, merging it into the previous block when it continues it with
/// the same type: the datatype a careful C programmer writes ({3 x MPI_DOUBLE, ...} rather than
/// one block per field), which MPI packs faster.
template <class M>
void add_member(std::vector<struct_block>& blocks, MPI_Aint offset) {
  using element = typename innermost<M>::type;
  const struct_block next{offset, static_cast<int>(innermost<M>::count), datatype_of<element>(),
                          static_cast<MPI_Aint>(sizeof(element))};
  if (!blocks.empty()) {
    struct_block& last = blocks.back();
    if (last.type == next.type && last.offset + last.length * last.element_size == offset) {
      last.length += next.length;
      return;
    }
  }
  blocks.push_back(next);
}

/// A struct datatype of the members at their real offsets (adjacent members of one type merged),
/// resized to sizeof(T) so that arrays of T step over trailing padding; padding is never sent.
template <class T>
MPI_Datatype build_struct_datatype() {
  std::vector<struct_block> blocks;
  const T object{};
  const auto* base = reinterpret_cast<const std::byte*>(&object);
  visit_fields<field_count<T>>(object, [&](const auto&... member) {
    (add_member<std::remove_cvref_t<decltype(member)>>(
         blocks, reinterpret_cast<const std::byte*>(&member) - base),
     ...);
  });
  std::vector<int> lengths;
  std::vector<MPI_Aint> offsets;
  std::vector<MPI_Datatype> types;
  for (const struct_block& b : blocks) {
    lengths.push_back(b.length);
    offsets.push_back(b.offset);
    types.push_back(b.type);
  }
  MPI_Datatype packed = MPI_DATATYPE_NULL;
  check(MPI_Type_create_struct(static_cast<int>(blocks.size()), lengths.data(), offsets.data(),
                               types.data(), &packed),
        "MPI_Type_create_struct");
  MPI_Datatype resized = MPI_DATATYPE_NULL;
  const int rc = MPI_Type_create_resized(packed, 0, static_cast<MPI_Aint>(sizeof(T)), &resized);
  MPI_Type_free(&packed);
  check(rc, "MPI_Type_create_resized");
  return commit_named(resized, type_name<T>());
}

template <class T>
MPI_Datatype build_derived_datatype() {
  if constexpr (is_std_array<T>::value) {
    return build_array_datatype<typename T::value_type>(std::tuple_size_v<T>);
  } else if constexpr (std::is_bounded_array_v<T>) {
    return build_array_datatype<std::remove_extent_t<T>>(std::extent_v<T>);
  } else {
    return build_struct_datatype<T>();
  }
}

/// The derived datatype of T once it is built; MPI_Datatype{} before, which is never a handle
/// (Open MPI's are pointers, MPICH's nonzero integers).
template <class T>
inline constinit std::atomic<MPI_Datatype> derived_cache{};

/// Builds T's datatype on its first use, once however many threads ask (a function-local
/// static), and publishes it to derived_cache. Out of line: the path that uses the datatype
/// keeps only the load and the test (issue 18).
template <class T>
[[gnu::cold, gnu::noinline]] MPI_Datatype build_derived_once() {
  static const MPI_Datatype type = build_derived_datatype<T>();
  derived_cache<T>.store(type, std::memory_order_release);
  return type;
}

/// The derived datatype of T, built and committed on first use (thread-safe) and freed at
/// MPI_Finalize. One load and one test a use, where a function-local static costs a load of its
/// guard, a test and a second load.
template <class T>
MPI_Datatype derived_datatype() {
  if (const MPI_Datatype type = derived_cache<T>.load(std::memory_order_acquire);
      type != MPI_Datatype{}) [[likely]] {
    return type;
  }
  return build_derived_once<T>();
}

}  // namespace detail

/// The MPI datatype thinmpi sends T as. Free for predefined types (an inline constant); a
/// function-local static for derived ones.
///
///     double x = 3.14;
///     MPI_Send(&x, 1, thinmpi::datatype_of<double>(), 1, 0, MPI_COMM_WORLD);
template <has_datatype T>
MPI_Datatype datatype_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (detail::custom_datatype<U>) {
    return datatype_traits<U>::get();
  } else if constexpr (detail::is_predefined<U>) {
    return detail::predefined_datatype<U>();
  } else if constexpr (std::is_enum_v<U>) {
    return datatype_of<std::underlying_type_t<U>>();
  } else {
    return detail::derived_datatype<U>();
  }
}

namespace detail {

template <class T>
consteval std::size_t static_wire_size();

// A named probe, as members_have_datatypes_probe: the members' wire sizes summed, 0 when one of
// them is not known at compile time.
struct members_wire_size_probe {
  template <class... M>
  auto operator()(M&...) const noexcept {
    constexpr bool known = ((static_wire_size<std::remove_cv_t<M>>() != 0) && ...);
    return std::integral_constant < std::size_t,
           known ? (static_wire_size<std::remove_cv_t<M>>() + ...) : 0 > {};
  }
};

/// Bytes one T occupies on the wire, when the compiler can know them; 0 when only MPI can (a
/// datatype_traits specialization, or a struct holding one). Predefined types and enums are
/// sizeof(T); arrays N times their element; an aggregate struct the sum of its members, which is
/// what MPI_Type_size says of the struct datatype thinmpi builds from them (padding is never
/// sent). Known at compile time, the size costs a receive nothing: no first-use guard, and a
/// struct without padding is checked as ints are (issue 18).
template <class T>
consteval std::size_t static_wire_size() {
  using U = std::remove_cv_t<T>;
  if constexpr (custom_datatype<U>) {
    return 0;
  } else if constexpr (is_predefined<U> || std::is_enum_v<U>) {
    return sizeof(U);
  } else if constexpr (is_std_array<U>::value) {
    return std::tuple_size_v<U> * static_wire_size<typename U::value_type>();
  } else if constexpr (std::is_bounded_array_v<U>) {
    return std::extent_v<U> * static_wire_size<std::remove_extent_t<U>>();
  } else if constexpr (reflectable_aggregate<U>) {
    using result =
        decltype(visit_fields<field_count<U>>(std::declval<U&>(), members_wire_size_probe{}));
    return result::value;
  } else {
    return 0;
  }
}

/// Whether T's wire size is sizeof(T), known at compile time: predefined types, enums, and
/// arrays and structs of them without padding.
template <class T>
inline constexpr bool wire_size_is_sizeof = static_wire_size<T>() == sizeof(T);

/// Bytes one T occupies on the wire (MPI_Type_size): static_wire_size where the compiler knows
/// it; otherwise asked of MPI once, on first use.
template <has_datatype T>
std::size_t wire_size() {
  using U = std::remove_cv_t<T>;
  if constexpr (static_wire_size<U>() != 0) {
    return static_wire_size<U>();
  } else {
    static const std::size_t size = [] {
      MPI_Count bytes = 0;
      check(MPI_Type_size_x(datatype_of<U>(), &bytes), "MPI_Type_size_x");
      return static_cast<std::size_t>(bytes);
    }();
    return size;
  }
}

}  // namespace detail
}  // namespace thinmpi
