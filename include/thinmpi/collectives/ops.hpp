#pragma once
/// \file
/// The reduction operations thinmpi adds to the standard function objects: min, max, minloc,
/// maxloc (with thinmpi::value_index, the value/index pair MPI_MINLOC and MPI_MAXLOC reduce),
/// and thinmpi::commutative(f), which declares a user operation commutative.
///
/// std::plus<>, std::multiplies<>, std::logical_and<>, std::logical_or<>, std::bit_and<>,
/// std::bit_or<>, std::bit_xor<>, thinmpi::min, thinmpi::max, thinmpi::minloc and
/// thinmpi::maxloc become MPI's predefined operations (MPI_SUM, ...) at compile time for the
/// element types MPI defines them on; any other callable is a user operation.

#include <type_traits>
#include <utility>

#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi {

/// The smaller of two values (MPI_MIN for integers and floating point).
///
///     int mine = world.rank() % 3;
///     int lowest = world.allreduce(mine, thinmpi::min);
struct min_op {
  /// b if b < a, else a.
  template <class T>
  constexpr const T& operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};
/// See min_op.
inline constexpr min_op min{};

/// The larger of two values (MPI_MAX for integers and floating point).
struct max_op {
  /// b if a < b, else a.
  template <class T>
  constexpr const T& operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};
/// See max_op.
inline constexpr max_op max{};

/// A value and the index it belongs to (usually a rank), reduced by minloc / maxloc. Laid out
/// as MPI's pair types: value_index<double> is MPI_DOUBLE_INT, value_index<int> MPI_2INT,
/// and likewise for float, long, short and long double.
///
///     double x = 1.0 / (world.rank() + 1);
///     auto [value, rank] = world.allreduce(thinmpi::value_index<double>{x, world.rank()},
///                                          thinmpi::minloc);
template <class T>
struct value_index {
  T value;    ///< the value compared
  int index;  ///< what it belongs to, e.g. the rank it came from
};

/// The pair with the smaller value, the smaller index on a tie (MPI_MINLOC).
struct minloc_op {
  /// As MPI_MINLOC defines it.
  template <class T>
  constexpr value_index<T> operator()(const value_index<T>& a, const value_index<T>& b) const {
    if (a.value < b.value) return a;
    if (b.value < a.value) return b;
    return a.index <= b.index ? a : b;
  }
};
/// See minloc_op.
inline constexpr minloc_op minloc{};

/// The pair with the larger value, the smaller index on a tie (MPI_MAXLOC).
struct maxloc_op {
  /// As MPI_MAXLOC defines it.
  template <class T>
  constexpr value_index<T> operator()(const value_index<T>& a, const value_index<T>& b) const {
    if (b.value < a.value) return a;
    if (a.value < b.value) return b;
    return a.index <= b.index ? a : b;
  }
};
/// See maxloc_op.
inline constexpr maxloc_op maxloc{};

/// A user operation declared commutative, so MPI may combine contributions in any order. A
/// user operation is otherwise non-commutative (combined in rank order), as MPI_Op_create
/// requires of thinmpi when it cannot know better.
template <class F>
struct commutative_op {
  F function;  ///< the operation
};

/// Declares f commutative: world.allreduce(x, thinmpi::commutative([](int a, int b) {...})).
template <class F>
[[nodiscard]] constexpr commutative_op<std::decay_t<F>> commutative(F&& f) {
  return commutative_op<std::decay_t<F>>{std::forward<F>(f)};
}

namespace detail {

/// The MPI pair datatype of value_index<T>, for the value types MPI has one for.
template <class T>
MPI_Datatype pair_datatype() {
  if constexpr (std::is_same_v<T, float>)
    return MPI_FLOAT_INT;
  else if constexpr (std::is_same_v<T, double>)
    return MPI_DOUBLE_INT;
  else if constexpr (std::is_same_v<T, long>)
    return MPI_LONG_INT;
  else if constexpr (std::is_same_v<T, int>)
    return MPI_2INT;
  else if constexpr (std::is_same_v<T, short>)
    return MPI_SHORT_INT;
  else
    return MPI_LONG_DOUBLE_INT;
}

/// Whether MPI has a value/int pair datatype for T.
template <class T>
inline constexpr bool has_pair_datatype =
    is_one_of<T, float, double, long, int, short, long double>;

}  // namespace detail

/// value_index<T> is MPI's pair type for T (MPI_DOUBLE_INT, ...).
template <class T>
requires detail::has_pair_datatype<T>
struct datatype_traits<value_index<T>> {
  /// The predefined pair datatype.
  static MPI_Datatype get() { return detail::pair_datatype<T>(); }
};

}  // namespace thinmpi
