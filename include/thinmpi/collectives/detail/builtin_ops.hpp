#pragma once
/// \file
/// Which function objects are MPI's predefined operations, on which element types: std::plus
/// is MPI_SUM on integers, floating point and complex numbers, ..., decided at compile time.
/// A named operation on an element type MPI does not define it for fails to compile with one
/// sentence naming the fix.

#include <complex>
#include <cstddef>
#include <functional>
#include <type_traits>

#include "thinmpi/collectives/ops.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi::detail {

/// MPI's "C integer" reduction category (MPI-4.0 section 6.9.2): the integer types whose
/// datatype thinmpi uses, excluding char and wchar_t (MPI_CHAR, MPI_WCHAR are not in it).
template <class T>
inline constexpr bool is_reduction_integer =
    is_one_of<T, signed char, unsigned char, short, unsigned short, int, unsigned, long,
              unsigned long, long long, unsigned long long, char8_t, char16_t, char32_t>;

/// MPI's "Floating point" category.
template <class T>
inline constexpr bool is_reduction_floating = is_one_of<T, float, double, long double>;

/// MPI's "Complex" category.
template <class T>
inline constexpr bool is_reduction_complex =
    is_one_of<T, std::complex<float>, std::complex<double>, std::complex<long double>>;

/// What a named operation is for MPI, and on which element types.
enum class op_kind { sum, prod, land, lor, band, bor, bxor, min, max, minloc, maxloc, user };

template <class Op>
struct kind_of : std::integral_constant<op_kind, op_kind::user> {};
template <class T>
struct kind_of<std::plus<T>> : std::integral_constant<op_kind, op_kind::sum> {};
template <class T>
struct kind_of<std::multiplies<T>> : std::integral_constant<op_kind, op_kind::prod> {};
template <class T>
struct kind_of<std::logical_and<T>> : std::integral_constant<op_kind, op_kind::land> {};
template <class T>
struct kind_of<std::logical_or<T>> : std::integral_constant<op_kind, op_kind::lor> {};
template <class T>
struct kind_of<std::bit_and<T>> : std::integral_constant<op_kind, op_kind::band> {};
template <class T>
struct kind_of<std::bit_or<T>> : std::integral_constant<op_kind, op_kind::bor> {};
template <class T>
struct kind_of<std::bit_xor<T>> : std::integral_constant<op_kind, op_kind::bxor> {};
template <>
struct kind_of<min_op> : std::integral_constant<op_kind, op_kind::min> {};
template <>
struct kind_of<max_op> : std::integral_constant<op_kind, op_kind::max> {};
template <>
struct kind_of<minloc_op> : std::integral_constant<op_kind, op_kind::minloc> {};
template <>
struct kind_of<maxloc_op> : std::integral_constant<op_kind, op_kind::maxloc> {};

/// The operation under a commutative() marker.
template <class Op>
struct unmarked {
  using type = Op;
  static constexpr bool marked_commutative = false;
};
template <class F>
struct unmarked<commutative_op<F>> {
  using type = F;
  static constexpr bool marked_commutative = true;
};

/// The type argument of std::plus<T> etc. (void for the transparent std::plus<>).
template <class Op>
struct operand_of {
  using type = void;
};
template <template <class> class Named, class T>
struct operand_of<Named<T>> {
  using type = T;
};

/// Whether MPI defines the operation of kind K on elements of type T.
template <op_kind K, class T>
consteval bool mpi_defines() {
  using U = std::remove_cv_t<T>;
  constexpr bool integer = is_reduction_integer<U>;
  constexpr bool floating = is_reduction_floating<U>;
  constexpr bool complex = is_reduction_complex<U>;
  switch (K) {
    case op_kind::sum:
    case op_kind::prod:
      return integer || floating || complex;
    case op_kind::land:
    case op_kind::lor:
      return integer || std::is_same_v<U, bool>;
    case op_kind::band:
    case op_kind::bor:
    case op_kind::bxor:
      return integer || std::is_same_v<U, std::byte>;
    case op_kind::min:
    case op_kind::max:
      return integer || floating;
    case op_kind::minloc:
    case op_kind::maxloc:
      return false;  // only value_index<T>, below
    case op_kind::user:
      return false;
  }
  return false;
}

template <class T>
struct is_value_index : std::false_type {};
template <class V>
struct is_value_index<value_index<V>> : std::bool_constant<has_pair_datatype<V>> {};

/// Whether MPI defines MPI_MINLOC / MPI_MAXLOC (kind K) on T: value_index of a pair type.
template <op_kind K, class T>
consteval bool mpi_defines_pair() {
  return (K == op_kind::minloc || K == op_kind::maxloc) &&
         is_value_index<std::remove_cv_t<T>>::value;
}

/// Whether Op (under any commutative() marker) is MPI's predefined operation on elements of T.
template <class Op, class T>
inline constexpr bool is_builtin_op =
    (mpi_defines<kind_of<typename unmarked<Op>::type>::value, T>() ||
     mpi_defines_pair<kind_of<typename unmarked<Op>::type>::value, T>()) &&
    (std::is_void_v<typename operand_of<typename unmarked<Op>::type>::type> ||
     std::is_same_v<typename operand_of<typename unmarked<Op>::type>::type, T>);

/// Whether Op is one of the named operations (std::plus, thinmpi::min, ...), builtin or not.
template <class Op>
inline constexpr bool is_named_op = kind_of<typename unmarked<Op>::type>::value != op_kind::user;

/// MPI's predefined operation for Op on T. Only for is_builtin_op<Op, T>.
template <class Op, class T>
requires is_builtin_op<Op, T>
[[nodiscard, gnu::always_inline]] inline MPI_Op builtin_op() noexcept {
  constexpr op_kind kind = kind_of<typename unmarked<Op>::type>::value;
  if constexpr (kind == op_kind::sum)
    return MPI_SUM;
  else if constexpr (kind == op_kind::prod)
    return MPI_PROD;
  else if constexpr (kind == op_kind::land)
    return MPI_LAND;
  else if constexpr (kind == op_kind::lor)
    return MPI_LOR;
  else if constexpr (kind == op_kind::band)
    return MPI_BAND;
  else if constexpr (kind == op_kind::bor)
    return MPI_BOR;
  else if constexpr (kind == op_kind::bxor)
    return MPI_BXOR;
  else if constexpr (kind == op_kind::min)
    return MPI_MIN;
  else if constexpr (kind == op_kind::max)
    return MPI_MAX;
  else if constexpr (kind == op_kind::minloc)
    return MPI_MINLOC;
  else
    return MPI_MAXLOC;
}

/// Fails to compile, with one sentence naming the fix, when Op names an MPI operation that
/// MPI does not define on elements of T (std::plus<> on a struct, std::bit_and<> on double).
template <class Op, class T>
consteval void require_meaningful_op() {
  using named = typename unmarked<Op>::type;
  constexpr op_kind kind = kind_of<named>::value;
  using operand = typename operand_of<named>::type;
  if constexpr (kind == op_kind::user || is_builtin_op<Op, T>) {
    return;
  } else if constexpr (!std::is_void_v<operand> && !std::is_same_v<operand, T> &&
                       kind != op_kind::min && kind != op_kind::max && kind != op_kind::minloc &&
                       kind != op_kind::maxloc) {
    static_assert(dependent_false<T>,
                  "thinmpi: this std:: operation is for another type than the elements reduced; "
                  "use the transparent form (std::plus<>{}, std::bit_and<>{}, ...)");
  } else if constexpr (kind == op_kind::sum || kind == op_kind::prod) {
    static_assert(dependent_false<T>,
                  "thinmpi: MPI_SUM and MPI_PROD (std::plus, std::multiplies) are defined on "
                  "integers, floating point and complex numbers only; reduce other element "
                  "types with a lambda, e.g. [](const T& a, const T& b) { return a + b; }");
  } else if constexpr (kind == op_kind::land || kind == op_kind::lor) {
    static_assert(dependent_false<T>,
                  "thinmpi: MPI_LAND and MPI_LOR (std::logical_and, std::logical_or) are defined "
                  "on integers and bool only; reduce other element types with a lambda");
  } else if constexpr (kind == op_kind::band || kind == op_kind::bor || kind == op_kind::bxor) {
    static_assert(dependent_false<T>,
                  "thinmpi: MPI_BAND, MPI_BOR and MPI_BXOR (std::bit_and, std::bit_or, "
                  "std::bit_xor) are defined on integers and std::byte only; reduce other "
                  "element types with a lambda");
  } else if constexpr (kind == op_kind::min || kind == op_kind::max) {
    static_assert(dependent_false<T>,
                  "thinmpi: MPI_MIN and MPI_MAX (thinmpi::min, thinmpi::max) are defined on "
                  "integers and floating point only (not complex numbers); reduce other element "
                  "types with a lambda");
  } else {
    static_assert(dependent_false<T>,
                  "thinmpi: MPI_MINLOC and MPI_MAXLOC (thinmpi::minloc, thinmpi::maxloc) reduce "
                  "thinmpi::value_index<T> with T float, double, long double, short, int or "
                  "long; reduce other element types with a lambda");
  }
}

}  // namespace thinmpi::detail
